import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@estudio/db';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { createChangeFeed } from '@estudio/sync';
import { buildServer } from '../../src/app.ts';
import { weekCacheFor } from '../../src/http/week-cache.ts';
import { openPool, warmUp } from '../../src/warm-up.ts';
import { testConfig } from '../support/helpers.ts';

/**
 * A new process readies itself before it listens (decision 057), on
 * this run's database: the pool open, this week and the next in the cache,
 * and nothing in the request log.
 */
describe('the warm-up before the server listens', () => {
  let testDb: TestDb;
  let app: FastifyInstance;
  let feed: Awaited<ReturnType<typeof createChangeFeed>>;
  const logged: string[] = [];

  beforeAll(async () => {
    testDb = await createTestDb();
    feed = await createChangeFeed(testDb);
    app = await buildServer({ config: testConfig({ LOG_LEVEL: 'info' }), db: testDb.db, changeFeed: feed });
    // What the process would write to its log, request lines included.
    const write = app.log.info.bind(app.log);
    app.log.info = ((...args: Parameters<typeof write>) => {
      logged.push(JSON.stringify(args));
      return write(...args);
    }) as typeof app.log.info;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await feed?.close();
    await testDb?.close();
  });

  it('opens the pool, reads this week and the next into the cache, and answers each read after the first from it', async () => {
    const cache = weekCacheFor(testDb.db);
    const before = { ...cache.stats };
    const warmed = await warmUp(app, testDb);
    expect(warmed.requests).toBe(160);
    // The first round's four reads (two weeks, over /api and /trpc, in parallel) miss and share a read per week; every later
    // one is a hit, or on PostgreSQL, when another database's transaction moved the horizon, a refresh that reads nothing whole.
    expect(cache.stats.misses - before.misses - (cache.stats.refreshes - before.refreshes)).toBeLessThanOrEqual(4);
    expect(cache.stats.hits - before.hits + (cache.stats.misses - before.misses)).toBe(160);
    expect(warmed.connections).toBe(testDb.kind === 'postgres' ? testDb.client.options.max : 0);
    expect(logged.filter((line) => line.includes('incoming request'))).toEqual([]);
    expect(app.log.level).toBe('info');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('opens all of a PostgreSQL pool at once, before any request asks for a connection', async () => {
    if (testDb.kind !== 'postgres') throw new Error('PostgreSQL only');
    const admin = testDb.client;
    const pool = await createDb(testDb.url as string, { max: 7 });
    try {
      const countOurs = async () =>
        ((await admin`select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`)[0]?.n as number);
      const before = await countOurs();
      expect(await openPool(pool)).toBe(7);
      expect((await countOurs()) - before).toBe(7);
    } finally {
      await pool.close();
    }
  });
});
