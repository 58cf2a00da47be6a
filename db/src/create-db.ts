import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, type PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { withReservedTransactions } from './pg-reserved-begin.ts';
import { textParsers, withParsersGivenOnce } from './pglite-parsers.ts';
import { openPgSocket } from './pg-socket.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;

/**
 * The database as services see it: the common base of the PGlite and the
 * postgres.js drivers (select, insert, update, delete, execute, transaction).
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** A transaction handle, as passed to `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Either a database or a transaction: what a service that composes inside a caller's transaction accepts. */
export type DbOrTx = Db | Tx;

export interface CreateDbOptions {
  /** PGlite data directory (default './data'); 'memory://' for an in-memory database. */
  dataDir?: string;
  /** A PGlite dump (from `dumpDataDir()`) to start from, instead of an empty cluster. */
  loadDataDir?: Blob | File;
  /** PGlite: PostgreSQL's shared_buffers ('32MB'); PGlite's own default (128 MB) when not given. */
  sharedBuffers?: string;
  /** Extra PGlite options (extensions, debug...). */
  pglite?: Omit<PGliteOptions, 'dataDir' | 'loadDataDir'>;
  /** postgres.js pool size (default 10). */
  max?: number;
  /** Log every SQL statement. */
  logger?: boolean;
  /** PostgreSQL's application_name of the pool's connections (default 'estudio'; the metrics count them by it). */
  applicationName?: string;
}

interface DbHandleBase {
  db: Db;
  close(): Promise<void>;
}
export interface PgliteHandle extends DbHandleBase {
  kind: 'pglite';
  client: PGlite;
}
export interface PostgresHandle extends DbHandleBase {
  kind: 'postgres';
  client: postgres.Sql;
}
export type DbHandle = PgliteHandle | PostgresHandle;

/**
 * Opens the database: PGlite (embedded, in `./data` by default) when no url
 * is given, PostgreSQL through postgres.js otherwise.
 */
export async function createDb(url?: string | undefined, options: CreateDbOptions = {}): Promise<DbHandle> {
  if (!url) {
    const client = await PGlite.create({
      ...options.pglite,
      // Read as text, as drizzle reads them, given once (pglite-parsers.ts).
      parsers: { ...textParsers, ...options.pglite?.parsers },
      // The migrations create pg_trgm (the customer search's index, decision 047); PGlite has it only when loaded here.
      extensions: { pg_trgm, ...options.pglite?.extensions },
      dataDir: options.dataDir ?? './data',
      ...(options.sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`] } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    const db = drizzlePglite({ client: withParsersGivenOnce(client), schema, logger: options.logger ?? false });
    return {
      kind: 'pglite',
      db: db as unknown as Db,
      client,
      close: async () => {
        if (!client.closed) await client.close();
      },
    };
  }
  // Transactions own their connection from BEGIN to COMMIT (pg-reserved-begin.ts, decision 011).
  const client = withReservedTransactions(
    postgres(url, {
      max: options.max ?? 10,
      // Notices (e.g. "relation already exists, skipping") are not errors; keep test output clean.
      onnotice: () => {},
      connection: { application_name: options.applicationName ?? 'estudio' },
      // A dropped connection must not crash the process or poison the pool (see pg-socket.ts).
      ...({ socket: openPgSocket } as object),
    }),
  );
  const db = drizzlePostgres({ client, schema, logger: options.logger ?? false });
  return {
    kind: 'postgres',
    db: db as unknown as Db,
    client,
    close: () => client.end({ timeout: 5 }),
  };
}

/** Folder of the committed SQL migrations, found from this file so the working directory does not matter. */
export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

/** Arbitrary constant: the advisory lock that serialises migrations across server processes. */
const MIGRATION_LOCK_ID = 724_311_905;

export interface MigrateOptions {
  /** The folder of migrations (default db/migrations); a bundled server names it, as its own file is elsewhere. */
  folder?: string;
  /**
   * Runs once the migrations are applied, still under their lock (the demo
   * seed of an empty database): two processes started at once on an empty
   * database must not both find it empty.
   */
  andThen?: () => Promise<void>;
}

/** Applies the pending migrations in db/migrations, one process at a time (PostgreSQL: an advisory lock). */
export async function migrate(handle: DbHandle, options: MigrateOptions = {}): Promise<void> {
  const folder = options.folder ?? migrationsFolder;
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase<Schema>, { migrationsFolder: folder });
    await options.andThen?.();
    return;
  }
  // Several server processes may start at once; the lock is held on one reserved
  // connection so the other processes wait instead of applying the same migration twice.
  const lock = await handle.client.reserve();
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(handle.db as unknown as PostgresJsDatabase<Schema>, { migrationsFolder: folder });
    await options.andThen?.();
  } finally {
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
    lock.release();
  }
}
