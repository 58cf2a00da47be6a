import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { SQL } from 'drizzle-orm';
import { createDb } from '@estudio/db';
import { createTestDb } from '@estudio/db/testing';
import { createChangeFeed, portalContentChannel } from '@estudio/sync';
import type { AuthTokens } from '@estudio/core';
import { buildServer } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/db.ts';
import type { IdentityProvider } from '../../src/services/auth/identity-provider.ts';

export const demoPassword = 'Demo1234!';
export const testSecret = 'prueba-secreta-de-32-caracteres-o-mas!!';

/** A tiny built portal, so the SPA fallback is tested without building the real one. */
export function fakePortalDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'estudio-portal-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Portal</title><div id="root"></div>');
  return dir;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    AUTH_SECRET: testSecret,
    PUBLIC_URL: 'http://estudio.test',
    PORTAL_DIST: fakePortalDist(),
    // The servers of a test file share one database, so one set of per-call counters (decision 012), as processes of a deployment do;
    // tests that are not about limits sign in and try codes far more often than a person. Tests of the limits set their own.
    AUTH_RATE_LIMIT_MAX: '100000',
    DISCOUNT_RATE_LIMIT_MAX: '100000',
    ...env,
  });
}

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** Another server over the same database with other settings (limits, provider). */
  withConfig(env: Record<string, string>, options?: { identity?: IdentityProvider; db?: Db }): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/** A fresh migrated and seeded database (PGlite, or TEST_DATABASE_URL) and the real app over it. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const testDb = await createTestDb();
  const config = testConfig(env);
  const changeFeed = await createChangeFeed(testDb);
  const contentFeed = await createChangeFeed(testDb, portalContentChannel);
  const app = await buildServer({ config, db: testDb.db, changeFeed, contentFeed });
  const extra: FastifyInstance[] = [];
  return {
    app,
    db: testDb.db,
    config,
    async withConfig(more, options = {}) {
      const other = await buildServer({ config: testConfig({ ...env, ...more }), db: testDb.db, changeFeed, ...options });
      extra.push(other);
      return other;
    },
    async close() {
      for (const other of extra) await other.close();
      await app.close();
      await changeFeed.close();
      await contentFeed.close();
      await testDb.close();
    },
  };
}

/**
 * `db` as a handle that counts the statements it sends, as the driver receives
 * them (PGlite's query, postgres.js's unsafe): prepared statements are built
 * once, so counting drizzle's select() would see none. Statements of a
 * transaction run on the transaction's own client and are not counted.
 */
export function countingStatements(db: Db): { db: Db; counter: { statements: number } } {
  const counter = { statements: 0 };
  const { session } = db as unknown as { session: { client: object } };
  const client = new Proxy(session.client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if ((prop === 'query' || prop === 'unsafe') && typeof value === 'function') {
        return (...args: unknown[]) => {
          counter.statements += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value;
    },
  });
  const countingSession = new Proxy(session, { get: (target, prop, receiver) => (prop === 'client' ? client : (Reflect.get(target, prop, receiver) as unknown)) });
  return { db: new Proxy(db, { get: (target, prop, receiver) => (prop === 'session' ? countingSession : (Reflect.get(target, prop, receiver) as unknown)) }), counter };
}

export async function call(app: FastifyInstance, method: InjectOptions['method'], url: string, options: { body?: unknown; token?: string } = {}) {
  const res = await app.inject({
    method,
    url,
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
  // Tests read deep into arbitrary answers (REST envelopes, tRPC errors, the OpenAPI document); typing each would only restate the assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const body = res.body ? (safeJson(res.body) as Record<string, any>) : {};
  return { status: res.statusCode, body, headers: res.headers, raw: res.body };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

export async function login(app: FastifyInstance, email: string, password = demoPassword): Promise<AuthTokens> {
  const res = await call(app, 'POST', '/api/auth/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${res.raw}`);
  return res.body as AuthTokens;
}

export interface RacingServer {
  /** The server's own pool: use it to set data up and to check invariants afterwards. */
  db: Db;
  /** Signs the ID tokens of fixtures (createBookers). */
  secret: string;
  base: string;
  /** POSTs JSON as the holder of `token` over real HTTP. */
  post<T = { code?: string }>(path: string, token: string, body: Record<string, unknown>): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/**
 * The real server on a loopback port over its own 20-connection pool, so
 * transactions really run side by side and wait on each other's locks.
 * Race tests need PostgreSQL (TEST_DATABASE_URL); PGlite has one connection.
 */
export async function startRacingServer(env: Record<string, string> = {}): Promise<RacingServer & { config: Config }> {
  const testDb = await createTestDb();
  const pool = await createDb(testDb.url, { max: 20 });
  // RACE_LOG=1 shows the server's errors (a 500 in a race is otherwise only a status).
  const config = testConfig({ ...env, ...(process.env.RACE_LOG ? { LOG_LEVEL: 'error' } : {}) });
  const app = await buildServer({ config, db: pool.db });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    db: pool.db,
    config,
    secret: config.AUTH_SECRET,
    base,
    post: async <T,>(path: string, token: string, body: Record<string, unknown>) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T };
    },
    async close() {
      await app.close();
      await pool.close();
      await testDb.close();
    },
  };
}

/** The rows of a raw statement on either driver (postgres.js answers an array, PGlite an object with `rows`). */
export async function rowsOf<T>(db: Db, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** One part of a multipart/form-data body: a field, or a file with its name and declared type. */
export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

function multipart(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----estudio${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename ? `\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs a multipart/form-data body (an upload) as the holder of `token`. */
export async function upload(app: FastifyInstance, url: string, token: string | undefined, parts: Part[]) {
  const { payload, contentType } = multipart(parts);
  const res = await app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, any>, headers: res.headers }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
