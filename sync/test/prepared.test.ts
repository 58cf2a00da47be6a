import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeStatement, prepareReplicaStatements, replicaStatement, sqlLiteral } from '../src/client/prepared.ts';
import { openReplica, query, type ClientReplica } from '../src/client/replica.ts';

/** The replica's planned-once statements (prepared.ts): values written as literals must arrive exactly as given. */
describe('sqlLiteral', () => {
  it('quotes text with its quotes doubled and leaves backslashes as they are', () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'");
    expect(sqlLiteral('C:\\ruta\\')).toBe("'C:\\ruta\\'");
    expect(sqlLiteral(42)).toBe('42');
    expect(sqlLiteral(-3.5)).toBe('-3.5');
    expect(sqlLiteral(true)).toBe('true');
    expect(sqlLiteral(null)).toBe('null');
    expect(sqlLiteral(new Date('2026-12-03T12:00:00.000Z'))).toBe("'2026-12-03T12:00:00.000Z'");
  });

  it('refuses what it cannot write faithfully', () => {
    expect(() => sqlLiteral(Number.NaN)).toThrow();
    expect(() => sqlLiteral(Number.POSITIVE_INFINITY)).toThrow();
    expect(() => sqlLiteral('a\0b')).toThrow();
  });
});

const echo = replicaStatement('desk_test_echo', ['text', 'integer', 'jsonb', 'timestamptz'], 'select $1 as text, $2 as number, $3 as json, $4 as at');

describe('executeStatement', () => {
  let replica: ClientReplica;
  beforeAll(async () => {
    replica = await openReplica({ dataDir: 'memory://' });
  });
  afterAll(() => replica?.close());

  it('gives back every value as it was sent, however hostile the text', async () => {
    await prepareReplicaStatements(replica.db);
    const hostile = `O'Brien \\' ); drop table desk.outbox; -- "ñ" 🙂`;
    const [row] = await executeStatement<{ text: string; number: number; json: unknown; at: string }>(replica.db, echo, [
      hostile,
      -7,
      JSON.stringify({ name: hostile }),
      new Date('2026-12-03T12:00:00.000Z'),
    ]);
    expect(row?.text).toBe(hostile);
    expect(row?.number).toBe(-7);
    expect(row?.json).toEqual({ name: hostile });
    expect(new Date(row?.at ?? '').toISOString()).toBe('2026-12-03T12:00:00.000Z');
    const [outbox] = await query<{ ok: boolean }>(replica.db, sql`select to_regclass('desk.outbox') is not null as ok`);
    expect(outbox?.ok).toBe(true);
  });

  it('prepares once per session, also when asked again from inside a transaction', async () => {
    await prepareReplicaStatements(replica.db);
    await replica.db.transaction(async (tx) => {
      // A transaction's object is new: it asks the session what is prepared instead of preparing twice.
      await prepareReplicaStatements(tx);
      const [row] = await executeStatement<{ number: number }>(tx, echo, ['x', 1, '{}', new Date()]);
      expect(row?.number).toBe(1);
    });
    const [count] = await query<{ n: number }>(replica.db, sql`select count(*)::int as n from pg_prepared_statements where name = 'desk_test_echo'`);
    expect(count?.n).toBe(1);
  });

  it('prepares once when asked twice at the same time, as a pull and a scan do when the desk starts', async () => {
    const fresh = await openReplica({ dataDir: 'memory://' });
    try {
      await Promise.all([prepareReplicaStatements(fresh.db), prepareReplicaStatements(fresh.db)]);
      const [row] = await executeStatement<{ number: number }>(fresh.db, echo, ['x', 2, '{}', new Date()]);
      expect(row?.number).toBe(2);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a call with the wrong number of values', async () => {
    await expect(executeStatement(replica.db, echo, ['x'])).rejects.toThrow(/takes 4 values/);
  });
});
