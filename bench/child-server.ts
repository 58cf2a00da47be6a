// Shared by bench/load.ts and bench/api-budget.ts: a fresh seeded PostgreSQL
// database under the benches' own name, and a server in a child process (so
// the load generator and the server never share an event loop).
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { createDb, type PostgresHandle } from '@estudio/db';
import { copyTestTemplate } from '@estudio/db/testing';

const root = path.resolve(import.meta.dirname, '..');

export interface BenchDatabase {
  url: string;
  handle: PostgresHandle;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * A copy of the migrated and seeded template (the one the tests clone) named
 * `<prefix>_<pid>`, with a pool of `max` connections for setting data up and
 * checking it afterwards.
 */
export async function freshDatabase(adminUrl: string, prefix: string, max = 5): Promise<BenchDatabase> {
  const name = `${prefix}_${process.pid}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  await copyTestTemplate(adminUrl, name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const handle = await createDb(url, { max });
  if (handle.kind !== 'postgres') throw new Error('expected PostgreSQL');
  return {
    url,
    handle,
    async drop() {
      await handle.close();
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end({ timeout: 5 });
      }
    },
  };
}

export interface ChildServer {
  base: string;
  /** What the server wrote (its log at LOG_LEVEL=warn: warnings and errors). */
  output(): string;
  stop(): Promise<void>;
}

/** Runs `script` (a TypeScript file, through tsx) with `env` and waits until GET `healthPath` answers 200. */
export async function startChild(script: string, port: number, env: Record<string, string>, healthPath = '/api/health'): Promise<ChildServer> {
  // BENCH_CPU_PROF=<dir>: a V8 CPU profile of each server (written when it stops), to see where its time goes.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(root, script)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PORTAL_DIST: path.join(tmpdir(), 'sin-portal'), ...env },
  });
  let err = '';
  // The logger writes to stdout, a crash to stderr. Keep the first lines: they name the cause; the rest usually repeats it.
  const keep = (chunk: string) => {
    if (err.length < 200_000) err += chunk;
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${err}`);
    const ok = await fetch(`${base}${healthPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not answer on ${base} within 60 s:\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    output: () => err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The value below which `p` percent of the sorted samples fall. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}
