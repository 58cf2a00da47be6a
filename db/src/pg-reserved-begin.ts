import type { ReservedSql, Sql } from 'postgres';
import { isConnectionLost } from './errors.ts';

type Scope = ReservedSql & { savepoint: <T>(nameOrFn: string | ((sql: Scope) => Promise<T>), fn?: (sql: Scope) => Promise<T>) => Promise<T> };

/**
 * The pool with a `begin` that owns its connection from BEGIN to COMMIT
 * (decision 011). postgres.js 3.4.9's own `begin` can send BEGIN on a
 * connection it has not reserved when the query is pipelined behind others
 * (porsager/postgres #823, #1189; fixes #1207, #1218 unreleased): the request
 * fails with UNSAFE_TRANSACTION and the server keeps a transaction open on a
 * connection the pool hands to the next caller. Here a transaction takes an
 * idle connection with `reserve()` (never one with queries in flight), runs
 * BEGIN, its statements and COMMIT or ROLLBACK on it, and gives it back.
 * Drizzle's transactions and savepoints go through it unchanged.
 */
export function withReservedTransactions(sql: Sql): Sql {
  async function begin<T>(optionsOrFn: string | ((scope: Scope) => Promise<T>), maybeFn?: (scope: Scope) => Promise<T>): Promise<T> {
    const [options, fn] = typeof optionsOrFn === 'function' ? ['', optionsOrFn] : [optionsOrFn, maybeFn];
    if (!fn) throw new TypeError('begin() needs a function');
    const reserved = await sql.reserve();
    // A connection that died under the transaction is the pool's to reconnect: released, it would go back as idle.
    let lost = false;
    try {
      await reserved.unsafe(`begin ${options.replace(/[^a-z ]/gi, '')}`);
      const result = await fn(transactionScope(reserved));
      await reserved.unsafe('commit');
      return result;
    } catch (error) {
      lost = isConnectionLost(error);
      if (!lost) await reserved.unsafe('rollback').catch(() => (lost = true));
      throw error;
    } finally {
      if (!lost) reserved.release();
    }
  }
  return new Proxy(sql, { get: (target, property, receiver) => (property === 'begin' ? begin : Reflect.get(target, property, receiver)) });
}

/** The transaction's connection, with the savepoints drizzle's nested transactions ask for. */
function transactionScope(reserved: ReservedSql): Scope {
  let savepoints = 0;
  const scope = reserved as Scope;
  scope.savepoint = async <T,>(nameOrFn: string | ((sql: Scope) => Promise<T>), maybeFn?: (sql: Scope) => Promise<T>): Promise<T> => {
    const fn = typeof nameOrFn === 'function' ? nameOrFn : maybeFn;
    if (!fn) throw new TypeError('savepoint() needs a function');
    const name = `s${++savepoints}`;
    await reserved.unsafe(`savepoint ${name}`);
    try {
      const result = await fn(scope);
      await reserved.unsafe(`release savepoint ${name}`);
      return result;
    } catch (error) {
      if (!isConnectionLost(error)) await reserved.unsafe(`rollback to savepoint ${name}`);
      throw error;
    }
  };
  return scope;
}
