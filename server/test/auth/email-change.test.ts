import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customer } from '@estudio/db/schema/customer';
import { auth_user, email_change } from '@estudio/db/schema/identity';
import { outbox_message } from '@estudio/db/schema/outbox';
import { DomainError } from '@estudio/core';
import { createFirebaseProvider } from '../../src/services/auth/firebase-provider.ts';
import { call, login, testConfig, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
demoStudio([], (s) => ({ server } = s));

const password = 'Secreta1';
let phoneSeq = 0;

/** A fresh identity with its customer, as the portal's sign-up makes it. */
async function newAccount(email: string): Promise<string> {
  const signedUp = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password } });
  expect(signedUp.status).toBe(200);
  const pages = await call(server.app, 'GET', '/api/pages');
  const required = (pages.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
  phoneSeq += 1;
  const res = await call(server.app, 'POST', '/api/customer/signup', {
    token: signedUp.body.idToken,
    body: { name: 'Lucía', last_name: 'Méndez', phone: `55900000${String(phoneSeq).padStart(2, '0')}`, email, accepted_page_ids: required },
  });
  expect(res.status).toBe(200);
  return signedUp.body.idToken as string;
}

async function mailTo(recipient: string) {
  return server.db
    .select()
    .from(outbox_message)
    .where(and(eq(outbox_message.recipient, recipient), like(outbox_message.body, '%/confirmar-correo?token=%')));
}

function tokenOf(body: string | undefined): string {
  return decodeURIComponent(/confirmar-correo\?token=([^\s]+)/.exec(body ?? '')?.[1] ?? '');
}

async function nextSecond() {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
}

describe('requesting an e-mail change', () => {
  it('refuses a wrong current password, writing nothing', async () => {
    const token = await newAccount('cambio.clave@correo.mx');
    const res = await call(server.app, 'POST', '/api/auth/email', { token, body: { email: 'otro.destino@correo.mx', password: 'Equivocada1' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'auth/wrong-password', message: 'La contraseña es incorrecta. Por favor, intenta de nuevo' });
    expect(await mailTo('otro.destino@correo.mx')).toHaveLength(0);
  });

  it('a wrong password counts as a failed sign-in: a stolen session cannot guess the password here past the lockout', async () => {
    const strict = await server.withConfig({ LOGIN_FAILURE_MAX: '3' });
    const email = 'correo.robado@correo.mx';
    const token = await newAccount(email);
    for (let i = 0; i < 3; i++) {
      const guess = await call(strict, 'POST', '/api/auth/email', { token, body: { email: 'del.ladron@correo.mx', password: `Intento${i}x` } });
      expect(guess.body.code).toBe('auth/wrong-password');
    }
    const locked = await call(strict, 'POST', '/api/auth/email', { token, body: { email: 'del.ladron@correo.mx', password } });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('auth/too-many-requests');
    expect(await mailTo('del.ladron@correo.mx')).toHaveLength(0);
    expect((await call(strict, 'POST', '/api/auth/login', { body: { email, password } })).status).toBe(429);
  });

  it('refuses an e-mail another identity or customer already uses, and its own', async () => {
    const token = await newAccount('cambio.ocupado@correo.mx');
    for (const email of ['cliente@estudio.demo', 'cambio.ocupado@correo.mx']) {
      const res = await call(server.app, 'POST', '/api/auth/email', { token, body: { email, password } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('auth/email-already-in-use');
    }
  });

  it('needs a signed-in caller', async () => {
    const res = await call(server.app, 'POST', '/api/auth/email', { body: { email: 'sin.sesion@correo.mx', password } });
    expect(res.status).toBe(401);
  });

  it('mails a confirmation link to the new address and changes nothing yet', async () => {
    const token = await newAccount('cambio.correo@correo.mx');
    const res = await call(server.app, 'POST', '/api/auth/email', { token, body: { email: '  Nuevo.Destino@Correo.MX ', password } });
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
    const mails = await mailTo('nuevo.destino@correo.mx');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ channel: 'email', status: 'pending' });
    expect(mails[0]?.body).toContain('http://estudio.test/confirmar-correo?token=');
    const [pending] = await server.db.select().from(email_change).where(eq(email_change.new_email, 'nuevo.destino@correo.mx'));
    expect(pending?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(pending?.token_hash).not.toBe(tokenOf(mails[0]?.body));
    expect((await call(server.app, 'GET', '/api/customer', { token })).body.customer.email).toBe('cambio.correo@correo.mx');
  });
});

describe('confirming an e-mail change', () => {
  it('moves the sign-in and the customer to the new e-mail once, ending the old sessions', async () => {
    const token = await newAccount('antes@correo.mx');
    expect((await call(server.app, 'POST', '/api/auth/email', { token, body: { email: 'despues@correo.mx', password } })).status).toBe(200);
    const code = tokenOf((await mailTo('despues@correo.mx'))[0]?.body);
    await nextSecond();

    const confirmed = await call(server.app, 'POST', '/api/auth/email/confirm', { body: { token: code } });
    expect(confirmed).toMatchObject({ status: 200, body: { ok: true, email: 'despues@correo.mx' } });

    expect((await call(server.app, 'GET', '/api/customer', { token })).body.code).toBe('auth/id-token-revoked');
    const old = await call(server.app, 'POST', '/api/auth/login', { body: { email: 'antes@correo.mx', password } });
    expect(old.body.code).toBe('auth/user-not-found');
    const fresh = await login(server.app, 'despues@correo.mx', password);
    expect(fresh.email).toBe('despues@correo.mx');
    const me = await call(server.app, 'GET', '/api/customer', { token: fresh.idToken });
    expect(me.status).toBe(200);
    expect(me.body.customer.email).toBe('despues@correo.mx');

    const again = await call(server.app, 'POST', '/api/auth/email/confirm', { body: { token: code } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('auth/invalid-action-code');
  });

  it('refuses an unknown or expired code', async () => {
    const unknown = await call(server.app, 'POST', '/api/auth/email/confirm', { body: { token: 'no-es-un-codigo' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('auth/invalid-action-code');

    const token = await newAccount('vencido@correo.mx');
    expect((await call(server.app, 'POST', '/api/auth/email', { token, body: { email: 'vencido.nuevo@correo.mx', password } })).status).toBe(200);
    const code = tokenOf((await mailTo('vencido.nuevo@correo.mx'))[0]?.body);
    await server.db.update(email_change).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(email_change.new_email, 'vencido.nuevo@correo.mx'));
    const expired = await call(server.app, 'POST', '/api/auth/email/confirm', { body: { token: code } });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('auth/invalid-action-code');
    const [user] = await server.db.select({ email: auth_user.email }).from(auth_user).where(eq(auth_user.email, 'vencido@correo.mx'));
    expect(user?.email).toBe('vencido@correo.mx');
  });

  it('refuses an e-mail taken between request and confirmation, changing nothing', async () => {
    const token = await newAccount('carrera@correo.mx');
    expect((await call(server.app, 'POST', '/api/auth/email', { token, body: { email: 'disputado@correo.mx', password } })).status).toBe(200);
    const code = tokenOf((await mailTo('disputado@correo.mx'))[0]?.body);
    expect((await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'disputado@correo.mx', password } })).status).toBe(200);

    const res = await call(server.app, 'POST', '/api/auth/email/confirm', { body: { token: code } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('auth/email-already-in-use');
    expect((await call(server.app, 'GET', '/api/customer', { token })).body.customer.email).toBe('carrera@correo.mx');
    const [row] = await server.db.select({ email: customer.email }).from(customer).where(eq(customer.email, 'carrera@correo.mx'));
    expect(row?.email).toBe('carrera@correo.mx');
    const [pending] = await server.db.select().from(email_change).where(eq(email_change.new_email, 'disputado@correo.mx'));
    expect(pending?.usedAt).toBeNull();
  });
});

describe('under Firebase', () => {
  it('answers auth/operation-not-allowed: the browser asks Firebase directly', async () => {
    const firebase = { AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: 'demo-estudio-correo' };
    const other = await server.withConfig(firebase);
    const res = await call(other, 'POST', '/api/auth/email/confirm', { body: { token: 'cualquiera' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('auth/operation-not-allowed');
    const provider = createFirebaseProvider(testConfig(firebase));
    await expect(provider.requestEmailChange(server.db, 'uid', { email: 'x@correo.mx', password })).rejects.toThrow(DomainError);
  });
});
