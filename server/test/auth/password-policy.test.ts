import { and, desc, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox_message } from '@estudio/db/schema/outbox';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Passwords: the server refuses common and short passwords
 * whatever the app config says, a password change needs the current password
 * (a wrong one counts towards the lockout), and a reset or a change spends
 * every other outstanding reset link. PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
let server: TestServer;
demoStudio([], (s) => ({ server } = s));

async function nextSecond() {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
}

async function signUp(email: string, password: string) {
  const res = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password } });
  expect(res.status, res.raw).toBe(200);
  return res.body as { idToken: string; refreshToken: string };
}

/** Asks for a reset link and reads the code from the mailed link (the newest mail to that address). */
async function resetLink(email: string): Promise<string> {
  expect((await call(server.app, 'POST', '/api/auth/recover', { body: { email } })).status).toBe(200);
  const [mail] = await server.db
    .select({ body: outbox_message.body })
    .from(outbox_message)
    .where(and(eq(outbox_message.recipient, email), like(outbox_message.body, '%/recuperar?token=%')))
    .orderBy(desc(outbox_message.outbox_message_id))
    .limit(1);
  return decodeURIComponent(/token=([^\s]+)/.exec(mail?.body ?? '')?.[1] ?? '');
}

describe('the password policy on the server', () => {
  it('refuses the most common passwords and anything under 8 characters, with the Spanish rule', async () => {
    for (const password of ['123456', '12345678', 'contraseña', 'qwerty123', 'Password']) {
      const res = await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'comun@correo.mx', password } });
      expect(res.status, password).toBe(400);
      expect(res.body.code).toBe('auth/weak-password');
    }
    const common = await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'comun@correo.mx', password: '123456789' } });
    expect(common.body.message).toBe('Esa contraseña es muy común y fácil de adivinar. Elige otra.');
    const short = await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'comun@correo.mx', password: 'Ab1!xyz' } });
    expect(short.body.message).toBe('La contraseña debe tener al menos 8 caracteres.');
  });
});

describe('changing the password', () => {
  it('asks for the current password: missing is a validation error, wrong is a Spanish 400 that changes nothing', async () => {
    const tokens = await signUp('cambio.actual@correo.mx', 'Primera1');
    const missing = await call(server.app, 'PUT', '/api/auth/password', { token: tokens.idToken, body: { password: 'Segunda2', password_confirm: 'Segunda2' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'validation', field: 'current_password' });

    const wrong = await call(server.app, 'PUT', '/api/auth/password', {
      token: tokens.idToken,
      body: { current_password: 'Adivinada1', password: 'Segunda2', password_confirm: 'Segunda2' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: 'auth/wrong-current-password', message: 'La contraseña actual no es correcta.' });
    await login(server.app, 'cambio.actual@correo.mx', 'Primera1');

    const right = await call(server.app, 'PUT', '/api/auth/password', {
      token: tokens.idToken,
      body: { current_password: 'Primera1', password: 'Segunda2', password_confirm: 'Segunda2' },
    });
    expect(right.status).toBe(200);
    await login(server.app, 'cambio.actual@correo.mx', 'Segunda2');
  });

  it('a wrong current password counts as a failed sign-in: a stolen session cannot guess past the lockout', async () => {
    const strict = await server.withConfig({ LOGIN_FAILURE_MAX: '3' });
    const email = 'sesion.robada@correo.mx';
    const tokens = await signUp(email, 'Original9');
    for (let i = 0; i < 3; i++) {
      const guess = await call(strict, 'PUT', '/api/auth/password', {
        token: tokens.idToken,
        body: { current_password: `Intento${i}x`, password: 'Robada123', password_confirm: 'Robada123' },
      });
      expect(guess.body.code).toBe('auth/wrong-current-password');
    }
    const locked = await call(strict, 'PUT', '/api/auth/password', {
      token: tokens.idToken,
      body: { current_password: 'Original9', password: 'Robada123', password_confirm: 'Robada123' },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('auth/too-many-requests');
    expect((await call(strict, 'POST', '/api/auth/login', { body: { email, password: 'Original9' } })).status).toBe(429);
  });

  it('ends every other session and keeps this device signed in with the tokens it answers', async () => {
    const email = 'otras.sesiones@correo.mx';
    const here = await signUp(email, 'Primera1');
    const laptop = await login(server.app, email, 'Primera1');
    await nextSecond();
    const changed = await call(server.app, 'PUT', '/api/auth/password', {
      token: here.idToken,
      body: { current_password: 'Primera1', password: 'Segunda2', password_confirm: 'Segunda2' },
    });
    expect(changed.status).toBe(200);
    expect((await call(server.app, 'POST', '/api/auth/refresh', { body: { refreshToken: laptop.refreshToken } })).body.code).toBe('auth/invalid-refresh-token');
    expect((await call(server.app, 'POST', '/api/auth/logout', { token: laptop.idToken })).body.code).toBe('auth/id-token-revoked');
    expect((await call(server.app, 'POST', '/api/auth/refresh', { body: { refreshToken: changed.body.refreshToken } })).status).toBe(200);
  });
});

describe('outstanding reset links', () => {
  it('one reset spends every other reset link of the account', async () => {
    const email = 'dos.enlaces@correo.mx';
    await signUp(email, 'Primera1');
    const first = await resetLink(email);
    const second = await resetLink(email);
    expect(first).not.toBe(second);
    expect((await call(server.app, 'POST', '/api/auth/reset', { body: { token: second, password: 'Nueva1234!' } })).status).toBe(200);
    const stale = await call(server.app, 'POST', '/api/auth/reset', { body: { token: first, password: 'Atacante99' } });
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe('auth/invalid-action-code');
    await login(server.app, email, 'Nueva1234!');
  });

  it('a password change spends the reset links sent before it', async () => {
    const email = 'cambio.con.enlace@correo.mx';
    const tokens = await signUp(email, 'Primera1');
    const link = await resetLink(email);
    const changed = await call(server.app, 'PUT', '/api/auth/password', {
      token: tokens.idToken,
      body: { current_password: 'Primera1', password: 'Segunda2', password_confirm: 'Segunda2' },
    });
    expect(changed.status).toBe(200);
    expect((await call(server.app, 'POST', '/api/auth/reset', { body: { token: link, password: 'Atacante99' } })).body.code).toBe('auth/invalid-action-code');
    await login(server.app, email, 'Segunda2');
  });
});
