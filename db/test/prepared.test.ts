import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedStatement } from '../src/prepared.ts';
import { createTestDb, type TestDb } from '../src/testing.ts';
import { tag } from '../src/schema/index.ts';

/**
 * Statements built once and run on each transaction's connection (the
 * booking's statements, decision 050). On PGlite by default, on PostgreSQL with
 * TEST_DATABASE_URL.
 */
describe('prepared statements in transactions', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.close());

  const insertTag = preparedStatement((tx) =>
    tx.insert(tag).values({ name: sql.placeholder('name'), color: sql.placeholder('color') }).returning({ id: tag.tag_id, name: tag.name }).prepare('test_insert_tag'),
  );
  const tagsNamed = preparedStatement((tx) =>
    tx.select({ id: tag.tag_id, name: tag.name }).from(tag).where(eq(tag.name, sql.placeholder('name'))).prepare('test_tags_named'),
  );

  it("runs on the transaction it is given, not on the one it was built on: a rolled-back row is gone, a committed one stays", async () => {
    const rollback = new Error('rollback');
    await expect(
      t.db.transaction(async (tx) => {
        expect(await insertTag(tx, { name: 'prep-uno', color: '#111111' })).toMatchObject([{ name: 'prep-uno' }]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    const kept = await t.db.transaction(async (tx) => {
      // Built on the first transaction, whose connection was given back: this one's own is used.
      expect(await tagsNamed(tx, { name: 'prep-uno' })).toEqual([]);
      return insertTag(tx, { name: 'prep-dos', color: '#222222' });
    });
    expect(await t.db.select({ id: tag.tag_id }).from(tag).where(eq(tag.name, 'prep-dos'))).toEqual([{ id: kept[0]?.id }]);
    expect(await t.db.select({ id: tag.tag_id }).from(tag).where(eq(tag.name, 'prep-uno'))).toEqual([]);
  });

  it('sends statements in the order they are called, each seeing what the calls before it wrote', async () => {
    // Each select is called right after the insert before it, none awaited: each must see the rows inserted before it.
    const seen = await t.db.transaction(async (tx) => {
      const calls: Promise<unknown[]>[] = [];
      for (let i = 0; i < 20; i++) {
        calls.push(insertTag(tx, { name: `prep-orden-${i}`, color: '#333333' }));
        calls.push(tagsNamed(tx, { name: `prep-orden-${i}` }));
      }
      return Promise.all(calls);
    });
    for (let i = 0; i < 20; i++) expect(seen[2 * i + 1], `select after insert ${i}`).toHaveLength(1);
  });
});
