import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { class_package } from '@estudio/db/schema/packages';
import { login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * The studio's previous admin panel signs in with Firebase
 * and sends `Authorization: <idToken>` with no `Bearer ` prefix. The server
 * read that as a visitor: protected calls were 401 and public ones answered
 * as if nobody had signed in. The same token is now the same caller with or
 * without the prefix, on /api, /trpc and the upload route, and the limits of
 * decision 012 still count each call of that caller.
 */

let server: TestServer;
demoStudio([], (s) => ({ server } = s));

async function asPanel(method: 'GET' | 'POST' | 'PUT', url: string, authorization: string, body?: unknown) {
  const res = await server.app.inject({ method, url, headers: { authorization }, ...(body !== undefined ? { payload: body as object } : {}) });
  return { status: res.statusCode, body: res.json() as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('the admin panel signs in with a bare ID token', () => {
  it('the owner opens her own customer over /api with the bare token, as with Bearer', async () => {
    const { idToken } = await login(server.app, 'admin@estudio.demo');
    const bare = await asPanel('GET', '/api/customer', idToken);
    expect(bare.status).toBe(200);
    expect(bare.body.customer.email).toBe('admin@estudio.demo');
    const bearer = await asPanel('GET', '/api/customer', `Bearer ${idToken}`);
    expect(bearer.body).toEqual(bare.body);
  });

  it('the bare token works over /trpc too', async () => {
    const { idToken } = await login(server.app, 'cliente@estudio.demo');
    const res = await asPanel('GET', '/trpc/customer.me', idToken);
    expect(res.status).toBe(200);
    expect(res.body.result.data.customer.email).toBe('cliente@estudio.demo');
  });

  it('an admin-only list answers the admin with a bare token, and a customer with a bare token is refused as a customer, not as a visitor', async () => {
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    const list = await asPanel('GET', '/api/discounts/admin/all', admin);
    expect(list.status).toBe(200);
    const customer = (await login(server.app, 'cliente@estudio.demo')).idToken;
    const refused = await asPanel('GET', '/api/discounts/admin/all', customer);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
  });

  it('a public answer that adds admin-only parts gives them to the bare admin token (not a visitor view)', async () => {
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    const asAdmin = await asPanel('GET', '/api/appconfig', admin);
    const asVisitor = await server.app.inject({ method: 'GET', url: '/api/appconfig' });
    expect(asAdmin.status).toBe(200);
    const keys = (body: { config: { key: string }[] }) => body.config.map((c) => c.key);
    expect(keys(asAdmin.body as { config: { key: string }[] }).length).toBeGreaterThan(keys(asVisitor.json()).length);
  });

  it('a forged bare token is refused like a forged Bearer one (401 in Spanish), never read as a visitor', async () => {
    const res = await asPanel('GET', '/api/appconfig', 'no-es-un-token');
    const withBearer = await asPanel('GET', '/api/customer', 'Bearer no-es-un-token');
    const bare = await asPanel('GET', '/api/customer', 'no-es-un-token');
    expect(bare.status).toBe(401);
    expect(bare.body).toEqual(withBearer.body);
    expect(bare.body.message).toMatch(/sesión/);
    // The public settings never fail on a bad token (callerIsAdmin): a visitor's answer.
    expect(res.status).toBe(200);
  });

  it('another scheme (Basic) is not a token: the call is anonymous', async () => {
    const res = await asPanel('GET', '/api/customer', `Basic ${Buffer.from('admin@estudio.demo:Demo1234!').toString('base64')}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });

  it('the upload route takes the bare token', async () => {
    const { idToken } = await login(server.app, 'admin@estudio.demo');
    const boundary = `----panel${randomBytes(6).toString('hex')}`;
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="punto.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/files',
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: idToken },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().file_id).toEqual(expect.any(Number));
  });
});

describe('limits still count each call of a bare-token caller (decision 012)', () => {
  it('discount guesses with a bare token and with Bearer share one allowance per customer', async () => {
    const limited = await server.withConfig({ DISCOUNT_RATE_LIMIT_MAX: '3' });
    const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
    const { idToken } = await login(limited, 'nuevo@estudio.demo');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const authorization = i % 2 === 0 ? idToken : `Bearer ${idToken}`;
      const res = await limited.inject({ method: 'GET', url: `/api/discounts/code/PANEL${i}?class_package_id=${pkg!.class_package_id}`, headers: { authorization } });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
  });
});

describe('GET /api/users: who signed in, with the role the panel reads first', () => {
  it('right after sign-in the panel reads user.role with the bare token: admin, staff and a customer each get their own', async () => {
    for (const [email, role] of [
      ['admin@estudio.demo', 'admin'],
      ['recepcion@estudio.demo', 'staff'],
      ['cliente@estudio.demo', 'customer'],
    ] as const) {
      const { idToken, localId } = await login(server.app, email);
      const res = await asPanel('GET', '/api/users', idToken);
      expect(res.status, email).toBe(200);
      expect(res.body.user).toMatchObject({ uid: localId, email, role, customer_id: expect.any(Number) });
      expect(typeof res.body.user.role_name).toBe('string');
    }
  });

  it('the same answer with Bearer and over /trpc', async () => {
    const { idToken } = await login(server.app, 'admin@estudio.demo');
    const bare = await asPanel('GET', '/api/users', idToken);
    const bearer = await asPanel('GET', '/api/users', `Bearer ${idToken}`);
    const trpc = await asPanel('GET', '/trpc/users.current', idToken);
    expect(bearer.body).toEqual(bare.body);
    // The panel's route adds its own names (user_id, the person in customer) to the same user.
    expect(bare.body).toMatchObject(trpc.body.result.data);
    expect(bare.body.user.role_name).toBe('Administrador');
  });

  it('not signed in: 401 in Spanish; a signed-in identity with no customer yet is a customer', async () => {
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/users' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ code: 'unauthenticated', message: 'Debes iniciar sesión para continuar.' });
    const signup = await server.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: `panel.${Date.now()}@correo.demo`, password: 'Demo1234!' } });
    expect(signup.statusCode).toBe(200);
    const res = await asPanel('GET', '/api/users', signup.json().idToken as string);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ role: 'customer', customer_id: null, role_name: 'Cliente' });
  });
});
