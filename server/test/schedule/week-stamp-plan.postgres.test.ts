import type { Placeholder } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { anonymousStampQuery } from '../../src/http/week-cache.ts';

/**
 * Every read of the week from memory runs one freshness statement (decision
 * 041), prepared, so after five runs PostgreSQL plans it once for any dates
 * (a generic plan). Growth asks that it cost the same with five
 * years of classes behind the week. With the dates unknown, the week's tags
 * fingerprint was planned as a walk of every class by its key, merged with
 * the few tagged ones: 409 blocks at 28,000 classes (bench/growth.ts), for a
 * week of 30. This plans the statement as the server's sixth read does and
 * reads the blocks it touches, with a long history and tags in this week.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("the week's freshness statement with years of classes behind it (PostgreSQL)", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
    if (t.kind !== 'postgres') throw new Error('PostgreSQL only');
    const sql = t.client;
    // 20,000 classes in the past (one every two hours), copies of a seeded one, and this week's seeded classes tagged with the class tags.
    await sql.unsafe(`
      insert into single_class (class_date, duration_minutes, capacity, location_id, class_type_id, description, created_at, updated_at)
      select now() - make_interval(days => 10, hours => 2 * g), s.duration_minutes, s.capacity, s.location_id, s.class_type_id, 'historia', now(), now()
        from generate_series(1, 20000) g cross join (select * from single_class order by single_class_id limit 1) s`);
    await sql.unsafe(`
      insert into single_class_tag (single_class_id, tag_id)
      select sc.single_class_id, t.tag_id from single_class sc cross join tag t
       where t.type = 'class' and sc.class_date between now() - interval '1 day' and now() + interval '7 days' on conflict do nothing`);
    await sql.unsafe('analyze');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('touches a few dozen blocks, not the whole history of classes', async () => {
    if (t.kind !== 'postgres') return;
    const query = anonymousStampQuery(t.db).toSQL();
    const now = Date.now();
    const values: Record<string, unknown> = {
      from: new Date(now - 2 * 86_400_000).toISOString(),
      to: new Date(now + 8 * 86_400_000).toISOString(),
      sinceSnapshot: null,
    };
    // As literals: EXECUTE's own parameters could not be typed. The values are ISO dates and null.
    const literal = (v: unknown) => (v === null ? 'null' : `'${String(v)}'`);
    const args = query.params.map((p) => literal(typeof p === 'object' && p !== null && 'name' in p ? values[(p as Placeholder).name] : p)).join(', ');
    const blocks = await t.client.begin(async (sql) => {
      await sql.unsafe('set local plan_cache_mode = force_generic_plan');
      await sql.unsafe(`prepare week_stamp_plan as ${query.sql}`);
      const [row] = await sql.unsafe(`explain (analyze, buffers, format json) execute week_stamp_plan(${args})`);
      await sql.unsafe('deallocate week_stamp_plan');
      const [plan] = (row as unknown as { 'QUERY PLAN': { Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }[] })['QUERY PLAN'];
      return (plan?.Plan['Shared Hit Blocks'] ?? 0) + (plan?.Plan['Shared Read Blocks'] ?? 0);
    });
    // 15 with the week's classes read by date; the walk by key read 454 here.
    expect(blocks).toBeLessThan(60);
  });
});
