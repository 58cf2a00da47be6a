import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrate, migrationsFolder, type DbHandle } from '../src/index.ts';
import { customer, message_preference } from '../src/schema/index.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const consentMigration = '0033_optional_messages_consent';

/** The migrations as they were before optional messages needed consent. */
function foldersBefore(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-before-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === consentMigration);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

async function customerRow(handle: DbHandle, email: string, phone: string): Promise<number> {
  await handle.db.execute(sql`insert into customer (email, name, last_name, phone) values (${email}, 'Ana', 'Ruiz', ${phone})`);
  const [row] = await handle.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, email));
  return row?.id as number;
}

/**
 * Before this migration a customer without a preferences row got both optional channels on when one was first
 * needed; from it on, nobody has them without saying yes. Every customer already there keeps what she had.
 */
async function checkConsentMigration(handle: DbHandle) {
  const before = foldersBefore();
  try {
    await migrate(handle, { folder: before });
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
  const withoutRow = await customerRow(handle, 'sin-fila@correo.mx', '5512345601');
  const turnedOff = await customerRow(handle, 'apago@correo.mx', '5512345602');
  // The table as it was (the schema in code already has the new column).
  await handle.db.execute(
    sql`insert into message_preference (customer_id, email_enabled, whatsapp_enabled, stop_token, calendar_token) values (${turnedOff}, false, true, 'stop-a', 'cal-a')`,
  );

  await migrate(handle);

  const rows = await handle.db.select().from(message_preference);
  const of = (id: number) => rows.find((r) => r.customer_id === id);
  expect(of(withoutRow)).toMatchObject({ email_enabled: true, whatsapp_enabled: true, optional_consent_at: null });
  expect(of(withoutRow)?.stop_token).toMatch(/^[0-9a-f]{64}$/);
  expect(of(withoutRow)?.stop_token).not.toBe(of(withoutRow)?.calendar_token);
  expect(of(turnedOff)).toMatchObject({ email_enabled: false, whatsapp_enabled: true, stop_token: 'stop-a', calendar_token: 'cal-a' });

  // A customer from now on has nothing on until she says yes.
  const newcomer = await customerRow(handle, 'nueva@correo.mx', '5512345603');
  await handle.db.insert(message_preference).values({ customer_id: newcomer, stop_token: 'stop-b', calendar_token: 'cal-b' });
  const [fresh] = await handle.db.select().from(message_preference).where(eq(message_preference.customer_id, newcomer));
  expect(fresh).toMatchObject({ email_enabled: false, whatsapp_enabled: false, optional_consent_at: null });
}

describe('optional messages need consent from now on; customers from before keep theirs', () => {
  it('on PGlite', async () => {
    const handle = await createDb(undefined, { dataDir: 'memory://' });
    try {
      await checkConsentMigration(handle);
    } finally {
      await handle.close();
    }
  }, 120_000);

  describe.runIf(pgUrl)('on PostgreSQL', () => {
    const name = `db_test_consent_${randomUUID().replaceAll('-', '').slice(0, 10)}`;
    const admin = postgres(pgUrl ?? '', { max: 1, onnotice: () => {} });
    afterAll(async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    });

    it('on PostgreSQL', async () => {
      await admin.unsafe(`create database "${name}"`);
      const url = new URL(pgUrl ?? '');
      url.pathname = `/${name}`;
      const handle = await createDb(url.toString(), { max: 2 });
      try {
        await checkConsentMigration(handle);
      } finally {
        await handle.close();
      }
    }, 60_000);
  });
});
