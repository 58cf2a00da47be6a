import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './create-db.ts';

/**
 * Statements of a hot transaction, built by drizzle once per driver and run
 * on each transaction's own connection.
 *
 * Drizzle builds a query's text, its parameters and its result mapping on
 * every call: in a booking that was 23 % of the server's CPU, more
 * than the rules, tRPC and HTTP together. A drizzle prepared query keeps all
 * three, but it is bound to the connection it was prepared on, and a
 * transaction's connection is a new one each time. `inTransaction` runs one
 * built on an earlier transaction on this one's connection.
 *
 * Every statement goes to the database when the call is made, in call order,
 * on both drivers, so the callers that pipeline several (`inOrder`, below)
 * get them run in the order they wrote them, whatever await chains
 * drizzle puts between the call and the driver. postgres.js is told to send at
 * once (its `execute()`); PGlite queues a transaction's queries in call order.
 * The statements are named (postgres.js prepares a named statement once per
 * connection), so PostgreSQL parses and plans each once per connection too.
 */

interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** The driver's connection of a drizzle transaction, or its pool (drizzle keeps it as `session.client` on both drivers). */
interface DriverOfTx {
  session: { client: DriverClient; constructor: object };
}

type DriverClient = {
  /** postgres.js */
  unsafe?: (text: string, params?: unknown[], options?: object) => { execute(): unknown };
};

/** Per driver (its session class), the prepared query built on the first transaction. */
type PerDriver<R> = Map<object, Prepared<R>>;

/** Wraps a postgres.js connection so a query is sent when drizzle asks for it, not when drizzle first awaits it. */
function sendingAtOnce(client: DriverClient): DriverClient {
  const unsafe = client.unsafe;
  if (!unsafe) return client;
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'unsafe') return Reflect.get(target, property, receiver) as unknown;
      return (text: string, params?: unknown[], options?: object) => {
        const query = unsafe.call(target, text, params, options);
        query.execute();
        return query;
      };
    },
  });
}

/**
 * A statement built once (by `build`, on the transaction or database it first
 * runs on, with `sql.placeholder` for what changes) and run on any transaction
 * (or the database's pool) with `values`.
 *
 * @example
 * const lockCustomerStatement = preparedStatement('lock_customer', (tx) =>
 *   tx.select().from(customer).where(eq(customer.customer_id, sql.placeholder('id'))).for('update').prepare('lock_customer'));
 * const [row] = await lockCustomerStatement(tx, { id: 7 });
 */
export function preparedStatement<R>(build: (db: DbOrTx) => Prepared<R>): (db: DbOrTx, values?: Record<string, unknown>) => Promise<R> {
  const perDriver: PerDriver<R> = new Map();
  // The proxied client of each transaction connection, kept while that connection lives.
  const clients = new WeakMap<object, DriverClient>();
  return (tx, values) => {
    const { session } = tx as unknown as DriverOfTx;
    let prepared = perDriver.get(session.constructor);
    if (!prepared) perDriver.set(session.constructor, (prepared = build(tx)));
    let client = clients.get(session.client);
    if (!client) clients.set(session.client, (client = sendingAtOnce(session.client)));
    // The same prepared query with this transaction's connection: drizzle's execute reads `this.client`.
    const bound = Object.create(prepared, { client: { value: client } }) as Prepared<R>;
    return bound.execute(values);
  };
}

/** Ids as one '{1,2,3}' array literal, the value of an `anyId` placeholder: one statement text whatever their number, on both drivers. */
export const idArray = (ids: readonly number[]): string => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/** `column = any($placeholder::int[])`: a prepared statement's list of ids as one placeholder (its value: idArray). */
export const anyId = (column: AnyPgColumn, placeholder = 'ids'): SQL => sql`${column} = any(${sql.placeholder(placeholder)}::int[])`;

/**
 * Runs the statements `tasks` start, all at once and in this order, on one
 * transaction's connection: the driver pipelines them (one round trip instead
 * of one each) and the database runs them one after another as if awaited in
 * turn, so locks are still taken in the decision 006 order. Each task must
 * send its statement when called: a prepared statement (preparedStatement above)
 * called before the task's first await; a drizzle query builder sends only
 * when awaited, after a number of turns that differs from one kind of query
 * to another. Waits for every one, then throws the first failure in order,
 * the one a sequential run would have met first.
 */
export async function inOrder<T extends readonly unknown[]>(tasks: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(tasks.map((task) => task()));
  const results: unknown[] = [];
  for (const s of settled) {
    if (s.status === 'rejected') throw s.reason;
    results.push(s.value);
  }
  return results as unknown as T;
}
