import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '@estudio/db/password';
import { class_package } from '@estudio/db/schema/packages';
import { auth_login_failure, auth_user, refresh_token } from '@estudio/db/schema/identity';
import { contentSecurityPolicy } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createIdTokenSigner } from '../../src/services/auth/id-token.ts';
import { hashToken } from '../../src/services/auth/tokens.ts';
import { call, demoPassword, login, startTestServer, testSecret, type TestServer } from '../support/helpers.ts';
import { defs, procedures } from '../support/router-walk.ts';

/**
 * The sign-in and payment promises of the Security section, beyond what
 * auth.test.ts (limits, lockout, expiry, rotation, revocation), files.test.ts
 * (content sniffing) and webhooks.test.ts prove: every credential route on
 * both transports, spoofed addresses, forged tokens, the stored password
 * hash, secrets only from the environment, hostile uploads, the security
 * headers and that no card data is accepted or stored by the server.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const rateLimitedBody = { code: 'rate-limited', message: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.' };
const lockedBody = { code: 'auth/too-many-requests', message: 'Demasiados intentos de inicio de sesión. Espera unos minutos e inténtalo de nuevo.' };
const invalidIdTokenBody = { code: 'auth/invalid-id-token', message: 'Tu sesión no es válida. Por favor, inicia sesión de nuevo.' };
const invalidRefreshBody = { code: 'auth/invalid-refresh-token', message: 'Tu sesión no es válida. Por favor, inicia sesión de nuevo.' };

let server: TestServer;
let filesDir: string;
beforeAll(async () => {
  // The uploads folder sits inside a parent holding a file that must never be served.
  const parent = mkdtempSync(path.join(tmpdir(), 'estudio-sec-'));
  filesDir = path.join(parent, 'archivos');
  writeFileSync(path.join(parent, 'fuera.png'), 'SECRETO-FUERA-DE-LA-CARPETA');
  server = await startTestServer({ FILES_DIR: filesDir });
}, 60_000);
afterAll(async () => {
  await server?.close();
  if (filesDir) rmSync(path.dirname(filesDir), { recursive: true, force: true });
});

/** An inject from a given client address, with optional headers. */
async function from(app: FastifyInstance, address: string, method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({ method, url, remoteAddress: address, headers, ...(body !== undefined ? { payload: body as object } : {}) });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

describe('rate limits on credential routes', () => {
  // Procedures that check a password or spend a one-time code (changePassword and signOutEverywhere need a valid session first).
  const sessionOnly = new Set(['auth.changePassword', 'auth.signOutEverywhere']);
  const credentialProcedures = procedures.filter((p) => p.path.startsWith('auth.') && !sessionOnly.has(p.path));

  it('the walk finds the credential procedures of the auth router', () => {
    expect(credentialProcedures.map((p) => p.path).sort()).toEqual(
      ['auth.confirmEmailChange', 'auth.login', 'auth.recover', 'auth.refresh', 'auth.requestEmailChange', 'auth.resetPassword', 'auth.signup'].sort(),
    );
  });

  it('every credential route answers the Spanish 429 per client address, over /api and /trpc', async () => {
    const limited = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '2' });
    let n = 0;
    for (const { path: name, def } of credentialProcedures) {
      const openapi = def.meta?.openapi;
      expect(openapi, name).toBeDefined();
      // Refresh has a bucket four times larger (tabs behind one address refresh often).
      const max = name === 'auth.refresh' ? 8 : 2;
      const routes = [
        { method: openapi!.method.toUpperCase() as InjectOptions['method'], url: `/api${openapi!.path}`, calls: 1 },
        { method: 'POST' as const, url: `/trpc/${name}`, calls: 1 },
        // A batch of two calls of it: each call counts (decision 012), so half as many requests spend the allowance.
        { method: 'POST' as const, url: `/trpc/${name},${name}?batch=1`, calls: 2 },
      ];
      for (const route of routes) {
        const address = `10.9.${Math.floor(++n / 250)}.${n % 250}`;
        const body = { email: 'cliente@estudio.demo', password: 'Incorrecta1', refreshToken: 'x', token: 'x' };
        for (let i = 0; i < max / route.calls; i++) {
          expect((await from(limited, address, route.method, route.url, body)).status, `${name} ${route.url} #${i + 1}`).not.toBe(429);
        }
        const blocked = await from(limited, address, route.method, route.url, body);
        expect(blocked.status, `${name} ${route.url}`).toBe(429);
        const error = route.url.startsWith('/api') ? blocked.body : ([] as unknown[]).concat(blocked.body).at(-1);
        if (route.url.startsWith('/api')) expect(error).toEqual(rateLimitedBody);
        else expect(error).toMatchObject({ error: { message: rateLimitedBody.message, data: { httpStatus: 429, domainCode: 'rate-limited' } } });
      }
    }
    // Another address still has its whole allowance.
    expect((await from(limited, '10.8.0.1', 'POST', '/api/auth/login', { email: 'cliente@estudio.demo', password: demoPassword })).status).toBe(200);
  });

  it('with TRUST_PROXY off a spoofed X-Forwarded-For does not get a fresh bucket', async () => {
    const limited = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '3' });
    const body = { email: 'cliente@estudio.demo', password: 'Incorrecta1' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await from(limited, '10.7.0.1', 'POST', '/api/auth/login', body, { 'x-forwarded-for': `203.0.113.${i + 1}` })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });

  it('failures from several addresses (behind a trusted proxy) still lock the account, and the right password is refused while locked', async () => {
    const proxied = await server.withConfig({ TRUST_PROXY: 'true', LOGIN_FAILURE_MAX: '3', AUTH_RATE_LIMIT_MAX: '100' });
    const email = 'bloqueo.distribuido@correo.mx';
    expect((await call(proxied, 'POST', '/api/auth/signup', { body: { email, password: 'Correcta1' } })).status).toBe(200);
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      const res = await from(proxied, '10.0.0.1', 'POST', '/api/auth/login', { email, password: 'Incorrecta1' }, { 'x-forwarded-for': ip });
      expect(res.body.code).toBe('auth/wrong-password');
    }
    // Each failure was counted under its own client address: the per-address limiter alone would never have stopped them.
    const rows = await server.db.select().from(auth_login_failure).where(eq(auth_login_failure.email, email));
    expect(rows.map((r) => r.ip).sort()).toEqual(['198.51.100.1', '198.51.100.2', '198.51.100.3']);

    const locked = await from(proxied, '10.0.0.1', 'POST', '/api/auth/login', { email, password: 'Correcta1' }, { 'x-forwarded-for': '198.51.100.4' });
    expect(locked).toEqual({ status: 429, body: lockedBody });
    const overTrpc = await from(proxied, '10.0.0.1', 'POST', '/trpc/auth.login', { email, password: 'Correcta1' }, { 'x-forwarded-for': '198.51.100.5' });
    expect(overTrpc.status).toBe(429);
    expect(overTrpc.body).toMatchObject({ error: { message: lockedBody.message, data: { domainCode: 'auth/too-many-requests' } } });
  });
});

/** base64url of a JSON value. */
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('ID tokens that must be refused', () => {
  let cliente: { idToken: string; localId: string };
  let adminUid: string;
  beforeAll(async () => {
    cliente = await login(server.app, 'cliente@estudio.demo');
    adminUid = (await login(server.app, 'admin@estudio.demo')).localId;
  });

  const expectRefused = async (token: string, expected = invalidIdTokenBody) => {
    const rest = await call(server.app, 'GET', '/api/customer', { token });
    expect(rest).toMatchObject({ status: 401, body: expected });
    const trpc = await call(server.app, 'GET', '/trpc/customer.me', { token });
    expect(trpc.status).toBe(401);
    expect(trpc.body.error).toMatchObject({ message: expected.message, data: { domainCode: expected.code } });
  };

  it('the genuine token works (control)', async () => {
    expect((await call(server.app, 'GET', '/api/customer', { token: cliente.idToken })).body.customer.email).toBe('cliente@estudio.demo');
  });

  it("an 'alg: none' token with the customer's own claims", async () => {
    const [, payload] = cliente.idToken.split('.');
    await expectRefused(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`);
  });

  it("a payload changed to another uid, or given an admin role, keeping the customer's signature", async () => {
    const [header, payload, signature] = cliente.idToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    await expectRefused(`${header}.${b64({ ...claims, sub: adminUid, user_id: adminUid })}.${signature}`);
    await expectRefused(`${header}.${b64({ ...claims, role: 'admin', admin: true })}.${signature}`);
  });

  it('the right secret with another algorithm, issuer or audience', async () => {
    const { SignJWT } = await import('jose');
    const key = new TextEncoder().encode(testSecret);
    const now = Math.floor(Date.now() / 1000);
    const build = (alg: string, iss: string, aud: string) =>
      new SignJWT({ email: 'cliente@estudio.demo', user_id: cliente.localId })
        .setProtectedHeader({ alg, typ: 'JWT' })
        .setSubject(cliente.localId)
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(key);
    // Control: the same builder with the product's settings is accepted.
    expect((await call(server.app, 'GET', '/api/customer', { token: await build('HS256', 'estudio-local', 'estudio') })).status).toBe(200);
    await expectRefused(await build('HS512', 'estudio-local', 'estudio'));
    await expectRefused(await build('HS256', 'otro-emisor', 'estudio'));
    await expectRefused(await build('HS256', 'estudio-local', 'otra-app'));
  });

  it('an expired token is refused on /trpc and on the upload route too', async () => {
    const expired = await createIdTokenSigner(testSecret, 3600).sign({ uid: cliente.localId, email: 'cliente@estudio.demo' }, -5);
    const expiredBody = { code: 'auth/id-token-expired', message: 'Tu sesión expiró. Por favor, inicia sesión de nuevo.' };
    const trpc = await call(server.app, 'GET', '/trpc/customer.me', { token: expired });
    expect(trpc.status).toBe(401);
    expect(trpc.body.error).toMatchObject({ message: expiredBody.message });
    const upload = await server.app.inject({
      method: 'POST',
      url: '/api/files',
      payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nx\r\n--x--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=x', authorization: `Bearer ${expired}` },
    });
    expect({ status: upload.statusCode, body: upload.json() as unknown }).toEqual({ status: 401, body: expiredBody });
  });
});

describe('refresh tokens that must be refused', () => {
  const refresh = (refreshToken: string, url = '/api/auth/refresh') => call(server.app, 'POST', url, { body: { refreshToken } });

  const liveTokens = async (uid: string) =>
    (await server.db.select().from(refresh_token).where(eq(refresh_token.uid, uid))).filter((row) => row.revokedAt === null);

  it('a token used twice at the same moment: both answers carry the same successor, and one session lives', async () => {
    const tokens = await login(server.app, 'nuevo@estudio.demo');
    const before = (await liveTokens(tokens.localId)).length;
    const answers = await Promise.all(
      ['/api/auth/refresh', '/trpc/auth.refresh', '/api/auth/refresh', '/trpc/auth.refresh'].map((url) => refresh(tokens.refreshToken, url)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const successors = answers.map((a) => (a.body.refreshToken ?? a.body.result?.data?.refreshToken) as string);
    expect(new Set(successors).size).toBe(1);
    const rows = await server.db.select().from(refresh_token).where(eq(refresh_token.token_hash, hashToken(tokens.refreshToken)));
    expect(rows[0]?.revokedAt).not.toBeNull();
    // The rotated token was replaced by exactly one: no second session forked from it.
    expect((await liveTokens(tokens.localId)).length).toBe(before);
  });

  /*
   * A page that moves on while its refresh is in flight loses the answer, and the next page holds only the rotated
   * token. For a short grace the rotated token answers again with the same successor (kept sealed with a key only
   * the rotated token derives): the session survives the navigation without a second session being forked.
   */
  it('a refresh whose answer was lost: the same token again, within the grace, gives the same successor', async () => {
    const tokens = await login(server.app, 'nuevo@estudio.demo');
    const first = await refresh(tokens.refreshToken);
    expect(first.status).toBe(200);
    const again = await refresh(tokens.refreshToken);
    expect(again.status).toBe(200);
    expect(again.body.refreshToken).toBe(first.body.refreshToken);
    expect((await call(server.app, 'GET', '/api/customer', { token: again.body.idToken as string })).status).toBe(200);
    expect((await refresh(first.body.refreshToken as string)).status).toBe(200);
  });

  it('the stored row holds no usable successor: only the rotated token opens it', async () => {
    const tokens = await login(server.app, 'nuevo@estudio.demo');
    const first = await refresh(tokens.refreshToken);
    const [row] = await server.db.select().from(refresh_token).where(eq(refresh_token.token_hash, hashToken(tokens.refreshToken)));
    expect(row?.successor_sealed).toBeTruthy();
    expect(row?.successor_sealed).not.toContain(first.body.refreshToken as string);
    // The stored hash of the rotated token (a leaked row) is not the token.
    expect(await refresh(hashToken(tokens.refreshToken))).toMatchObject({ status: 401, body: invalidRefreshBody });
  });

  /*
   * Reuse detection (revoking the whole session family when a rotated token comes back late) is deliberately not
   * done: the portal's tabs share one session, and a tab that lost the race adopts the successor from storage
   * (portal/src/session/session-store.ts). A rotated token is 256 random bits, stored only as its sha-256 and
   * refused once its successor was used or the grace is over; "sign out everywhere" ends the rest.
   */
  it('a rotated token whose successor was already used is refused, and the session goes on', async () => {
    const tokens = await login(server.app, 'nuevo@estudio.demo');
    const winner = await refresh(tokens.refreshToken);
    expect(winner.status).toBe(200);
    const next = await refresh(winner.body.refreshToken as string);
    expect(next.status).toBe(200);
    expect(await refresh(tokens.refreshToken)).toMatchObject({ status: 401, body: invalidRefreshBody });
    expect((await refresh(next.body.refreshToken as string)).status).toBe(200);
  });

  it('a rotated token after the grace is refused', async () => {
    const tokens = await login(server.app, 'nuevo@estudio.demo');
    expect((await refresh(tokens.refreshToken)).status).toBe(200);
    await server.db
      .update(refresh_token)
      .set({ revokedAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(refresh_token.token_hash, hashToken(tokens.refreshToken)));
    expect(await refresh(tokens.refreshToken)).toMatchObject({ status: 401, body: invalidRefreshBody });
  });

  it('a rotated token within the grace, after sign out everywhere, is refused', async () => {
    const tokens = await login(server.app, 'nuevo@estudio.demo');
    const first = await refresh(tokens.refreshToken);
    expect((await call(server.app, 'POST', '/api/auth/logout', { token: first.body.idToken as string })).status).toBe(200);
    expect(await refresh(tokens.refreshToken)).toMatchObject({ status: 401, body: invalidRefreshBody });
  });

  it('an expired refresh token', async () => {
    const tokens = await login(server.app, 'nuevo@estudio.demo');
    await server.db
      .update(refresh_token)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(refresh_token.token_hash, hashToken(tokens.refreshToken)));
    expect(await refresh(tokens.refreshToken)).toMatchObject({ status: 401, body: invalidRefreshBody });
  });

  it('a made-up token and one that is only the stored hash (a leaked table row)', async () => {
    const tokens = await login(server.app, 'nuevo@estudio.demo');
    expect(await refresh(randomBytes(32).toString('base64url'))).toMatchObject({ status: 401, body: invalidRefreshBody });
    expect(await refresh(hashToken(tokens.refreshToken))).toMatchObject({ status: 401, body: invalidRefreshBody });
  });

  it('after sign out everywhere, every refresh token of the account is refused over /trpc too', async () => {
    const a = await login(server.app, 'nuevo@estudio.demo');
    const b = await login(server.app, 'nuevo@estudio.demo');
    expect((await call(server.app, 'POST', '/trpc/auth.signOutEverywhere', { token: b.idToken, body: {} })).status).toBe(200);
    for (const t of [a, b]) {
      const res = await refresh(t.refreshToken, '/trpc/auth.refresh');
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ message: invalidRefreshBody.message, data: { domainCode: 'auth/invalid-refresh-token' } });
    }
  });
});

describe('stored passwords', () => {
  const parse = (stored: string) => {
    const [scheme, N, r, p, salt, hash] = stored.split('$') as [string, string, string, string, string, string];
    return { scheme, N: Number(N), r: Number(r), p: Number(p), salt, hash };
  };
  const memoryBytes = (h: { N: number; r: number }) => 128 * h.N * h.r;

  it('a sign-up stores a memory-hard scrypt string (N·r·128 ≥ 16 MiB), never the password, with its own salt', async () => {
    const password = 'MiClaveSecreta2024';
    const stored: string[] = [];
    for (const email of ['misma.clave.1@correo.mx', 'misma.clave.2@correo.mx']) {
      expect((await call(server.app, 'POST', '/api/auth/signup', { body: { email, password } })).status).toBe(200);
      const [row] = await server.db.select().from(auth_user).where(eq(auth_user.email, email));
      stored.push(row!.password_hash);
    }
    for (const s of stored) {
      const h = parse(s);
      expect(h.scheme).toBe('scrypt');
      expect(memoryBytes(h)).toBeGreaterThanOrEqual(16 * 1024 * 1024);
      expect(Buffer.from(h.salt, 'base64')).toHaveLength(16);
      expect(Buffer.from(h.hash, 'base64').length).toBeGreaterThanOrEqual(32);
      expect(s).not.toContain(password);
      expect(s).not.toContain(Buffer.from(password).toString('base64'));
      expect(await verifyPassword(password, s)).toBe(true);
    }
    const [first, second] = stored.map(parse) as [ReturnType<typeof parse>, ReturnType<typeof parse>];
    expect(first.salt).not.toBe(second.salt);
    expect(first.hash).not.toBe(second.hash);
  });

  it('every identity in the database (the demo seed included) is hashed the same memory-hard way', async () => {
    const rows = await server.db.select({ email: auth_user.email, hash: auth_user.password_hash }).from(auth_user);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) {
      const h = parse(row.hash);
      expect(h.scheme, row.email).toBe('scrypt');
      expect(memoryBytes(h), row.email).toBeGreaterThanOrEqual(16 * 1024 * 1024);
    }
  });

  it('verifyPassword refuses malformed hashes instead of throwing or accepting', async () => {
    const good = await hashPassword(demoPassword);
    const [, N, r, p, salt, hash] = good.split('$');
    const malformed = [
      '',
      demoPassword,
      `bcrypt$${N}$${r}$${p}$${salt}$${hash}`,
      `scrypt$${N}$${r}$${p}$${salt}`,
      `scrypt$${N}$${r}$${p}$${salt}$${hash}$extra`,
      `scrypt$0$${r}$${p}$${salt}$${hash}`,
      `scrypt$-16384$${r}$${p}$${salt}$${hash}`,
      `scrypt$abc$${r}$${p}$${salt}$${hash}`,
      // A cost that would make verification allocate gigabytes: refused before deriving.
      `scrypt$${2 ** 30}$${r}$${p}$${salt}$${hash}`,
      `scrypt$${N}$${r}$${p}$$${hash}`,
      `scrypt$${N}$${r}$${p}$${salt}$`,
      // The hash or the salt cut short (a damaged row): a 1-byte hash would let 1 password in 256 through.
      `scrypt$${N}$${r}$${p}$${salt}$${Buffer.from(hash!, 'base64').subarray(0, 4).toString('base64')}`,
      `scrypt$${N}$${r}$${p}$${Buffer.from(salt!, 'base64').subarray(0, 2).toString('base64')}$${hash}`,
    ];
    for (const stored of malformed) expect(await verifyPassword(demoPassword, stored), stored).toBe(false);
    expect(await verifyPassword(demoPassword, good)).toBe(true);
    expect(await verifyPassword('Demo1234?', good)).toBe(false);
  });
});

describe('secrets come only from the environment', () => {
  /**
   * The files allowed to read process.env, and why. Everything else receives
   * the validated Config (server) or DeskConfig (desk) object.
   */
  const envReaders: Record<string, string> = {
    'server/src/config.ts': 'loadConfig: the one place the server reads and validates its environment',
    'server/src/services/auth/firebase-provider.ts': 'writes (not reads) FIREBASE_AUTH_EMULATOR_HOST, which firebase-admin only takes from the environment',
    'db/src/testing.ts': 'createTestDb: TEST_DATABASE_URL picks PostgreSQL for the tests; only tests import it',
    'desktop/src/service/config.ts': 'loadDeskConfig: the desk service’s config, and the OS data folder (APPDATA, XDG_DATA_HOME)',
    'desktop/src/web/main.ts': 'entry point of desk:web (DESK_WEB_DIST, DESK_PORT)',
    'desktop/src/main/index.ts': 'Electron entry point: electron-vite’s ELECTRON_RENDERER_URL, DESK_DATA_DIR, and hands process.env to the service’s process',
    'desktop/src/web/service-process.ts': 'entry point of the desk service’s process (DESK_RENDERER_DIR, DESK_PORT), hands process.env to loadDeskConfig',
    'sync/src/client/init-cluster.ts': 'hands its environment to the child that creates a new replica’s cluster, with ELECTRON_RUN_AS_NODE so Electron runs it as Node',
  };
  const scanned = ['server/src', 'db/src', 'core/src', 'sync/src', 'desktop/src', 'portal/src'];
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter((f) => f && existsSync(path.join(root, f)));
  const source = (file: string) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(file);
  const envAccess = /\bprocess\s*(?:\.\s*env\b|\[\s*['"`]env['"`]\s*\])|\{[^}]*\benv\b[^}]*\}\s*=\s*(?:process\b|require\(\s*['"](?:node:)?process['"]\s*\))|import\s*\{[^}]*\benv\b[^}]*\}\s*from\s*['"](?:node:)?process['"]/;

  it('process.env is read only in the listed configuration modules and entry points', () => {
    const readers = tracked.filter((f) => source(f) && scanned.some((dir) => f.startsWith(`${dir}/`)) && envAccess.test(readFileSync(path.join(root, f), 'utf8')));
    expect(readers.sort()).toEqual(Object.keys(envReaders).sort());
  });

  it('the portal reads no environment at build time into its bundle (no import.meta.env, no process.env)', () => {
    const portal = tracked.filter((f) => f.startsWith('portal/src/') && source(f));
    expect(portal.length).toBeGreaterThan(50);
    for (const f of portal) expect(readFileSync(path.join(root, f), 'utf8'), f).not.toMatch(/import\.meta\.env|process\.env/);
  });

  it('the scanner recognises each way of reading the environment (control)', () => {
    for (const text of ['const k = process.env.KEY;', "process['env'].KEY", 'const { env } = process;', "import { env } from 'node:process';", 'const { env: e } = require("process")']) {
      expect(envAccess.test(text), text).toBe(true);
    }
    expect(envAccess.test('const env = config.env; processEnvironment()')).toBe(false);
  });

  // Stripe secret/restricted keys and webhook secrets have long random tails; the tests' placeholders ('sk_test_estudio_fake') do not.
  const secretPatterns: [string, RegExp][] = [
    ['Stripe secret key', /\b[sr]k_(?:live|test)_[A-Za-z0-9]{20,}/],
    ['Stripe webhook secret', /\bwhsec_[A-Za-z0-9+/=]{20,}/],
    ['AWS access key id', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
    ['PEM private key', /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/],
    ['PayPal live client secret', /\bE[A-Za-z0-9_-]{79}\b(?=['"])/],
  ];
  const findSecrets = (text: string) => secretPatterns.filter(([, re]) => re.test(text)).map(([name]) => name);

  it('no tracked file holds a secret-looking literal', () => {
    const textFiles = tracked.filter((f) => !/(^|\/)package-lock\.json$|\.(png|jpe?g|gif|webp|ico|pdf|woff2?|ttf|gz|zip)$/.test(f));
    const found = textFiles.flatMap((f) => findSecrets(readFileSync(path.join(root, f), 'utf8')).map((kind) => `${f}: ${kind}`));
    expect(found).toEqual([]);
  });

  it('the secret scanner finds each kind it looks for (control, built at run time so this file holds none)', () => {
    const tail = (n: number) => 'aB3'.repeat(Math.ceil(n / 3)).slice(0, n);
    const samples = [
      `const key = "${'sk_'}live_${tail(32)}";`,
      `STRIPE_SECRET_KEY=${'rk_'}test_${tail(40)}`,
      `secret: '${'whsec'}_${tail(32)}'`,
      `aws_access_key_id = ${'AKIA'}${'ABCDEFGHIJKLMNOP'}`,
      `${'-----BEGIN'} RSA PRIVATE KEY-----\nMIIE...`,
    ];
    for (const s of samples) expect(findSecrets(s), s).not.toEqual([]);
  });

  it('production refuses to start without AUTH_SECRET or with a short one, and uses the given one as is', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'corta' })).toThrow(/AUTH_SECRET: AUTH_SECRET debe tener al menos 32 caracteres/);
    const config = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: testSecret });
    expect(config.AUTH_SECRET).toBe(testSecret);
    expect(config.authSecretGenerated).toBe(false);
  });
});

/** 1×1 transparent PNG. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function upload(token: string, value: Buffer | string, filename: string, contentType: string) {
  const boundary = `----sec${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    Buffer.from(value),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/files',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** GET with the path sent byte for byte as given (no URL normalisation on the way). */
function rawGet(base: string, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: 'GET', path: rawPath }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('uploads judged by content', () => {
  let token: string;
  let servedPng = '';
  beforeAll(async () => {
    token = (await login(server.app, 'cliente@estudio.demo')).idToken;
  });
  const refused = { code: 'file/type-not-allowed', message: 'El tipo de archivo no está permitido. Carga una imagen (JPG, PNG, WEBP o GIF) o un PDF.' };

  it('an SVG carrying a script is refused, under its own name and as .png', async () => {
    const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(document.cookie)</script></svg>';
    expect(await upload(token, svg, 'logo.svg', 'image/svg+xml')).toEqual({ status: 415, body: refused });
    expect(await upload(token, svg, 'logo.png', 'image/png')).toEqual({ status: 415, body: refused });
  });

  it('HTML named .jpg is refused', async () => {
    const html = '<!doctype html><html><body><script>fetch("/api/customer")</script></body></html>';
    expect(await upload(token, html, 'foto.jpg', 'image/jpeg')).toEqual({ status: 415, body: refused });
  });

  it('a PNG header followed by HTML is served as image/png with nosniff, never as HTML', async () => {
    const polyglot = Buffer.concat([png, Buffer.from('<html><body><script>alert(1)</script></body></html>')]);
    const res = await upload(token, polyglot, 'pagina.html', 'text/html');
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ type: 'image/png', name: 'pagina.html' });
    expect(res.body.file.src).toMatch(/^\/files\/[0-9a-f-]{36}\.png$/);
    servedPng = res.body.file.src as string;
    const served = await server.app.inject({ method: 'GET', url: servedPng });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('paths that climb out of the folder answer 404 or 400 and never a file outside it', async () => {
    const attempts = [
      '/files/..%2f..%2fpackage.json',
      '/files/..%2F..%2F..%2Fpackage.json',
      '/files/%2e%2e/%2e%2e/package.json',
      '/files/%2e%2e%2f%2e%2e%2fpackage.json',
      '/files/..%252f..%252fpackage.json',
      '/files/..%5c..%5cpackage.json',
      '/files/....//....//package.json',
      '/files/..%2ffuera.png',
      '/files/%2e%2e%2ffuera.png',
      '/files/..%00/fuera.png',
      '/files/.%2e/fuera.png',
      '/files//etc/passwd',
    ];
    const packageJson = readFileSync(path.join(root, 'package.json'), 'utf8');
    // Over a real socket: inject() would resolve the dot segments the way a browser does before the server sees them.
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const url of attempts) {
        const res = await rawGet(base, url);
        expect([400, 404], url).toContain(res.status);
        expect(res.body, url).not.toContain('SECRETO-FUERA-DE-LA-CARPETA');
        expect(res.body, url).not.toContain(packageJson.slice(0, 40));
      }
      // Control: a file inside the folder is served over the same socket.
      const ok = await rawGet(base, servedPng);
      expect(ok.status).toBe(200);
    } finally {
      await server.app.server.close();
    }
  });
});

describe('private answers', () => {
  it('a signed-in customer’s profile, purchases and bookings are never kept by a cache, over REST and tRPC', async () => {
    const { idToken } = await login(server.app, 'cliente@estudio.demo');
    for (const url of ['/api/customer', '/api/purchases', '/api/class_reservations/mine', '/trpc/customer.me']) {
      const res = await call(server.app, 'GET', url, { token: idToken });
      expect(res.status, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
    }
    // A refusal is the caller's too.
    expect((await call(server.app, 'GET', '/api/purchases/999999', { token: idToken })).headers['cache-control']).toBe('private, no-store');
  });

  it("a public answer to an anonymous visitor is left to the route, and a route's own rule is kept", async () => {
    const anonymous = await call(server.app, 'GET', '/api/class_packages');
    expect(anonymous.headers['cache-control']).toBeUndefined();
    const { idToken } = await login(server.app, 'admin@estudio.demo');
    const csv = await call(server.app, 'GET', '/api/reports/export?kind=customers&start_date=2026-01-01&end_date=2026-01-31', { token: idToken });
    expect(csv.headers['cache-control']).toBe('no-store');
  });
});

describe('security headers', () => {
  /** The policy as helmet writes it from the declared directives. */
  const declaredPolicy = Object.entries(contentSecurityPolicy)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${(value as string[]).join(' ')}`)
    .join(';');

  const directive = (policy: string, name: string) =>
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .find(([n]) => n === name)
      ?.slice(1) ?? [];
  /** Whether a CSP source list lets `url` load (scheme, host and *.host wildcards, as browsers match them). */
  const allows = (sources: string[], url: string) => {
    const u = new URL(url);
    return sources.some((s) => {
      if (s === `${u.protocol}`) return true;
      const m = /^(https?:)\/\/(\*\.)?([^/:]+)$/.exec(s);
      if (!m) return false;
      if (m[1] !== u.protocol) return false;
      return m[2] ? u.hostname.endsWith(`.${m[3]}`) : u.hostname === m[3];
    });
  };

  const answers = async () => {
    const token = (await login(server.app, 'cliente@estudio.demo')).idToken;
    const uploaded = await upload(token, png, 'punto.png', 'image/png');
    return {
      'the portal HTML': await server.app.inject({ method: 'GET', url: '/mystudio' }),
      'an /api answer': await server.app.inject({ method: 'GET', url: '/api/appconfig' }),
      'an /api error': await server.app.inject({ method: 'GET', url: '/api/customer' }),
      'a /trpc answer': await server.app.inject({ method: 'GET', url: '/trpc/appconfig.get' }),
      'a served file': await server.app.inject({ method: 'GET', url: uploaded.body.file.src as string }),
      'a missing file': await server.app.inject({ method: 'GET', url: '/files/00000000-0000-0000-0000-000000000000.png' }),
    };
  };

  it('every kind of answer carries the declared policy and the protective headers', async () => {
    for (const [what, res] of Object.entries(await answers())) {
      const h = res.headers;
      expect(h['content-security-policy'], what).toBe(declaredPolicy);
      expect(h['x-content-type-options'], what).toBe('nosniff');
      expect(h['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
      expect(h['x-frame-options'], what).toBe('SAMEORIGIN');
      expect(h['x-powered-by'], what).toBeUndefined();
      // Stripe's 3-D Secure and PayPal's checkout open popups that talk back to the opener.
      expect(h['cross-origin-opener-policy'], what).toBe('same-origin-allow-popups');
      // require-corp would block the embedded players and the payment frames.
      expect(h['cross-origin-embedder-policy'], what).toBeUndefined();
    }
    expect((await answers())['the portal HTML'].headers['content-type']).toMatch(/^text\/html/);
  });

  it('the declared policy allows no inline or eval script, no plugins, and only same-origin framing of the portal', () => {
    const script = directive(declaredPolicy, 'script-src');
    expect(script).toContain("'self'");
    expect(script.filter((s) => /unsafe|\*$|^https?:$|^data:|^blob:/.test(s))).toEqual([]);
    expect(directive(declaredPolicy, 'default-src')).toEqual(["'self'"]);
    expect(directive(declaredPolicy, 'object-src')).toEqual(["'none'"]);
    expect(directive(declaredPolicy, 'frame-ancestors')).toEqual(["'self'"]);
    expect(directive(declaredPolicy, 'base-uri')).toEqual(["'self'"]);
    expect(directive(declaredPolicy, 'form-action')).toEqual(["'self'"]);
  });

  // What each third party documents it loads into the page (Stripe's and PayPal's CSP guides, the players' embed urls).
  const thirdParties: [string, 'script-src' | 'frame-src' | 'connect-src', string][] = [
    ['Stripe.js', 'script-src', 'https://js.stripe.com/v3/'],
    ['Stripe.js chunks', 'script-src', 'https://b.js.stripe.com/v3/fingerprinted/js/elements.js'],
    ['Stripe Elements frames', 'frame-src', 'https://js.stripe.com/v3/elements-inner-card.html'],
    ['Stripe frames on subdomains', 'frame-src', 'https://b.js.stripe.com/v3/controller.html'],
    ['Stripe 3-D Secure', 'frame-src', 'https://hooks.stripe.com/redirect/authenticate/src_1'],
    ['Stripe API', 'connect-src', 'https://api.stripe.com/v1/payment_methods'],
    ['PayPal SDK', 'script-src', 'https://www.paypal.com/sdk/js?client-id=test&currency=MXN'],
    ['PayPal SDK assets', 'script-src', 'https://www.paypalobjects.com/js-sdk-logos/2.2.7/paypal-blue.svg'],
    ['PayPal buttons', 'frame-src', 'https://www.paypal.com/smart/buttons'],
    ['PayPal sandbox buttons', 'frame-src', 'https://www.sandbox.paypal.com/smart/buttons'],
    ['PayPal logger', 'connect-src', 'https://www.paypal.com/xoplatform/logger/api/logger'],
    ['PayPal sandbox logger', 'connect-src', 'https://www.sandbox.paypal.com/xoplatform/logger/api/logger'],
    ['YouTube player', 'frame-src', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['Vimeo player', 'frame-src', 'https://player.vimeo.com/video/76979871'],
  ];

  it.each(thirdParties)('the policy lets %s load (%s %s)', (_name, kind, url) => {
    expect(allows(directive(declaredPolicy, kind), url)).toBe(true);
  });

  it('and still refuses scripts and frames from elsewhere (control of the matcher)', () => {
    expect(allows(directive(declaredPolicy, 'script-src'), 'https://evil.example/x.js')).toBe(false);
    expect(allows(directive(declaredPolicy, 'script-src'), 'https://js.stripe.com.evil.example/v3/')).toBe(false);
    expect(allows(directive(declaredPolicy, 'frame-src'), 'https://evil.example/')).toBe(false);
  });
});

describe('no card number reaches the server', () => {
  /** Every object key of a zod schema, at any depth. */
  function fieldNames(schema: unknown, seen = new Set<unknown>()): string[] {
    if (!schema || typeof schema !== 'object' || seen.has(schema) || !('_zod' in schema)) return [];
    seen.add(schema);
    const def = defs(schema);
    const nested = Object.entries(def).flatMap(([key, value]) => {
      if (key === 'shape' && value && typeof value === 'object') {
        return Object.entries(value as Record<string, unknown>).flatMap(([field, s]) => [field, ...fieldNames(s, seen)]);
      }
      if (key === 'getter' && typeof value === 'function') return fieldNames((value as () => unknown)(), seen);
      if (Array.isArray(value)) return value.flatMap((v) => fieldNames(v, seen));
      return fieldNames(value, seen);
    });
    return nested;
  }
  // Street numbers ('number') and credit expiry dates ('expiration_date') are not card data.
  const cardLike = /card.?(num|no\b)|^pan$|cvc|cvv|csc|security.?code|^exp(iry)?([_-]?(month|year))?$|^cc[_-]?(num|exp|cvc|cvv)/i;

  it('no procedure input has a card-number, CVC or expiry field (only the token, brand and last 4 digits)', () => {
    const offenders = procedures.flatMap(({ path: name, def }) => def.inputs.flatMap((s) => fieldNames(s)).filter((f) => cardLike.test(f)).map((f) => `${name}.${f}`));
    expect(offenders).toEqual([]);
    // The field walk reaches the checkout's fields (control).
    const attempt = procedures.find((p) => p.path === 'checkout.attempt');
    expect(attempt && attempt.def.inputs.flatMap((s) => fieldNames(s))).toEqual(expect.arrayContaining(['payment_method_token', 'last_digits', 'card_type']));
    expect(['card_number', 'cardNumber', 'cvc', 'CVV', 'exp_month', 'expiry', 'exp', 'cc_number'].every((f) => cardLike.test(f))).toBe(true);
  });

  it('a checkout body carrying the card number, CVC and expiry is refused naming the card field (no silent drop), and stores none of them', async () => {
    const token = (await login(server.app, 'nuevo@estudio.demo')).idToken;
    const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '1 Clase'));
    const byToken = { class_package_id: pkg!.class_package_id, payment_method: 1, payment_method_token: 'pm_card_visa', save_card: true, card_type: 'visa', last_digits: '4242' };
    const cardData = { card_number: '4242424242424242', cardNumber: '4242 4242 4242 4242', cvc: '987', exp: '11/2034', exp_month: 11, exp_year: 2034 };
    const refused = await call(server.app, 'POST', '/api/checkout/attempt', { token, body: { ...byToken, ...cardData } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 'validation/unknown-field', message: 'El campo "card_number" no existe en esta operación.', field: 'card_number' });
    // The card data is refused, never echoed back (the message names the field only).
    expect(refused.raw).not.toContain('4242424242424242');
    // The same checkout with the token alone is paid, and saves the card (the scan below reads those rows).
    const res = await call(server.app, 'POST', '/api/checkout/attempt', { token, body: byToken });
    expect(res.status).toBe(200);
    expect(res.body.purchase_id).toEqual(expect.any(Number));

    const tables = await rowsOf<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    expect(tables.length).toBeGreaterThan(20);
    const needles = ['4242424242424242', '4242 4242 4242 4242', '11/2034'];
    const hits: string[] = [];
    for (const { table_name } of tables) {
      const found = await rowsOf<{ row: string }>(
        sql`select t::text as row from ${sql.identifier(table_name)} t where ${sql.join(
          needles.map((n) => sql`t::text like ${`%${n}%`}`),
          sql` or `,
        )}`,
      );
      hits.push(...found.map((r) => `${table_name}: ${r.row}`));
    }
    expect(hits).toEqual([]);
    // The card kept for later is the token with brand and last 4 (control: the scan reads the rows the checkout wrote).
    const saved = await rowsOf<{ row: string }>(sql`select t::text as row from payment_source t where t::text like '%4242%'`);
    expect(saved.length).toBeGreaterThan(0);
  });
});

async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await server.db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}
