import { and, count, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auth_login_failure, auth_user, refresh_token } from '@estudio/db/schema/identity';
import { outbox_message } from '@estudio/db/schema/outbox';
import { createIdTokenSigner } from '../../src/services/auth/id-token.ts';
import { call, demoPassword, login, testSecret, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
demoStudio([], (s) => ({ server } = s));

/** ID tokens carry their issue time in whole seconds; waiting for the next second makes "issued before" unambiguous. */
async function nextSecond() {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
}

const failuresOf = async (email: string) =>
  server.db.select().from(auth_login_failure).where(eq(auth_login_failure.email, email));

describe('sign-in with the local provider', () => {
  it('signs the demo customer in and the token opens their account', async () => {
    const tokens = await login(server.app, 'cliente@estudio.demo');
    expect(tokens).toMatchObject({ email: 'cliente@estudio.demo', expiresIn: '3600' });
    expect(tokens.idToken.split('.')).toHaveLength(3);
    expect(tokens.refreshToken.length).toBeGreaterThan(30);

    const me = await call(server.app, 'GET', '/api/customer', { token: tokens.idToken });
    expect(me.status).toBe(200);
    expect(me.body.customer).toMatchObject({ email: 'cliente@estudio.demo', name: 'Mariana', role: 'customer' });
  });

  it('answers the spec message for a wrong password', async () => {
    const res = await call(server.app, 'POST', '/api/auth/login', { body: { email: 'cliente@estudio.demo', password: 'Otra1234!' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'auth/wrong-password', message: 'La contraseña es incorrecta. Por favor, intenta de nuevo' });
  });

  it('answers the spec message for an unknown e-mail', async () => {
    const res = await call(server.app, 'POST', '/api/auth/login', { body: { email: 'nadie@estudio.demo', password: demoPassword } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'auth/user-not-found', message: 'Lo sentimos. No encontramos una cuenta con ese correo. ¡Regístrate!' });
  });

  it('treats the e-mail case-insensitively', async () => {
    const tokens = await login(server.app, 'Cliente@Estudio.Demo');
    expect(tokens.email).toBe('cliente@estudio.demo');
  });
});

describe('sign-up', () => {
  it('creates an identity once; the second time the e-mail is in use', async () => {
    const body = { email: 'laura.sanchez@correo.mx', password: 'Secreta1' };
    const first = await call(server.app, 'POST', '/api/auth/signup', { body });
    expect(first.status).toBe(200);
    expect(first.body.localId).toEqual(expect.any(String));

    const again = await call(server.app, 'POST', '/api/auth/signup', { body });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: 'auth/email-already-in-use', message: 'Ya tienes una cuenta con nosotros. Por favor, inicia sesión.' });
  });

  it('applies the password policy of the app configuration', async () => {
    const res = await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'corta@correo.mx', password: '12345' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'auth/weak-password', message: 'La contraseña debe tener al menos 8 caracteres.' });
    const [row] = await server.db.select({ n: count() }).from(auth_user).where(eq(auth_user.email, 'corta@correo.mx'));
    expect(row?.n).toBe(0);
  });

  it('rejects a malformed body with a Spanish message naming the field, writing nothing', async () => {
    const res = await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'no-es-correo', password: 'Secreta1' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation', field: 'email', message: 'Revisa el campo email: El correo electrónico no es válido.' });
    const [row] = await server.db.select({ n: count() }).from(auth_user).where(eq(auth_user.email, 'no-es-correo'));
    expect(row?.n).toBe(0);
  });
});

describe('ID tokens', () => {
  it('an expired token answers 401 auth/id-token-expired', async () => {
    const signer = createIdTokenSigner(testSecret, 3600);
    const tokens = await login(server.app, 'cliente@estudio.demo');
    const expired = await signer.sign({ uid: tokens.localId, email: tokens.email }, -60);
    const res = await call(server.app, 'GET', '/api/customer', { token: expired });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'auth/id-token-expired', message: 'Tu sesión expiró. Por favor, inicia sesión de nuevo.' });
  });

  it('a token signed with another secret is invalid, and no token is unauthenticated', async () => {
    const forged = await createIdTokenSigner('otra-clave-distinta-de-32-caracteres!!', 3600).sign({ uid: 'x', email: 'x@x.mx' });
    expect((await call(server.app, 'GET', '/api/customer', { token: forged })).body.code).toBe('auth/invalid-id-token');
    const anonymous = await call(server.app, 'GET', '/api/customer');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthenticated');
  });
});

describe('refresh tokens', () => {
  it('rotate: the new one works, the used one is revoked', async () => {
    const tokens = await login(server.app, 'ilimitado@estudio.demo');
    const first = await call(server.app, 'POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(tokens.refreshToken);
    expect((await call(server.app, 'GET', '/api/customer', { token: first.body.idToken })).status).toBe(200);

    const second = await call(server.app, 'POST', '/api/auth/refresh', { body: { refreshToken: first.body.refreshToken } });
    expect(second.status).toBe(200);

    // Its successor used, the first token is refused (a lost answer is replayed only until then: security.test.ts).
    const reused = await call(server.app, 'POST', '/api/auth/refresh', { body: { refreshToken: tokens.refreshToken } });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('auth/invalid-refresh-token');
  });

  it('signing out everywhere revokes every refresh token of the account', async () => {
    const a = await login(server.app, 'recepcion@estudio.demo');
    const b = await login(server.app, 'recepcion@estudio.demo');
    const out = await call(server.app, 'POST', '/api/auth/logout', { token: a.idToken });
    expect(out).toMatchObject({ status: 200, body: { ok: true } });
    for (const t of [a, b]) {
      const res = await call(server.app, 'POST', '/api/auth/refresh', { body: { refreshToken: t.refreshToken } });
      expect(res.body.code).toBe('auth/invalid-refresh-token');
    }
    const [row] = await server.db.select({ n: count() }).from(refresh_token).where(eq(refresh_token.uid, a.localId));
    expect(row?.n).toBeGreaterThanOrEqual(2);
  });
});

describe('password recovery and change', () => {
  it('recover always answers ok and mails a reset link through the outbox when the account exists', async () => {
    const before = await server.db.select({ n: count() }).from(outbox_message);
    const unknown = await call(server.app, 'POST', '/api/auth/recover', { body: { email: 'nadie@estudio.demo' } });
    expect(unknown).toMatchObject({ status: 200, body: { ok: true } });
    const afterUnknown = await server.db.select({ n: count() }).from(outbox_message);
    expect(afterUnknown[0]?.n).toBe(before[0]?.n);

    const res = await call(server.app, 'POST', '/api/auth/recover', { body: { email: 'nuevo@estudio.demo' } });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    const [mail] = await server.db.select().from(outbox_message).where(eq(outbox_message.recipient, 'nuevo@estudio.demo'));
    expect(mail).toMatchObject({ channel: 'email', status: 'pending' });
    expect(mail?.body).toContain('http://estudio.test/recuperar?token=');

    // The mailed code sets a new password once, and ends the old sessions.
    const oldSession = await login(server.app, 'nuevo@estudio.demo');
    const token = decodeURIComponent(/token=([^\s]+)/.exec(mail?.body ?? '')?.[1] ?? '');
    const reset = await call(server.app, 'POST', '/api/auth/reset', { body: { token, password: 'Nueva1234!' } });
    expect(reset).toMatchObject({ status: 200, body: { ok: true } });
    const twice = await call(server.app, 'POST', '/api/auth/reset', { body: { token, password: 'Otra1234!' } });
    expect(twice.body.code).toBe('auth/invalid-action-code');
    expect((await call(server.app, 'POST', '/api/auth/refresh', { body: { refreshToken: oldSession.refreshToken } })).status).toBe(401);
    await login(server.app, 'nuevo@estudio.demo', 'Nueva1234!');
  });

  it('a signed-in user changes the password; mismatched confirmation names the field', async () => {
    const signup = await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'cambio@correo.mx', password: 'Primera1' } });
    const token = signup.body.idToken as string;
    const mismatch = await call(server.app, 'PUT', '/api/auth/password', { token, body: { current_password: 'Primera1', password: 'Segunda2', password_confirm: 'Segunda3' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ code: 'validation', field: 'password_confirm', message: 'Revisa el campo password_confirm: Las contraseñas no coinciden' });

    const changed = await call(server.app, 'PUT', '/api/auth/password', { token, body: { current_password: 'Primera1', password: 'Segunda2', password_confirm: 'Segunda2' } });
    expect(changed.status).toBe(200);
    expect(changed.body.idToken).toEqual(expect.any(String));
    await login(server.app, 'cambio@correo.mx', 'Segunda2');
    const old = await call(server.app, 'POST', '/api/auth/login', { body: { email: 'cambio@correo.mx', password: 'Primera1' } });
    expect(old.body.code).toBe('auth/wrong-password');
  });
});

describe('limits', () => {
  it('limits credential routes per address with a Spanish 429, on /api and /trpc', async () => {
    const limited = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '3' });
    const body = { email: 'cliente@estudio.demo', password: 'Incorrecta1' };
    for (let i = 0; i < 3; i++) expect((await call(limited, 'POST', '/api/auth/login', { body })).status).toBe(400);
    const blocked = await call(limited, 'POST', '/api/auth/login', { body });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ code: 'rate-limited', message: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.' });
    expect(blocked.headers['retry-after']).toBeDefined();

    const trpc = await call(limited, 'POST', '/trpc/auth.login', { body });
    expect(trpc.status).toBe(429);
    expect(trpc.body.error).toMatchObject({ message: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.', data: { domainCode: 'rate-limited' } });

    // Other routes are not limited.
    expect((await call(limited, 'GET', '/api/appconfig')).status).toBe(200);
  });

  it('locks an account after repeated wrong passwords, even for the right one', async () => {
    const strict = await server.withConfig({ LOGIN_FAILURE_MAX: '3' });
    const email = 'ilimitado@estudio.demo';
    for (let i = 0; i < 3; i++) {
      expect((await call(strict, 'POST', '/api/auth/login', { body: { email, password: 'Incorrecta1' } })).body.code).toBe('auth/wrong-password');
    }
    const locked = await call(strict, 'POST', '/api/auth/login', { body: { email, password: demoPassword } });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      code: 'auth/too-many-requests',
      message: 'Demasiados intentos de inicio de sesión. Espera unos minutos e inténtalo de nuevo.',
    });
  });
});

describe('ending sessions refuses the ID tokens issued before', () => {
  it('after signing out everywhere the old ID token is revoked on every server, and a new sign-in works', async () => {
    // Two server processes over one database: nothing about the session lives in either one's memory.
    const other = await server.withConfig({});
    const before = await login(other, 'recepcion@estudio.demo');
    expect((await call(server.app, 'GET', '/api/customer', { token: before.idToken })).status).toBe(200);

    await nextSecond();
    expect(await call(other, 'POST', '/api/auth/logout', { token: before.idToken })).toMatchObject({ status: 200, body: { ok: true } });

    const revoked = await call(server.app, 'GET', '/api/customer', { token: before.idToken });
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ code: 'auth/id-token-revoked', message: 'Tu sesión fue cerrada. Por favor, inicia sesión de nuevo.' });
    const overTrpc = await call(other, 'GET', '/trpc/customer.me', { token: before.idToken });
    expect(overTrpc.status).toBe(401);
    expect(overTrpc.body.error).toMatchObject({ data: { domainCode: 'auth/id-token-revoked' } });

    // Possibly within the same second as the sign-out: still valid, since its iat is not before it.
    const after = await login(other, 'recepcion@estudio.demo');
    const me = await call(server.app, 'GET', '/api/customer', { token: after.idToken });
    expect(me.status).toBe(200);
    expect(me.body.customer).toMatchObject({ email: 'recepcion@estudio.demo', role: 'staff' });
  });

  it('after a password change the returned tokens work and the old ones do not', async () => {
    const other = await server.withConfig({});
    const old = await login(other, 'admin@estudio.demo');
    await nextSecond();

    const changed = await call(other, 'PUT', '/api/auth/password', {
      token: old.idToken,
      body: { current_password: demoPassword, password: 'Nueva5678!', password_confirm: 'Nueva5678!' },
    });
    expect(changed.status).toBe(200);
    const fresh = changed.body as typeof old;

    const me = await call(server.app, 'GET', '/api/customer', { token: fresh.idToken });
    expect(me.status).toBe(200);
    expect(me.body.customer).toMatchObject({ email: 'admin@estudio.demo', role: 'admin' });
    expect((await call(other, 'POST', '/api/auth/refresh', { body: { refreshToken: fresh.refreshToken } })).status).toBe(200);

    expect((await call(server.app, 'GET', '/api/customer', { token: old.idToken })).body.code).toBe('auth/id-token-revoked');
    expect((await call(other, 'POST', '/api/auth/refresh', { body: { refreshToken: old.refreshToken } })).body.code).toBe('auth/invalid-refresh-token');
  });

  it('after a password reset the old ID token is revoked', async () => {
    const other = await server.withConfig({});
    const old = await login(other, 'cliente@estudio.demo');
    await nextSecond();
    expect((await call(other, 'POST', '/api/auth/recover', { body: { email: 'cliente@estudio.demo' } })).status).toBe(200);
    const [mail] = await server.db
      .select()
      .from(outbox_message)
      .where(and(eq(outbox_message.recipient, 'cliente@estudio.demo'), like(outbox_message.body, '%/recuperar?token=%')));
    const token = decodeURIComponent(/token=([^\s]+)/.exec(mail?.body ?? '')?.[1] ?? '');
    expect((await call(other, 'POST', '/api/auth/reset', { body: { token, password: 'Nueva5678!' } })).status).toBe(200);
    expect((await call(server.app, 'GET', '/api/customer', { token: old.idToken })).body.code).toBe('auth/id-token-revoked');
  });
});

describe('disabled accounts', () => {
  it('refuse the tokens already issued at once, and refuse to sign in', async () => {
    const body = { email: 'cuenta.suspendida@correo.mx', password: 'Secreta1' };
    const signedUp = await call(server.app, 'POST', '/api/auth/signup', { body });
    expect(signedUp.status).toBe(200);
    await server.db.update(auth_user).set({ disabledAt: new Date() }).where(eq(auth_user.email, body.email));

    const withOldToken = await call(server.app, 'GET', '/api/customer', { token: signedUp.body.idToken });
    expect(withOldToken.status).toBe(403);
    expect(withOldToken.body.code).toBe('auth/user-disabled');
    const signIn = await call(server.app, 'POST', '/api/auth/login', { body });
    expect(signIn.status).toBe(403);
    expect(signIn.body).toEqual({ code: 'auth/user-disabled', message: 'Esta cuenta ha sido desactivada. Comunícate con el estudio.' });
  });
});

describe('failed sign-ins are counted in the database', () => {
  it('two server processes share the count: the 11th failure from the second answers 429', async () => {
    const a = await server.withConfig({ LOGIN_FAILURE_MAX: '10' });
    const b = await server.withConfig({ LOGIN_FAILURE_MAX: '10' });
    const email = 'sofia.ramirez@correo.mx';
    expect((await call(a, 'POST', '/api/auth/signup', { body: { email, password: 'Correcta1' } })).status).toBe(200);

    // Five on each: neither process alone reaches ten.
    for (let i = 0; i < 10; i++) {
      const res = await call(i % 2 ? b : a, 'POST', '/api/auth/login', { body: { email, password: 'Incorrecta1' } });
      expect(res.body.code).toBe('auth/wrong-password');
    }
    const eleventh = await call(b, 'POST', '/api/auth/login', { body: { email, password: 'Incorrecta1' } });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({
      code: 'auth/too-many-requests',
      message: 'Demasiados intentos de inicio de sesión. Espera unos minutos e inténtalo de nuevo.',
    });
    expect((await call(a, 'POST', '/api/auth/login', { body: { email, password: 'Correcta1' } })).status).toBe(429);

    const rows = await failuresOf(email);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toMatchObject({ email, ip: '127.0.0.1' });
  });

  it('a successful sign-in clears the count', async () => {
    const a = await server.withConfig({ LOGIN_FAILURE_MAX: '3' });
    const b = await server.withConfig({ LOGIN_FAILURE_MAX: '3' });
    const email = 'diego.torres@correo.mx';
    expect((await call(a, 'POST', '/api/auth/signup', { body: { email, password: 'Correcta1' } })).status).toBe(200);

    const attempt = (app: typeof a, password: string) => call(app, 'POST', '/api/auth/login', { body: { email, password } });
    expect((await attempt(a, 'Incorrecta1')).body.code).toBe('auth/wrong-password');
    expect((await attempt(b, 'Incorrecta1')).body.code).toBe('auth/wrong-password');
    expect((await attempt(b, 'Correcta1')).status).toBe(200);
    expect(await failuresOf(email)).toHaveLength(0);

    // Two more would make four, past the limit of three, had the success not cleared them.
    expect((await attempt(a, 'Incorrecta1')).body.code).toBe('auth/wrong-password');
    expect((await attempt(b, 'Incorrecta1')).body.code).toBe('auth/wrong-password');
    expect((await attempt(a, 'Correcta1')).status).toBe(200);
  });

  it('failures older than the window do not count, and the next failure deletes them', async () => {
    const strict = await server.withConfig({ LOGIN_FAILURE_MAX: '3' });
    const email = 'elena.cruz@correo.mx';
    expect((await call(strict, 'POST', '/api/auth/signup', { body: { email, password: 'Correcta1' } })).status).toBe(200);
    const anHourAgo = new Date(Date.now() - 60 * 60_000);
    await server.db.insert(auth_login_failure).values([1, 2, 3].map(() => ({ email, createdAt: anHourAgo })));

    const res = await call(strict, 'POST', '/api/auth/login', { body: { email, password: 'Incorrecta1' } });
    expect(res.body.code).toBe('auth/wrong-password');
    const rows = await failuresOf(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.createdAt.getTime()).toBeGreaterThan(anHourAgo.getTime());
  });
});
