import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '@estudio/db';
import { startServerProcess } from '../support/fault-helpers.ts';
import { fakePortalDist, testSecret } from '../support/helpers.ts';
import { buildServerBundle, createEmptyDatabase, runCli, type ServerBundle } from './built-server.ts';

/**
 * The built server (`npm run build`'s server/dist, plain node) on an empty
 * PostgreSQL database, as a new studio starts it (decisions 073, 074): two
 * processes started at once migrate once under the advisory lock, a
 * production server seeds nothing (no demo studio, no published password),
 * and the operator's `owner` command makes the first person who can sign in.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
/** This file's ports. */
const ports = [4110, 4111];
const migrationsInRepo = (JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

describe.skipIf(!adminUrl)('a production start on an empty PostgreSQL database (built server)', () => {
  let bundle: ServerBundle;
  let portalDist = '';
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeAll(() => {
    bundle = buildServerBundle();
    portalDist = fakePortalDist();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    bundle?.remove();
    rmSync(portalDist, { recursive: true, force: true });
  });

  async function startTwoAtOnce(databaseUrl: string, nodeEnv: 'production' | 'development'): Promise<ChildProcess[]> {
    const started = await Promise.all(
      ports.map((port) => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'ops-start-'));
        cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
        return startServerProcess({ databaseUrl, port, dataDir, portalDist, entry: [bundle.main], env: { NODE_ENV: nodeEnv } });
      }),
    );
    return started;
  }

  async function stop(children: ChildProcess[]): Promise<(number | null)[]> {
    return Promise.all(
      children.map(
        (child) =>
          new Promise<number | null>((resolve) => {
            if (child.exitCode !== null) return resolve(child.exitCode);
            child.once('exit', (code) => resolve(code));
            child.kill('SIGTERM');
          }),
      ),
    );
  }

  async function counts(url: string) {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ migrations: number; customers: number; settings: number; demo: number }[]>`
        select (select count(*)::int from drizzle.__drizzle_migrations) as migrations,
               (select count(*)::int from customer) as customers,
               (select count(*)::int from app_config) as settings,
               (select count(*)::int from auth_user where email like '%@estudio.demo') as demo`;
      return row;
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  it('two production processes started at once migrate it once, both answer, and nothing is seeded', async () => {
    const database = await createEmptyDatabase(adminUrl as string);
    cleanups.push(() => database.drop());
    const children = await startTwoAtOnce(database.url, 'production');
    for (const port of ports) expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
    expect(await counts(database.url)).toEqual({ migrations: migrationsInRepo, customers: 0, settings: 0, demo: 0 });
    // Nobody can sign in with the demo's published password.
    const login = await fetch(`http://127.0.0.1:${ports[0]}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@estudio.demo', password: 'Demo1234!' }),
    });
    expect(login.status).toBe(400);
    expect(await stop(children)).toEqual([0, 0]);
  }, 120_000);

  it('two development processes started at once seed the demo studio once (both start)', async () => {
    const database = await createEmptyDatabase(adminUrl as string);
    cleanups.push(() => database.drop());
    const children = await startTwoAtOnce(database.url, 'development');
    const seeded = await counts(database.url);
    expect(seeded?.migrations).toBe(migrationsInRepo);
    expect(seeded?.demo).toBe(5);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const [names] = await sql<{ n: number }[]>`select count(*)::int as n from app_config where key = 'business_name'`;
      expect(names?.n).toBe(1);
    } finally {
      await sql.end({ timeout: 5 });
    }
    expect(await stop(children)).toEqual([0, 0]);
  }, 120_000);

  it("the owner command prints a one-time link: she sets her password and signs in to the studio's console as its admin", async () => {
    const database = await createEmptyDatabase(adminUrl as string);
    cleanups.push(() => database.drop());
    const env = { NODE_ENV: 'production', DATABASE_URL: database.url, AUTH_SECRET: testSecret, PUBLIC_URL: 'https://estudio-luna.mx', LOG_LEVEL: 'error' };
    // Before any server ever started: the command migrates the new database itself.
    const made = await runCli(bundle.cli, ['owner', '--email', 'Ana@Estudio-Luna.mx', '--name', 'Ana', '--last-name', 'Ruiz', '--studio', 'Estudio Luna'], env);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const link = /https:\/\/estudio-luna\.mx\/recuperar\?token=([\w-]+)/.exec(made.stdout);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link?.[1] ?? '');

    const dataDir = mkdtempSync(path.join(tmpdir(), 'ops-owner-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const [port] = ports as [number];
    const server = await startServerProcess({ databaseUrl: database.url, port, dataDir, portalDist, entry: [bundle.main], env: { NODE_ENV: 'production' } });
    const post = (url: string, body: object, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${port}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    // The account exists but nobody can sign in to it until the link is used.
    expect((await post('/api/auth/login', { email: 'ana@estudio-luna.mx', password: 'UnaClave-Segura-2025' })).status).toBe(400);
    expect((await post('/api/auth/reset', { token, password: 'UnaClave-Segura-2025' })).status).toBe(200);
    // One time only.
    expect((await post('/api/auth/reset', { token, password: 'OtraClave-Segura-2025' })).status).toBe(400);
    const login = await post('/api/auth/login', { email: 'ana@estudio-luna.mx', password: 'UnaClave-Segura-2025' });
    expect(login.status).toBe(200);
    const { idToken } = (await login.json()) as { idToken: string };
    const me = (await (await fetch(`http://127.0.0.1:${port}/api/customer`, { headers: { authorization: `Bearer ${idToken}` } })).json()) as { customer: { role: string; name: string } };
    expect(me.customer).toMatchObject({ role: 'admin', name: 'Ana' });
    // The studio has her name for it, and her e-mail as its contact.
    const config = (await (await fetch(`http://127.0.0.1:${port}/api/appconfig`)).json()) as { config: { key: string; value: string }[] };
    expect(config.config.find((e) => e.key === 'business_name')?.value).toBe('Estudio Luna');
    expect(config.config.find((e) => e.key === 'email')?.value).toBe('ana@estudio-luna.mx');

    // Run again for an account that signs in: it stays the owner, and no new link is printed.
    const again = await runCli(bundle.cli, ['owner', '--email', 'ana@estudio-luna.mx'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('ya tiene cuenta');
    expect(again.stdout).not.toContain('token=');
    expect(await stop([server])).toEqual([0]);
  }, 120_000);
});
