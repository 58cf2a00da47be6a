import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/schema/index.ts';
import { createTestDb, type TestDb } from '../src/testing.ts';

/**
 * Decision 044: the indexes that keep the hot reads flat as the data grows are
 * declared in the Drizzle schema and created by a migration. Both must agree,
 * on the driver the run uses (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * an index declared and never migrated would leave a report scanning the table.
 */
describe('schema indexes', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.close());

  it('every index the schema declares exists in the migrated database, on its table', async () => {
    const declared = (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => is(value, PgTable))
      .flatMap((table) => {
        const config = getTableConfig(table);
        return config.indexes.map((index) => `${config.name}.${index.config.name}`);
      });
    const result = (await t.db.execute(sql`select tablename || '.' || indexname as name from pg_indexes where schemaname = 'public'`)) as unknown as
      | { rows: { name: string }[] }
      | { name: string }[];
    const present = new Set((Array.isArray(result) ? result : result.rows).map((r) => r.name));
    expect(declared.length).toBeGreaterThan(40);
    expect(declared.filter((name) => !present.has(name))).toEqual([]);
    for (const name of [
      'purchase.purchase_created_at_idx',
      'purchase.purchase_expiration_date_idx',
      'purchase.purchase_cancelled_or_updated_idx',
      'invoice.invoice_paid_at_idx',
      'customer.customer_created_at_idx',
    ]) {
      expect(present).toContain(name);
    }
  });
});
