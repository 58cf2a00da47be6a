import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServerBundle {
  /** `node <main>` is the production server; `node <cli>` the operator's commands. */
  main: string;
  cli: string;
  remove(): void;
}

/** Builds the server as `npm run build` does (scripts/build-server.mjs), into a folder of its own under .tmp. */
export function buildServerBundle(): ServerBundle {
  const dir = path.join('.tmp', `server-build-${randomUUID().slice(0, 8)}`);
  const built = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-server.mjs'), '--outdir', dir], { cwd: repoRoot, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`la compilación del servidor falló: ${built.stderr}`);
  const abs = path.join(repoRoot, dir);
  return { main: path.join(abs, 'main.mjs'), cli: path.join(abs, 'cli.mjs'), remove: () => rmSync(abs, { recursive: true, force: true }) };
}

/** An empty PostgreSQL database (not even migrated), dropped by `drop`. */
export async function createEmptyDatabase(adminUrl: string, prefix = 'ops'): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
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

/** Runs a command of the operator's CLI to its end: exit code and what it printed. */
export function runCli(cli: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
