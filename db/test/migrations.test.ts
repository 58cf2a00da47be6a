import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrate, seedIfEmpty, type DbHandle } from '../src/index.ts';
import { app_config, customer } from '../src/schema/index.ts';

const pgUrl = process.env.TEST_DATABASE_URL;

async function tableNames(handle: DbHandle): Promise<string[]> {
  const rows = await handle.db
    .select({ name: sql<string>`table_name` })
    .from(sql`information_schema.tables`)
    .where(sql`table_schema = 'public'`);
  return rows.map((r) => r.name).sort();
}

async function checkFreshDatabase(handle: DbHandle) {
  await migrate(handle);
  const tables = await tableNames(handle);
  for (const t of ['customer', 'single_class', 'class_reservation', 'available_classes', 'purchase', 'video', 'outbox_message', 'processed_webhook_event']) {
    expect(tables).toContain(t);
  }
  // Applying again is a no-op.
  await migrate(handle);
  expect(await tableNames(handle)).toEqual(tables);

  expect(await seedIfEmpty(handle.db)).toBe(true);
  expect(await seedIfEmpty(handle.db)).toBe(false);
  expect(await handle.db.$count(app_config)).toBeGreaterThan(50);
  expect(await handle.db.$count(customer)).toBe(205);
}

describe('migrations', () => {
  it('apply to an empty PGlite database, and the seed runs once', async () => {
    const handle = await createDb(undefined, { dataDir: 'memory://' });
    try {
      expect(handle.kind).toBe('pglite');
      await checkFreshDatabase(handle);
    } finally {
      await handle.close();
    }
  }, 120_000);

  describe.runIf(pgUrl)('on PostgreSQL', () => {
    const name = `db_test_migrate_${randomUUID().replaceAll('-', '').slice(0, 10)}`;
    const admin = postgres(pgUrl ?? '', { max: 1, onnotice: () => {} });
    afterAll(async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    });

    it('apply to an empty database, and the seed runs once', async () => {
      await admin.unsafe(`create database "${name}"`);
      const url = new URL(pgUrl ?? '');
      url.pathname = `/${name}`;
      const handle = await createDb(url.toString(), { max: 2 });
      try {
        expect(handle.kind).toBe('postgres');
        await checkFreshDatabase(handle);
      } finally {
        await handle.close();
      }
    }, 60_000);
  });
});
