import type { DbOrTx } from '@estudio/db';
import { sql } from 'drizzle-orm';
import { query } from './replica.ts';

/**
 * Statements a scan waits for, planned once per replica. PGlite plans every
 * unnamed statement again, and planning is most of a small statement's time
 * (a reservation's check-in read: 0.7 ms planned each time, 0.2 ms prepared).
 * PREPARE keeps the plan for the session; EXECUTE takes no bind parameters, so
 * the values go as SQL literals (sqlLiteral). (db's preparedStatement saves
 * drizzle's building of a statement on both drivers; PGlite still plans it.)
 */
export interface ReplicaStatement {
  readonly name: string;
  readonly parameterTypes: readonly string[];
  /** The statement's text, naming its parameters $1, $2, … */
  readonly text: string;
}

const registry = new Map<string, ReplicaStatement>();

/** Declares a statement (at module load): every replica prepares it before its first mutation runs. */
export function replicaStatement(name: string, parameterTypes: readonly string[], text: string): ReplicaStatement {
  if (!/^desk_[a-z_]+$/.test(name)) throw new Error(`replica statement name ${name}`);
  const statement = { name, parameterTypes, text };
  registry.set(name, statement);
  return statement;
}

const preparedOn = new WeakMap<DbOrTx, Set<string>>();
const preparing = new WeakMap<DbOrTx, Promise<void>>();

/**
 * Prepares the declared statements on this replica's session, once. Run
 * before the transaction of anything that runs mutators; callers at the same
 * time (a pull and a scan as the desk starts) share one preparation. A caller
 * it has not seen (a transaction's own object) is asked what its session
 * already has.
 */
export function prepareReplicaStatements(db: DbOrTx): Promise<void> {
  const done = preparedOn.get(db);
  // The session's list may hold statements not declared here: each declared one is looked for.
  if (done && [...registry.keys()].every((name) => done.has(name))) return Promise.resolve();
  let running = preparing.get(db);
  if (!running) {
    running = prepareMissing(db).finally(() => preparing.delete(db));
    preparing.set(db, running);
  }
  return running;
}

async function prepareMissing(db: DbOrTx): Promise<void> {
  let done = preparedOn.get(db);
  if (!done) {
    done = new Set((await query<{ name: string }>(db, sql`select name from pg_prepared_statements`)).map((r) => r.name));
    preparedOn.set(db, done);
  }
  for (const statement of registry.values()) {
    if (done.has(statement.name)) continue;
    await db.execute(sql.raw(`prepare ${statement.name}(${statement.parameterTypes.join(', ')}) as ${statement.text}`));
    done.add(statement.name);
  }
}

export type SqlValue = string | number | boolean | Date | null;

/**
 * A value written into SQL text: a finite number, true/false, null, or a
 * quoted string with its quotes doubled (standard-conforming strings, on in
 * every PostgreSQL this runs on, take backslashes literally).
 */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('not a finite number');
    return String(value);
  }
  const text = value instanceof Date ? value.toISOString() : value;
  if (text.includes('\0')) throw new Error('a NUL character in a value');
  return `'${text.replaceAll("'", "''")}'`;
}

/** Runs a prepared statement (prepareReplicaStatements ran on this session) with these values; its rows. */
export async function executeStatement<T>(db: DbOrTx, statement: ReplicaStatement, values: readonly SqlValue[]): Promise<T[]> {
  if (values.length !== statement.parameterTypes.length) throw new Error(`${statement.name} takes ${statement.parameterTypes.length} values`);
  return query<T>(db, sql.raw(`execute ${statement.name}(${values.map(sqlLiteral).join(', ')})`));
}
