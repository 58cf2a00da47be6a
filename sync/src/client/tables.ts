import { replicatedTableNames, replicatedTables, type ReplicatedTable } from '@estudio/core';
import { schema } from '@estudio/db';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';

/**
 * What the client needs to know about each replicated table: its drizzle
 * object (the desk reads with the same objects as the server), its key and
 * every column by SQL name. Rows travel as JSON keyed by SQL column names;
 * a row keyed by drizzle property names (`createdAt`) is renamed on the way in.
 */
export interface ReplicatedTableInfo {
  name: ReplicatedTable;
  table: PgTable;
  key: readonly string[];
  hidden: readonly string[];
  /** SQL column names, in table order. */
  columns: string[];
  /** drizzle property name → SQL column name, for the properties that differ. */
  renames: Map<string, string>;
}

function findTable(name: string): PgTable {
  for (const value of Object.values(schema)) {
    if (value && typeof value === 'object' && Symbol.for('drizzle:IsDrizzleTable') in value) {
      const table = value as PgTable;
      if (getTableConfig(table).name === name) return table;
    }
  }
  throw new Error(`replicated table ${name} is not in the db schema`);
}

function describe(name: ReplicatedTable): ReplicatedTableInfo {
  const table = findTable(name);
  const config = getTableConfig(table);
  const renames = new Map<string, string>();
  for (const [property, column] of Object.entries(table as unknown as Record<string, { name?: unknown }>)) {
    if (config.columns.some((c) => c === column) && typeof column.name === 'string' && column.name !== property) {
      renames.set(property, column.name);
    }
  }
  return {
    name,
    table,
    key: replicatedTables[name].key,
    hidden: replicatedTables[name].hidden,
    columns: config.columns.map((c) => c.name),
    renames,
  };
}

/** Every replicated table, parents first (the snapshot order). */
export const replicated: readonly ReplicatedTableInfo[] = replicatedTableNames.map(describe);
export const replicatedByName = new Map<string, ReplicatedTableInfo>(replicated.map((t) => [t.name, t]));

export function tableInfo(name: string): ReplicatedTableInfo {
  const info = replicatedByName.get(name);
  if (!info) throw new Error(`${name} is not a replicated table`);
  return info;
}

/** Double-quoted SQL identifier. */
export const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** A row keyed by SQL column names (drizzle property names renamed), unknown keys left out. */
export function toColumnRow(info: ReplicatedTableInfo, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    const column = info.renames.get(k) ?? k;
    if (info.columns.includes(column)) out[column] = v;
  }
  return out;
}

/** "k1=1,k2=5": one string per row key, for maps and de-duplication. */
export function keyString(info: ReplicatedTableInfo, row: Record<string, unknown>): string {
  return info.key.map((k) => `${k}=${String(row[k])}`).join(',');
}
