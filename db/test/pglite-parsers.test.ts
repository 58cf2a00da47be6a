import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrate, type DbHandle } from '../src/create-db.ts';
import { textParsers, withParsersGivenOnce } from '../src/pglite-parsers.ts';
import { app_config } from '../src/schema/index.ts';
import { PGlite } from '@electric-sql/pglite';

/**
 * PGlite is given drizzle's text parsers once and drizzle's queries arrive
 * without them (pglite-parsers.ts): what a query answers must not change.
 */
describe('PGlite with the text parsers given once', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createDb(undefined, { dataDir: 'memory://' });
    await migrate(handle);
  });
  afterAll(() => handle?.close());

  it('reads timestamps, dates and intervals as text in raw statements, in and out of transactions', async () => {
    const statement = sql`select '2026-12-03 12:00:00+00'::timestamptz as at, '2026-12-03'::date as day, '1 hour'::interval as span, 1.5::numeric as n`;
    const outside = (await handle.db.execute(statement)) as unknown as { rows: Record<string, unknown>[] };
    const inside = await handle.db.transaction(async (tx) => (await tx.execute(statement)) as unknown as { rows: Record<string, unknown>[] });
    for (const result of [outside, inside]) {
      expect(result.rows[0]).toEqual({ at: '2026-12-03 12:00:00+00', day: '2026-12-03', span: '01:00:00', n: '1.5' });
    }
  });

  it('maps timestamp columns to dates through drizzle as before', async () => {
    await handle.db.insert(app_config).values({ key: 'parsers_test', value: 'x' }).onConflictDoNothing();
    const [row] = await handle.db.select({ updatedAt: app_config.updatedAt }).from(app_config).where(sql`${app_config.key} = 'parsers_test'`);
    expect(row?.updatedAt).toBeInstanceOf(Date);
  });

  it("drops only drizzle's own parsers from a query; others pass as given", async () => {
    const calls: (Record<string, unknown> | undefined)[] = [];
    const client = await PGlite.create({ parsers: textParsers });
    const spy = new Proxy(client, {
      get(target, key) {
        if (key === 'query') return (text: string, params?: unknown[], options?: Record<string, unknown>) => (calls.push(options), target.query(text, params, options));
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    try {
      const view = withParsersGivenOnce(spy);
      await view.query('select 1', [], { rowMode: 'object', parsers: { ...textParsers } });
      const custom = { [20]: (v: string) => `int8:${v}` };
      const result = await view.query<{ n: string }>('select 5::int8 as n', [], { parsers: custom });
      expect(calls[0]).toEqual({ rowMode: 'object' });
      expect(calls[1]?.parsers).toBe(custom);
      expect(result.rows[0]?.n).toBe('int8:5');
    } finally {
      await client.close();
    }
  });
});
