import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db.ts';
import { resolveMessaging } from '../messages/messaging-settings.ts';
import type { Config } from '../../config.ts';

/** The last migration this server's code carries (`when` of drizzle's journal), read once. */
export function expectedMigration(folder: string): { count: number; when: number; tag: string } {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] };
  const last = journal.entries.at(-1);
  return { count: journal.entries.length, when: last?.when ?? 0, tag: last?.tag ?? '' };
}

export interface DatabaseReadiness {
  database: { ok: boolean; ms: number; error?: string };
  /** Current when the database has this code's last migration (or a later one: a newer process migrated it first). */
  migrations: { ok: boolean; applied: number; expected: number; last: string | null };
  messages: { email: boolean; whatsapp: boolean };
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/**
 * What readiness asks the database (decision 075): does it answer, are this
 * code's migrations applied, which message channels are configured. Never
 * throws: a failure is the answer.
 */
export async function checkDatabaseReadiness(db: Db, config: Config, expected: { count: number; when: number }): Promise<DatabaseReadiness> {
  const started = performance.now();
  try {
    const [applied] = rowsOf<{ n: number; last: string | number | null }>(
      await db.execute(sql`select count(*)::int as n, max(created_at)::text as last from drizzle.__drizzle_migrations`),
    );
    const ms = Math.round(performance.now() - started);
    const last = applied?.last === null || applied?.last === undefined ? null : Number(applied.last);
    const resolved = await resolveMessaging(db, config);
    return {
      database: { ok: true, ms },
      migrations: { ok: last !== null && last >= expected.when, applied: applied?.n ?? 0, expected: expected.count, last: last === null ? null : new Date(last).toISOString() },
      messages: { email: resolved.email !== null, whatsapp: resolved.whatsapp !== null },
    };
  } catch (error) {
    return {
      database: { ok: false, ms: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error) },
      migrations: { ok: false, applied: 0, expected: expected.count, last: null },
      messages: { email: false, whatsapp: false },
    };
  }
}
