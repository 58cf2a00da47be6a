import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDb, migrate, migrationsFolder, type Db, type DbOrTx, type PgliteHandle } from '@estudio/db';
import { sql, type SQL } from 'drizzle-orm';
import { initClusterApart } from './init-cluster.ts';
import type { Replica } from './types.ts';
import { ident, replicated } from './tables.ts';

/**
 * The desk's PGlite replica: the server's schema (the db migrations, so the
 * desk reads with the server's table objects) loosened for a replica, plus the
 * client's own bookkeeping in the `desk` schema.
 *
 * Loosened because a replica holds a subset of the tables and receives each
 * row's current state in log order: a reservation may arrive before its
 * customer, two customers may swap e-mails across pages. So foreign keys,
 * unique constraints and unique indexes (other than primary keys) are dropped,
 * and so are the change-log and public-page triggers (a replica logs and notifies nothing) and the identity
 * defaults (ids come from the server, or are temporary negative ids of
 * mutations not yet acknowledged), and generated columns become plain ones
 * (rows arrive whole, a hidden one as null). Check and not-null constraints stay.
 */

export interface OpenReplicaOptions {
  /** A folder for the replica's files, or 'memory://'. */
  dataDir: string;
  /** PostgreSQL's shared buffers inside PGlite's memory (replicaSharedBuffers unless given; the bench compares sizes). */
  sharedBuffers?: string;
}

/**
 * The replica's shared buffers. PGlite starts PostgreSQL with 128 MB of them,
 * inside its WebAssembly memory, which never shrinks: most of a desk's memory
 * was buffers for a replica that a studio's data fills a fraction of. The
 * operating system's page cache still holds the replica's files.
 */
export const replicaSharedBuffers = '32MB';

/** The replica as the sync client uses it: the desk's Replica plus raw access. */
export interface ClientReplica extends Replica {
  readonly handle: PgliteHandle;
  /** How long the last open took, in ms (PGlite start, schema check, preparation). */
  readonly openedInMs: number;
}

/** Rows of a raw query, whatever the driver's result shape. */
export async function query<T>(db: DbOrTx, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/** The migrations this code was built with: a replica built with others is rebuilt. */
function schemaVersion(): string {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const last = journal.entries.at(-1);
  return `${journal.entries.length}:${last?.tag ?? ''}:${last?.when ?? 0}`;
}

/** The client's own tables. Versioned by IF NOT EXISTS: new columns get their own ALTER ... IF NOT EXISTS. */
const deskSchema = [
  `CREATE SCHEMA IF NOT EXISTS desk`,
  `CREATE TABLE IF NOT EXISTS desk.meta (key text PRIMARY KEY, value text NOT NULL)`,
  // seq orders every pending mutation of the replica (of any signed-in account) for undo and redo.
  `CREATE TABLE IF NOT EXISTS desk.outbox (
     seq bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
     client_id text NOT NULL,
     mutation_id integer NOT NULL,
     name text NOT NULL,
     args jsonb NOT NULL,
     temp_id integer NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     UNIQUE (client_id, mutation_id))`,
  // Pre-images of the rows each pending mutation touched (null: the row did not exist), first touch only.
  `CREATE TABLE IF NOT EXISTS desk.undo (
     outbox_seq bigint NOT NULL REFERENCES desk.outbox (seq) ON DELETE CASCADE,
     table_name text NOT NULL,
     row_key jsonb NOT NULL,
     pre_image jsonb,
     PRIMARY KEY (outbox_seq, table_name, row_key))`,
  `CREATE TABLE IF NOT EXISTS desk.rejection (
     client_id text NOT NULL,
     mutation_id integer NOT NULL,
     name text NOT NULL,
     args jsonb NOT NULL,
     code text NOT NULL,
     message text NOT NULL,
     at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (client_id, mutation_id))`,
  // Whom and what a rejection was about, resolved when it arrived.
  `ALTER TABLE desk.rejection ADD COLUMN IF NOT EXISTS subject jsonb`,
  // Changes kept aside when the server's history went back (decision 078): each is checked against the fresh snapshot,
  // then queued again or shown to staff as refused. subject: whom and what it was about in the replica it was made on.
  `CREATE TABLE IF NOT EXISTS desk.held (
     seq bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
     client_id text NOT NULL,
     mutation_id integer NOT NULL,
     name text NOT NULL,
     args jsonb NOT NULL,
     created_at timestamptz NOT NULL,
     subject jsonb)`,
  // Customers registered here offline and the server's id for each (decision 113): screens showing the temporary id
  // follow it, and a registration that matched an existing customer is shown to staff (notice) until seen.
  `CREATE TABLE IF NOT EXISTS desk.adopted (
     temp_id integer PRIMARY KEY,
     customer_id integer NOT NULL,
     client_id text NOT NULL,
     mutation_id integer NOT NULL,
     typed_name text NOT NULL,
     notice text,
     seen boolean NOT NULL DEFAULT false,
     at timestamptz NOT NULL DEFAULT now())`,
  // Last mutation id handed out per client: ids keep increasing after the outbox empties.
  `CREATE TABLE IF NOT EXISTS desk.client (client_id text PRIMARY KEY, last_mutation_id integer NOT NULL DEFAULT 0)`,
  // Temporary ids of rows a pending mutation creates (a walk-in's reservation): negative, never a server id.
  `CREATE SEQUENCE IF NOT EXISTS desk.temp_id INCREMENT BY -1 MAXVALUE -1 START WITH -1`,
  `CREATE OR REPLACE FUNCTION desk.capture_pre_image() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     seq bigint := nullif(current_setting('desk.capture', true), '')::bigint;
     changed jsonb;
     row_key jsonb := '{}'::jsonb;
     key_column text;
   BEGIN
     IF TG_OP = 'INSERT' THEN changed := to_jsonb(NEW); ELSE changed := to_jsonb(OLD); END IF;
     FOREACH key_column IN ARRAY TG_ARGV LOOP
       row_key := row_key || jsonb_build_object(key_column, changed -> key_column);
     END LOOP;
     INSERT INTO desk.undo (outbox_seq, table_name, row_key, pre_image)
       VALUES (seq, TG_TABLE_NAME, row_key, CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE changed END)
       ON CONFLICT DO NOTHING;
     RETURN NULL;
   END
   $$`,
];

/**
 * Drops what a replica must not enforce (see the file comment) and installs
 * the pre-image triggers. Idempotent: it looks in the catalogue for what is
 * left, so a constraint a later migration adds back is dropped at the next open.
 */
async function loosenServerSchema(db: Db): Promise<void> {
  const drops: string[] = [];
  const constraints = await query<{ tbl: string; name: string }>(
    db,
    sql`select conrelid::regclass::text as tbl, conname as name from pg_constraint
        where connamespace = 'public'::regnamespace and contype in ('f', 'u') order by contype`,
  );
  for (const c of constraints) drops.push(`ALTER TABLE ${c.tbl} DROP CONSTRAINT IF EXISTS ${ident(c.name)}`);
  const indexes = await query<{ name: string }>(
    db,
    sql`select i.indexrelid::regclass::text as name from pg_index i join pg_class c on c.oid = i.indrelid
        where c.relnamespace = 'public'::regnamespace and i.indisunique and not i.indisprimary
          and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
  );
  for (const i of indexes) drops.push(`DROP INDEX IF EXISTS ${i.name}`);
  const triggers = await query<{ tbl: string; name: string }>(
    db,
    sql`select t.tgrelid::regclass::text as tbl, t.tgname as name from pg_trigger t join pg_proc p on p.oid = t.tgfoid
        where not t.tgisinternal and p.proname in ('sync_log_change', 'portal_content_changed')`,
  );
  for (const t of triggers) drops.push(`DROP TRIGGER IF EXISTS ${ident(t.name)} ON ${t.tbl}`);
  const identities = await query<{ tbl: string; col: string }>(
    db,
    sql`select c.relname as tbl, a.attname as col from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attidentity <> '' and not a.attisdropped`,
  );
  for (const i of identities) drops.push(`ALTER TABLE ${ident(i.tbl)} ALTER COLUMN ${ident(i.col)} DROP IDENTITY IF EXISTS`);
  // Generated columns (customer.search_text, decision 058) become plain: rows land whole from the server's JSON,
  // and a hidden generated column arrives as null, which PostgreSQL refuses to insert into one that is still generated.
  const generated = await query<{ tbl: string; col: string }>(
    db,
    sql`select c.relname as tbl, a.attname as col from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attgenerated <> '' and not a.attisdropped`,
  );
  for (const g of generated) drops.push(`ALTER TABLE ${ident(g.tbl)} ALTER COLUMN ${ident(g.col)} DROP EXPRESSION IF EXISTS`);
  for (const statement of drops) await db.execute(sql.raw(statement));
}

async function installDeskSchema(db: Db): Promise<void> {
  for (const statement of deskSchema) await db.execute(sql.raw(statement));
  for (const t of replicated) {
    // The WHEN clause keeps bulk page applies free of a function call per row.
    await db.execute(
      sql.raw(
        `CREATE OR REPLACE TRIGGER desk_capture AFTER INSERT OR UPDATE OR DELETE ON ${ident(t.name)} FOR EACH ROW
         WHEN (coalesce(current_setting('desk.capture', true), '') <> '')
         EXECUTE FUNCTION desk.capture_pre_image(${t.key.map((k) => `'${k}'`).join(', ')})`,
      ),
    );
  }
}

async function readMeta(db: DbOrTx, key: string): Promise<string | null> {
  const [row] = await query<{ value: string }>(db, sql`select value from desk.meta where key = ${key}`);
  return row?.value ?? null;
}

async function writeMeta(db: DbOrTx, key: string, value: string | null): Promise<void> {
  if (value === null) await db.execute(sql`delete from desk.meta where key = ${key}`);
  else await db.execute(sql`insert into desk.meta (key, value) values (${key}, ${value}) on conflict (key) do update set value = excluded.value`);
}

/** Meta keys of the sync client itself. */
export const metaKeys = {
  schema: 'sync.schema',
  cursor: 'sync.cursor',
  ready: 'sync.ready',
  lastSyncAt: 'sync.last_sync_at',
} as const;

/**
 * Opens (creating if needed) the replica in `dataDir`. A replica built with
 * the current migrations is only checked (about 50 ms after PGlite starts);
 * one built with other migrations has its server tables rebuilt from scratch
 * and syncs again, because migrating a loosened schema could fail on a
 * constraint the replica dropped. The `desk` schema (outbox, meta, rejections)
 * survives the rebuild; pending mutations are redone after the next first sync.
 */
export async function openReplica(options: OpenReplicaOptions): Promise<ClientReplica> {
  const started = performance.now();
  await initClusterApart(options.dataDir);
  const handle = (await createDb(undefined, {
    dataDir: options.dataDir,
    sharedBuffers: options.sharedBuffers ?? replicaSharedBuffers,
  })) as PgliteHandle;
  try {
    const db = handle.db;
    const version = schemaVersion();
    const deskExists = (await query<{ ok: boolean }>(db, sql`select to_regclass('desk.meta') is not null as ok`))[0]?.ok === true;
    const built = deskExists ? await readMeta(db, metaKeys.schema) : null;
    if (built !== version) {
      if (built !== null) {
        await db.execute(sql.raw('DROP SCHEMA IF EXISTS public CASCADE'));
        await db.execute(sql.raw('DROP SCHEMA IF EXISTS drizzle CASCADE'));
        await db.execute(sql.raw('CREATE SCHEMA public'));
      }
      await migrate(handle);
      await loosenServerSchema(db);
      await installDeskSchema(db);
      await db.transaction(async (tx) => {
        // Pre-images describe rows of the old tables; the next first sync starts from an empty replica.
        await tx.execute(sql`delete from desk.undo`);
        await writeMeta(tx, metaKeys.cursor, null);
        await writeMeta(tx, metaKeys.ready, null);
        await writeMeta(tx, metaKeys.schema, version);
      });
    } else {
      await loosenServerSchema(db);
      await installDeskSchema(db);
    }
    const openedInMs = performance.now() - started;
    return {
      db,
      handle,
      openedInMs,
      getMeta: (key) => readMeta(db, key),
      setMeta: (key, value) => writeMeta(db, key, value),
      close: () => handle.close(),
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

export { readMeta, writeMeta };
