import { is, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { replicatedRowsWhere, replicatedTables, type ReplicatedTable, type RowKey } from '@estudio/core';
import { schema, type DbOrTx } from '@estudio/db';

/** Rows of a raw query on either driver: postgres.js answers an array, PGlite an object with `rows`. */
export async function query<T>(db: DbOrTx, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** jsonb arrives parsed from both drivers, but a driver configured without the json parser hands text. */
export function parseJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/**
 * numeric columns of each replicated table. `to_jsonb` writes numeric as a JSON
 * number, which a JavaScript reader turns into a float; money travels as a
 * string (decision 002), so these columns are re-added as text.
 */
const numericColumns: Record<string, string[]> = Object.fromEntries(
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => {
      const config = getTableConfig(table);
      return [config.name, config.columns.filter((c) => c.columnType === 'PgNumeric').map((c) => c.name)];
    }),
);

/**
 * The JSON of a row as a desk receives it: every column by its SQL name, the
 * hidden ones removed, money as text. `alias` is the row's alias in the query.
 */
export function rowJson(table: ReplicatedTable, alias: string): SQL {
  const t = sql.identifier(alias);
  const hidden: readonly string[] = replicatedTables[table].hidden;
  let json = sql`to_jsonb(${t})`;
  // Column names are constants of the schema (never input), so they are written into the statement as literals.
  if (hidden.length) json = sql`(${json} - ${sql.raw(`'{${hidden.join(',')}}'::text[]`)})`;
  const money = numericColumns[table] ?? [];
  if (money.length) {
    const pairs = money.map((c) => sql`${sql.raw(`'${c}'`)}, ${t}.${sql.identifier(c)}::text`);
    json = sql`(${json} || jsonb_build_object(${sql.join(pairs, sql`, `)}))`;
  }
  return json;
}

/** `and (…)`: the rows of the table a desk receives (core's replicatedRowsWhere); nothing when it receives them all. */
export function replicatedRows(table: ReplicatedTable): SQL {
  const only = replicatedRowsWhere(table);
  return only ? sql.raw(` and (${only})`) : sql``;
}

/** `(t.a, t.b)`: the key columns of a table, for comparisons and ordering. */
export function keyColumns(table: ReplicatedTable, alias: string): SQL {
  const t = sql.identifier(alias);
  return sql`(${sql.join(
    replicatedTables[table].key.map((c) => sql`${t}.${sql.identifier(c)}`),
    sql`, `,
  )})`;
}

/** `(1, 2)`: the values of a key in the table's key column order. */
export function keyValues(table: ReplicatedTable, key: RowKey): SQL {
  return sql`(${sql.join(
    replicatedTables[table].key.map((c) => {
      const v = key[c];
      if (v === undefined || !Number.isInteger(v)) throw new Error(`clave incompleta para ${table}: falta ${c}`);
      return sql`${v}::bigint`;
    }),
    sql`, `,
  )})`;
}

/** A stable string for a key, to match rows read back to the changes that named them. */
export function keyString(table: ReplicatedTable, key: Record<string, unknown>): string {
  return `${table}:${replicatedTables[table].key.map((c) => String(key[c])).join(',')}`;
}
