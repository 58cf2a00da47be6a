import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { copyTestTemplate } from '@estudio/db/testing';
import { testSecret } from './helpers.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * PostgreSQL helpers of the fault tests (faults.postgres.test.ts,
 * sigkill.postgres.test.ts): a private database cloned from the seeded test
 * template, the invariant checker, and a way to find the backend of a
 * transaction that waits on a lock so it can be terminated at that point;
 * and the real server started as its own process.
 */

export interface FaultDatabase {
  name: string;
  url: string;
  /** Drops the database, closing whatever is still connected to it. */
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A fresh migrated and seeded database named flt_<random>, from the template createTestDb uses. */
export async function createFaultDatabase(adminUrl: string): Promise<FaultDatabase> {
  const name = `flt_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  // Under the template's shared lock (copyTestTemplate): CI lost a template to another worker's rebuild here.
  await copyTestTemplate(adminUrl, name);
  return {
    name,
    url: withDatabase(adminUrl, name),
    async drop() {
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end({ timeout: 5 });
      }
    },
  };
}

const invariantsScript = readFileSync(new URL('../../../bench/invariants.sql', import.meta.url), 'utf8');

export interface Violation {
  invariante: string;
  cantidad: number;
}

/** The rows of bench/invariants.sql: none when the data is consistent. */
export async function invariantViolations(sql: postgres.Sql): Promise<Violation[]> {
  const rows = await sql.unsafe<{ invariante: string; cantidad: string | number }[]>(invariantsScript);
  return rows.map((r) => ({ invariante: r.invariante, cantidad: Number(r.cantidad) }));
}

export interface BlockedBackend {
  pid: number;
  /** The statement the backend is waiting in. */
  query: string;
}

/**
 * Waits until some backend waits on a lock held by `blockerPid` and returns
 * it. Polls pg_stat_activity; gives up when `stillRunning` says the request
 * that should block has already ended (it never reached the lock), or after
 * `limitMs` so a broken test fails instead of hanging.
 */
export async function waitForBlockedBackend(sql: postgres.Sql, blockerPid: number, stillRunning: () => boolean, limitMs = 30_000): Promise<BlockedBackend> {
  const end = Date.now() + limitMs;
  for (;;) {
    const [row] = await sql<{ pid: number; query: string }[]>`
      select pid, query from pg_stat_activity
       where ${blockerPid} = any(pg_blocking_pids(pid))`;
    if (row) return { pid: row.pid, query: row.query };
    if (!stillRunning()) throw new Error('la petición terminó sin llegar al candado');
    if (Date.now() > end) throw new Error(`ninguna transacción esperó al candado de ${blockerPid} en ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Runs `request` while a transaction of `sql` holds the locks taken by
 * `lock`; when the request's transaction waits on them, its backend is
 * terminated (pg_terminate_backend: the connection drops mid-transaction)
 * and the locks are released. Returns the request's result and the
 * statement it was killed in.
 */
export async function dropConnectionWhenBlocked<T>(
  sql: postgres.Sql,
  lock: (tx: postgres.ReservedSql) => Promise<unknown>,
  request: () => Promise<T>,
): Promise<{ result: T; killedIn: string }> {
  const holder = await sql.reserve();
  try {
    await holder`begin`;
    await lock(holder);
    const [self] = await holder<{ pid: number }[]>`select pg_backend_pid() as pid`;
    if (!self) throw new Error('sin pid');
    let running = true;
    const pending = request().finally(() => {
      running = false;
    });
    let victim: BlockedBackend;
    try {
      victim = await waitForBlockedBackend(sql, self.pid, () => running);
    } catch (error) {
      await pending.catch(() => undefined);
      throw error;
    }
    const [terminated] = await sql<{ ok: boolean }[]>`select pg_terminate_backend(${victim.pid}) as ok`;
    if (!terminated?.ok) throw new Error(`no se pudo terminar ${victim.pid}`);
    // The locks go at once: whatever the request does after the drop must not wait on them.
    await holder`rollback`;
    return { result: await pending, killedIn: victim.query };
  } finally {
    await holder`rollback`.catch(() => undefined);
    holder.release();
  }
}

/** Where a spawned server keeps its files and finds a built portal. */
export interface ServerProcessOptions {
  databaseUrl: string;
  port: number;
  dataDir: string;
  portalDist: string;
  /** More environment: limits, TRUST_PROXY. */
  env?: Record<string, string>;
  /** What node runs (default the sources through tsx); a built server passes its main.mjs. */
  entry?: string[];
  /** Where the process's log goes besides the error kept for a failed start (default: dropped). */
  stdout?: 'ignore' | 'pipe';
}

/**
 * Starts the server the way the product starts it (`node --import tsx
 * server/src/main.ts`) and resolves once /api/health answers; a server that
 * exits or does not answer in 60 s fails with its stderr.
 */
export async function startServerProcess(o: ServerProcessOptions): Promise<ChildProcess> {
  const child = spawn(process.execPath, o.entry ?? ['--import', 'tsx', path.join(repoRoot, 'server', 'src', 'main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: o.databaseUrl,
      PORT: String(o.port),
      HOST: '127.0.0.1',
      AUTH_SECRET: testSecret,
      DATA_DIR: o.dataDir,
      PORTAL_DIST: o.portalDist,
      LOG_LEVEL: 'error',
      ...o.env,
    },
    stdio: ['ignore', o.stdout ?? 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const limit = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`el servidor terminó al arrancar: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${o.port}/api/health`).then((r) => r.ok, () => false);
    if (up) return child;
    if (Date.now() > limit) throw new Error(`el servidor no respondió en 60 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
