import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { login, testConfig, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * The studio's previous admin panel lives on its own
 * `admin.` host, so every call it makes is cross-origin. Preflights answered
 * 404 and no answer carried Access-Control-Allow-Origin, so the browser threw
 * every answer away. Allowed origins are a setting (CORS_ORIGINS); by default
 * the studio's own origin (PUBLIC_URL, here http://estudio.test) and its
 * `admin.` host. The spec's clients send a bearer header, never cookies, so
 * no credentials are allowed and the answer names the origin, never `*`.
 */

const panel = 'http://admin.estudio.test';
const stranger = 'https://otro-sitio.example';

let server: TestServer;
demoStudio([], (s) => ({ server } = s));

function preflight(url: string, origin: string, method = 'PUT', headers = 'authorization,content-type') {
  return server.app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });
}

const list = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

describe('the admin panel on its admin. host', () => {
  it('the browser asks before the discount save (PUT with Authorization and JSON) and is told yes, for that origin only', async () => {
    const res = await preflight('/api/discounts', panel);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(panel);
    expect(list(res.headers['access-control-allow-methods'])).toEqual(expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']));
    expect(list(res.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(list(res.headers.vary)).toContain('origin');
    // Bearer header, no cookies (the spec): credentials are not allowed.
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
  });

  it('preflights of /trpc and of a path with an id are answered too', async () => {
    for (const url of ['/trpc/discounts.update', '/api/discounts/3', '/api/files']) {
      const res = await preflight(url, panel, url === '/api/files' ? 'POST' : 'DELETE');
      expect(res.statusCode, url).toBe(204);
      expect(res.headers['access-control-allow-origin'], url).toBe(panel);
    }
  });

  it('the sign-in sequence from the panel: GET /api/users with the bare token is readable cross-origin', async () => {
    const { idToken } = await login(server.app, 'admin@estudio.demo');
    const res = await server.app.inject({ method: 'GET', url: '/api/users', headers: { origin: panel, authorization: idToken } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.role).toBe('admin');
    expect(res.headers['access-control-allow-origin']).toBe(panel);
    expect(list(res.headers.vary)).toContain('origin');
  });

  it('a refusal is readable too (the panel shows its Spanish message), and Retry-After of a limit is exposed', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/users', headers: { origin: panel } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Debes iniciar sesión para continuar.');
    expect(res.headers['access-control-allow-origin']).toBe(panel);
    expect(list(res.headers['access-control-expose-headers'])).toContain('retry-after');
  });

  it("the studio's own origin is allowed as well", async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/appconfig', headers: { origin: 'http://estudio.test' } });
    expect(res.headers['access-control-allow-origin']).toBe('http://estudio.test');
  });
});

describe('other origins', () => {
  it('get no CORS headers on an answer, and a preflight is refused in Spanish without them', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/appconfig', headers: { origin: stranger } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    // The answer depends on the origin, so caches must keep them apart.
    expect(list(res.headers.vary)).toContain('origin');
    const asked = await preflight('/api/discounts', stranger);
    expect(asked.statusCode).toBe(403);
    expect(asked.headers['access-control-allow-origin']).toBeUndefined();
    expect(asked.headers['access-control-allow-methods']).toBeUndefined();
    expect(asked.json()).toEqual({ code: 'cors/origin-not-allowed', message: expect.stringMatching(/origen/) });
  });

  it('a look-alike host (admin.estudio.test.evil, another scheme or port) is another origin', async () => {
    for (const origin of ['http://admin.estudio.test.evil', 'https://admin.estudio.test', 'http://admin.estudio.test:8080', 'null']) {
      const res = await server.app.inject({ method: 'GET', url: '/api/appconfig', headers: { origin } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('the portal itself (same origin, no Origin header on a GET) is unchanged', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/appconfig' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS, the setting', () => {
  it('replaces the default with the origins it lists', async () => {
    const app = await server.withConfig({ CORS_ORIGINS: 'https://panel.estudio.mx, https://admin.estudio.mx' });
    const listed = await app.inject({ method: 'GET', url: '/api/appconfig', headers: { origin: 'https://panel.estudio.mx' } });
    expect(listed.headers['access-control-allow-origin']).toBe('https://panel.estudio.mx');
    const former = await app.inject({ method: 'GET', url: '/api/appconfig', headers: { origin: panel } });
    expect(former.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("defaults to PUBLIC_URL's origin and its admin. host (www. becomes admin.)", () => {
    expect(testConfig({ PUBLIC_URL: 'https://www.estudio.mx/' }).CORS_ORIGINS).toEqual(['https://www.estudio.mx', 'https://admin.estudio.mx']);
    expect(testConfig({ PUBLIC_URL: 'https://estudio.mx' }).CORS_ORIGINS).toEqual(['https://estudio.mx', 'https://admin.estudio.mx']);
    // An address has no admin. host.
    expect(testConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).CORS_ORIGINS).toEqual(['http://127.0.0.1:3000']);
  });

  it('refuses what is not an origin (a path, a wildcard, no scheme) at start-up, naming the setting', () => {
    for (const value of ['*', 'admin.estudio.mx', 'https://admin.estudio.mx/panel', 'ftp://admin.estudio.mx']) {
      expect(() => testConfig({ CORS_ORIGINS: value }), value).toThrow(ConfigError);
      expect(() => testConfig({ CORS_ORIGINS: value }), value).toThrow(/CORS_ORIGINS/);
    }
  });
});
