import postgres, { type Sql } from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { withReservedTransactions } from '../src/pg-reserved-begin.ts';

/**
 * Decision 011: transactions on postgres.js own their connection. The
 * scenario is the upstream reproduction of porsager/postgres #823: the
 * three connections of a pool busy, six plain queries pipelined behind them,
 * five transactions at once. A BEGIN pipelined onto a busy connection, or
 * the one that fills its pipeline (max_pipeline 2), is sent without the
 * driver reserving the connection for it.
 */
const url = process.env.TEST_DATABASE_URL;
const applicationName = `reserved-begin-${process.pid}`;

/** Runs the scenario on fresh pools (one connection warm, two to open), as the upstream reproduction does. */
async function crowd(makePool: () => Sql): Promise<{ unsafe: number; failed: unknown[]; openTransactionsAfter: number }> {
  let unsafe = 0;
  let openTransactionsAfter = 0;
  const failed: unknown[] = [];
  const observer = postgres(url as string, { max: 1, onnotice: () => {} });
  try {
    for (let round = 0; round < 6; round++) {
      const sql = makePool();
      try {
        await sql`select 1`;
        // A query written as sql`…` is sent on the next tick unless execute() sends it now; sql.begin's BEGIN goes at once.
        const busy = [0, 1, 2].map(() => sql`select pg_sleep(0.05)`.execute());
        await new Promise((r) => setImmediate(r));
        const plain = Array.from({ length: 6 }, (_, k) => sql`select ${k}::int as n`.execute());
        const transactions = Array.from({ length: 5 }, (_, k) => sql.begin(async (tx) => (await tx`select ${k}::int as n`)[0]?.n));
        for (const r of await Promise.allSettled([...busy, ...plain, ...transactions])) {
          if (r.status === 'fulfilled') continue;
          if ((r.reason as { code?: string }).code === 'UNSAFE_TRANSACTION') unsafe++;
          else failed.push(r.reason);
        }
        // What the server sees once everything answered: this pool's connections left inside a transaction.
        await new Promise((r) => setTimeout(r, 50));
        const [row] = await observer`select count(*)::int as n from pg_stat_activity where application_name = ${applicationName} and state like 'idle in transaction%'`;
        openTransactionsAfter += row?.n ?? 0;
      } finally {
        await sql.end({ timeout: 1 });
      }
    }
  } finally {
    await observer.end({ timeout: 1 });
  }
  return { unsafe, failed, openTransactionsAfter };
}

describe.skipIf(!url)('transactions own their connection (postgres.js)', () => {
  let sql: Sql | null = null;
  afterEach(async () => {
    await sql?.end({ timeout: 1 });
    sql = null;
  });
  // max_pipeline is a driver option its type definitions leave out.
  const pool = () => postgres(url as string, { max: 3, ...({ max_pipeline: 2 } as object), onnotice: () => {}, connection: { application_name: applicationName } });

  it('never sends BEGIN on a connection it does not own, and leaves no transaction open', async () => {
    const outcome = await crowd(() => withReservedTransactions(pool()));
    expect(outcome).toEqual({ unsafe: 0, failed: [], openTransactionsAfter: 0 });
  });

  it('commits what a transaction did and rolls back a failed one, savepoints included', async () => {
    sql = withReservedTransactions(pool());
    const table = `t_reserved_${process.pid}_${Date.now()}`;
    await sql.unsafe(`create table ${table} (n int)`);
    try {
      await sql.begin(async (tx) => {
        await tx.unsafe(`insert into ${table} values (1)`);
        await (tx as unknown as { savepoint: (fn: (s: Sql) => Promise<void>) => Promise<void> })
          .savepoint(async (sp) => {
            await sp.unsafe(`insert into ${table} values (2)`);
            throw new Error('deshacer solo el savepoint');
          })
          .catch(() => {});
      });
      await expect(sql.begin(async (tx) => {
        await tx.unsafe(`insert into ${table} values (3)`);
        throw new Error('deshacer todo');
      })).rejects.toThrow('deshacer todo');
      expect((await sql.unsafe(`select n from ${table} order by n`)).map((r) => r.n)).toEqual([1]);
    } finally {
      await sql.unsafe(`drop table ${table}`);
    }
  });

  // When a postgres.js release fixes #823 this fails: then the wrapper (and decision 011) can go.
  it("is needed: the driver's own begin fails the same scenario (postgres.js 3.4.9)", async () => {
    const outcome = await crowd(pool);
    expect(outcome.unsafe).toBeGreaterThan(0);
  });
});
