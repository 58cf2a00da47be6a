import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { builtFrom, portalSources, sourceStamp } from '../../scripts/source-stamp.mjs';
import { deskServiceV8Flags } from '../../desktop/src/service/process-protocol.ts';

/**
 * Processes of the desk specs: each starts its own server and desk:web (so a
 * test can stop the server and start it again) and signs in through /api.
 */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Starts `[command, ...args]` in the repository, its errors prefixed with `name`; npm's notices about the machine are dropped. */
export function run([command = process.execPath, ...args]: string[], env: Record<string, string>, name: string): ChildProcess {
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString().split('\n').filter((line) => line && !line.startsWith('npm warn')).join('\n');
    if (text) process.stderr.write(`[${name}] ${text}\n`);
  });
  return child;
}

/**
 * The key desk:web answers to (DESK_WEB_KEY), and the link that opens its
 * page with it, as the terminal's link does (decision 014).
 */
export const deskKey = `e2e-${process.pid}-${Date.now()}`;
export const deskLink = (deskUrl: string) => `${deskUrl}/?llave=${deskKey}`;

/** Resolves when the process ends with code 0. */
export async function finished(child: ChildProcess, what: string): Promise<void> {
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${what} terminó con ${code}`);
}

/** Waits until the URL answers 2xx. */
export async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`${url} no respondió`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** SIGTERM and wait for the exit (a no-op for a process already gone). */
export async function stop(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A demo account's ID token from the server's /api. */
export async function apiLogin(request: APIRequestContext, serverUrl: string, email: string): Promise<string> {
  const answer = await request.post(`${serverUrl}/api/auth/login`, { data: { email, password: demoPassword } });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { idToken: string }).idToken;
}

/**
 * An embedded database folder with every migration applied and no rows, made
 * once per set of migrations (scripts/migrated-pglite.ts): PGlite's initdb is
 * most of an empty folder's start (about 10 s of a desk spec's 15 on CI). It
 * holds nothing that depends on the time: the server seeds the demo studio at
 * its own now, pinned clock or not.
 */
function migratedTemplate(): string {
  const migrations = path.join(repoRoot, 'db', 'migrations');
  // A new PGlite may write its folder differently: its version is part of the name.
  const hash = createHash('sha256').update(readFileSync(path.join(repoRoot, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  for (const name of readdirSync(migrations).filter((n) => n.endsWith('.sql')).sort()) hash.update(name).update(readFileSync(path.join(migrations, name)));
  const folder = path.join(repoRoot, '.tmp', `e2e-migrated-${hash.digest('hex').slice(0, 12)}`);
  if (existsSync(folder)) return folder;
  const making = `${folder}.${process.pid}`;
  rmSync(making, { recursive: true, force: true });
  const made = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/migrated-pglite.ts', making], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (made.status !== 0) throw new Error('no se pudo preparar la base de datos migrada de las pruebas');
  renameSync(making, folder);
  return folder;
}

/** `dataDir`, made from the migrated template when it does not exist yet (a server restarted on it keeps its data). */
export function startingFromMigrated(dataDir: string): string {
  if (!existsSync(dataDir)) cpSync(migratedTemplate(), dataDir, { recursive: true });
  return dataDir;
}

/**
 * The studio's server for a desk spec, on its embedded defaults in
 * `<work>/server-data` (a throw-away database seeded with the demo studio,
 * started from the migrated template when the folder is new).
 * `portalDist` serves a built portal; by default nothing is served at /.
 */
export function serverProcess(options: { port: number; work: string; portalDist?: string; env?: Record<string, string> }): ChildProcess {
  const portalDist = options.portalDist ?? path.join(options.work, 'no-portal');
  mkdirSync(portalDist, { recursive: true });
  const dataDir = startingFromMigrated(path.join(options.work, 'server-data'));
  return run([process.execPath, '--import', 'tsx', 'server/src/main.ts'], {
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PORTAL_DIST: portalDist,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_MAX: '1000',
    ...options.env,
  }, 'servidor');
}

/**
 * desk:web for a desk spec, its replica in `<work>/desk-data`, answering to
 * `deskKey`. The screens are built into a folder the desk specs share (they
 * run one after another: workers = 1) when that build was not made from the
 * tree as it is (scripts/source-stamp.mjs): once per change, not per spec.
 */
export function deskWebProcess(options: { port: number; work: string; serverUrl: string; env?: Record<string, string> }): ChildProcess {
  const dist = path.join(repoRoot, '.tmp', `desk-web-e2e-${process.env.E2E_PORT ?? 3100}`);
  // With the V8 flags the desk's service process starts with in Electron.
  return run([process.execPath, ...deskServiceV8Flags, '--import', 'tsx', 'desktop/src/web/main.ts'], {
    DESK_PORT: String(options.port),
    // The replica is a PGlite folder with the same migrations: it starts from the template as well.
    DESK_DATA_DIR: startingFromMigrated(path.join(options.work, 'desk-data')),
    DESK_SERVER_URL: options.serverUrl,
    DESK_WEB_DIST: dist,
    DESK_WEB_KEY: deskKey,
    ...options.env,
  }, 'recepción');
}

/**
 * The portal the suite's own server built (`.tmp/portal-dist-PORT`) when it
 * was built from the tree as it is (scripts/source-stamp.mjs), or null (a run
 * of the desk specs alone after a change): a spec that serves a portal uses it
 * instead of building the same portal again (about a minute each on CI).
 */
export function portalBuiltFromTree(): string | null {
  const dist = path.join(repoRoot, '.tmp', `portal-dist-${process.env.E2E_PORT ?? 3100}`);
  return builtFrom(dist, sourceStamp(repoRoot, portalSources)) ? dist : null;
}

/** Signs a demo account in on the desk's sign-in screen (the page must show it). */
export async function deskSignIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(demoPassword);
  await page.getByRole('button', { name: 'Entrar' }).click();
}
