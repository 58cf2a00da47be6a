import type { ReplicatedTable, SyncChange } from '@estudio/core';
import type { DbOrTx } from '@estudio/db';
import { sql } from 'drizzle-orm';
import { ident, keyString, replicated, tableInfo, toColumnRow, type ReplicatedTableInfo } from './tables.ts';

/** Rows per statement: large enough to amortise the round trip, small enough to keep one JSON parameter modest. */
const batchSize = 2000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Inserts or replaces whole rows (current states from the server, or
 * pre-images), many per statement: the JSON array becomes rows of the table's
 * own type, so every column is parsed by PostgreSQL as the server wrote it.
 * Columns missing from a row (the hidden ones) are stored as null.
 */
export async function upsertRows(db: DbOrTx, info: ReplicatedTableInfo, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (!rows.length) return;
  const table = ident(info.name);
  const conflict = info.key.map(ident).join(', ');
  const others = info.columns.filter((c) => !info.key.includes(c));
  const update = others.length ? `DO UPDATE SET ${others.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ')}` : 'DO NOTHING';
  for (const batch of chunks(rows, batchSize)) {
    await db.execute(
      sql`${sql.raw(`INSERT INTO ${table} SELECT * FROM jsonb_populate_recordset(NULL::${table}, `)}${JSON.stringify(batch)}${sql.raw(`::jsonb) ON CONFLICT (${conflict}) ${update}`)}`,
    );
  }
}

/** Deletes rows by key, many per statement. */
export async function deleteRows(db: DbOrTx, info: ReplicatedTableInfo, keys: readonly Record<string, unknown>[]): Promise<void> {
  if (!keys.length) return;
  const table = ident(info.name);
  const match = info.key.map((k) => `t.${ident(k)} = k.${ident(k)}`).join(' AND ');
  for (const batch of chunks(keys, batchSize)) {
    await db.execute(
      sql`${sql.raw(`DELETE FROM ${table} t USING jsonb_populate_recordset(NULL::${table}, `)}${JSON.stringify(batch)}${sql.raw(`::jsonb) k WHERE ${match}`)}`,
    );
  }
}

/**
 * Applies a page of changes: each key's last state wins (a page may name a
 * row twice), then one upsert and one delete per table. Returns the tables
 * touched. Runs inside the caller's transaction.
 */
export async function applyChanges(db: DbOrTx, changes: readonly SyncChange[]): Promise<ReplicatedTable[]> {
  const perTable = new Map<ReplicatedTable, Map<string, { key: Record<string, unknown>; row: Record<string, unknown> | null }>>();
  for (const change of changes) {
    const info = tableInfo(change.table);
    const row = change.row ? toColumnRow(info, change.row) : null;
    // The key travels beside the row; a row without its key columns still lands on the right key.
    const keyed = row ? { ...row, ...change.key } : null;
    let byKey = perTable.get(info.name);
    if (!byKey) perTable.set(info.name, (byKey = new Map()));
    byKey.set(keyString(info, change.key), { key: change.key, row: keyed });
  }
  const touched: ReplicatedTable[] = [];
  for (const info of replicated) {
    const byKey = perTable.get(info.name);
    if (!byKey) continue;
    const entries = [...byKey.values()];
    await deleteRows(
      db,
      info,
      entries.filter((e) => e.row === null).map((e) => e.key),
    );
    await upsertRows(
      db,
      info,
      entries.flatMap((e) => (e.row ? [e.row] : [])),
    );
    touched.push(info.name);
  }
  return touched;
}

/** Empties every replicated table (a reset, or a rebuilt replica). */
export async function wipeReplicatedTables(db: DbOrTx): Promise<void> {
  await db.execute(sql.raw(`TRUNCATE ${replicated.map((t) => ident(t.name)).join(', ')}`));
}
