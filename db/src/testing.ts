import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { createDb, migrate, migrationsFolder, type DbHandle } from './create-db.ts';
import { seedDemoStudio } from './seed/demo-studio.ts';

/**
 * Test databases: every test file gets its own migrated database with the demo
 * seed, in about the time it takes PGlite to boot.
 *
 * - PGlite (default): a migrated+seeded data directory is built once and cached
 *   as a tar under .tmp/db/; each test database starts from it with loadDataDir.
 * - PostgreSQL (env TEST_DATABASE_URL): a template database is built once; each
 *   test database is `CREATE DATABASE ... TEMPLATE` and is dropped on close.
 *
 * The cache key covers the migrations, the seed sources and the current hour,
 * because the seed's schedule is relative to "now" and a day-old copy goes stale.
 */

export interface TestDbOptions {
  /** Load the demo seed (default true); false gives an empty migrated database. */
  seed?: boolean;
}

export type TestDb = DbHandle & {
  /** Connection URL of this test database (PostgreSQL only), e.g. to start a server against it. */
  url?: string;
};

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const cacheDir = join(repoRoot, '.tmp', 'db');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(path) : [path];
    })
    .sort();
}

/** Hash of everything that shapes the seeded database, plus the current UTC hour. */
export function testDbCacheKey(options: TestDbOptions = {}, now = new Date()): string {
  const hash = createHash('sha256');
  const sources = [
    ...filesUnder(migrationsFolder),
    ...filesUnder(fileURLToPath(new URL('./seed/', import.meta.url))),
    fileURLToPath(new URL('./password.ts', import.meta.url)),
    join(repoRoot, 'core', 'src', 'appconfig.ts'),
  ];
  for (const file of sources) {
    hash.update(file.slice(repoRoot.length));
    hash.update(readFileSync(file));
  }
  hash.update(options.seed === false ? 'empty' : 'seeded');
  hash.update(now.toISOString().slice(0, 13));
  return hash.digest('hex').slice(0, 16);
}

async function buildDatabase(handle: DbHandle, options: TestDbOptions): Promise<void> {
  await migrate(handle);
  if (options.seed !== false) await seedDemoStudio(handle.db);
}

// ---------------------------------------------------------------- PGlite

/** Builds (or finds) the cached PGlite dump and returns its path. */
export async function preparePgliteDump(options: TestDbOptions = {}): Promise<string> {
  const path = join(cacheDir, `pglite-${testDbCacheKey(options)}.tar`);
  if (existsSync(path)) return path;
  mkdirSync(cacheDir, { recursive: true });
  const handle = await createDb(undefined, { dataDir: 'memory://' });
  try {
    await buildDatabase(handle, options);
    if (handle.kind !== 'pglite') throw new Error('expected PGlite');
    const dump = await handle.client.dumpDataDir('none');
    // Write then rename, so a parallel worker never loads a half-written dump.
    const partial = `${path}.${process.pid}.${randomUUID()}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, path);
  } finally {
    await handle.close();
  }
  return path;
}

async function createPgliteTestDb(options: TestDbOptions): Promise<TestDb> {
  const path = await preparePgliteDump(options);
  const loadDataDir = new Blob([readFileSync(path)], { type: 'application/x-tar' });
  return createDb(undefined, { dataDir: 'memory://', loadDataDir });
}

// ---------------------------------------------------------------- PostgreSQL

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Arbitrary constant: serialises template builds across test workers. */
const TEMPLATE_LOCK_ID = 724_311_906;

/** Builds (or finds) the template database on the server of `adminUrl` and returns its name. */
export async function preparePostgresTemplate(adminUrl: string, options: TestDbOptions = {}): Promise<string> {
  const name = `db_test_tpl_${testDbCacheKey(options)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const exists = async (db: string) =>
      (await admin`select 1 from pg_database where datname = ${db}`).length > 0;
    if (await exists(name)) return name;
    await admin`select pg_advisory_lock(${TEMPLATE_LOCK_ID})`;
    try {
      if (await exists(name)) return name;
      // Built under another name and renamed when complete, so no one clones a half-built template.
      const building = `${name}_building`;
      await admin.unsafe(`drop database if exists "${building}" with (force)`);
      await admin.unsafe(`create database "${building}"`);
      const handle = await createDb(withDatabase(adminUrl, building), { max: 2 });
      try {
        await buildDatabase(handle, options);
      } finally {
        await handle.close();
      }
      await admin.unsafe(`alter database "${building}" rename to "${name}"`);
      // Older templates (other migrations, seed or hour) are dropped when nobody uses them.
      const stale = await admin<{ datname: string }[]>`
        select datname from pg_database
        where datname like 'db\\_test\\_tpl\\_%' and datname <> ${name} and datname not like '%\\_building'`;
      for (const { datname } of stale) {
        await admin.unsafe(`drop database if exists "${datname}"`).catch(() => {});
      }
    } finally {
      await admin`select pg_advisory_unlock(${TEMPLATE_LOCK_ID})`;
    }
    return name;
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/**
 * Creates database `name` as a copy of the template, building the template first if needed. Every copy of a test
 * template goes through here: a worker that has just built another template drops the older ones, and a copy made
 * without this lock can lose its template between the check and the copy.
 */
export async function copyTestTemplate(adminUrl: string, name: string, options: TestDbOptions = {}): Promise<void> {
  const template = await preparePostgresTemplate(adminUrl, options);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    // Shared with other clones, exclusive with a build: a worker that has just built another template drops the older
    // ones, and could drop this one between its check and the copy (seen on PostgreSQL: 'template database … does
    // not exist'). Under the shared lock no drop can run; a template already gone is built again, outside the lock.
    let source = template;
    for (;;) {
      await admin`select pg_advisory_lock_shared(${TEMPLATE_LOCK_ID})`;
      let copied = false;
      try {
        if ((await admin`select 1 from pg_database where datname = ${source}`).length > 0) {
          await admin.unsafe(`create database "${name}" template "${source}"`);
          copied = true;
        }
      } finally {
        await admin`select pg_advisory_unlock_shared(${TEMPLATE_LOCK_ID})`;
      }
      if (copied) break;
      source = await preparePostgresTemplate(adminUrl, options);
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}

async function createPostgresTestDb(adminUrl: string, options: TestDbOptions): Promise<TestDb> {
  const name = `db_test_${process.pid}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await copyTestTemplate(adminUrl, name, options);
  const url = withDatabase(adminUrl, name);
  const handle = await createDb(url, { max: 5 });
  const closeClient = handle.close;
  return {
    ...handle,
    url,
    close: async () => {
      await closeClient();
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end({ timeout: 5 });
      }
    },
  } as TestDb;
}

// ---------------------------------------------------------------- public

/**
 * A fresh, migrated database with the demo seed, private to the caller.
 * PGlite unless TEST_DATABASE_URL is set. Call `close()` in afterAll.
 *
 * @example
 * let t: TestDb;
 * beforeAll(async () => { t = await createTestDb(); });
 * afterAll(() => t.close());
 */
export async function createTestDb(options: TestDbOptions = {}): Promise<TestDb> {
  const url = process.env.TEST_DATABASE_URL;
  return url ? createPostgresTestDb(url, options) : createPgliteTestDb(options);
}

/** Builds the cached seeded database once per run (for vitest globalSetup). */
export async function prepareTestDatabases(options: TestDbOptions = {}): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) await preparePostgresTemplate(url, options);
  else await preparePgliteDump(options);
}

/** Removes PGlite dumps other than the current ones (they are rebuilt hourly). */
export function pruneTestDbCache(keep: readonly string[]): void {
  if (!existsSync(cacheDir)) return;
  for (const entry of readdirSync(cacheDir)) {
    const path = join(cacheDir, entry);
    if (keep.includes(path)) continue;
    // Leave files younger than a minute: a parallel run may be writing them.
    if (Date.now() - statSync(path).mtimeMs > 60_000) {
      rmSync(path, { force: true });
    }
  }
}
