import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createTestDb } from '@estudio/db/testing';
import type { AuthTokens } from '@estudio/core';
import { buildServer } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { Db } from '../src/db.ts';
import type { IdentityProvider } from '../src/services/auth/identity-provider.ts';

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
    ...env,
  });
}

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** Another server over the same database with other settings (limits, provider). */
  withConfig(env: Record<string, string>, options?: { identity?: IdentityProvider }): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/** A fresh migrated and seeded database (PGlite, or TEST_DATABASE_URL) and the real app over it. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const testDb = await createTestDb();
  const config = testConfig(env);
  const app = await buildServer({ config, db: testDb.db });
  const extra: FastifyInstance[] = [];
  return {
    app,
    db: testDb.db,
    config,
    async withConfig(more, options = {}) {
      const other = await buildServer({ config: testConfig({ ...env, ...more }), db: testDb.db, ...options });
      extra.push(other);
      return other;
    },
    async close() {
      for (const other of extra) await other.close();
      await app.close();
      await testDb.close();
    },
  };
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
