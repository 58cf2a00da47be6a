import { and, count, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { page } from '@estudio/db/schema/content';
import { customer } from '@estudio/db/schema/customer';
import { auth_user, password_reset } from '@estudio/db/schema/identity';
import { outbox_message } from '@estudio/db/schema/outbox';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * A customer the studio registered at the desk (POST /api/customer, no
 * identity) claims the row from the portal: sign-up or recovery mails the
 * link that creates the password; opening it binds the same customer row
 * (decision 017). Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
let server: TestServer;
let staffToken: string;
let adminToken: string;
// The studio can send e-mail (an SMTP server is set; nothing is delivered in these tests): the links are said to be sent.
demoStudio(['recepcion', 'admin'], (s) => ({ server, tokens: { recepcion: staffToken, admin: adminToken } } = s), { SMTP_HOST: '127.0.0.1', SMTP_PORT: '2525' });

async function registerAtDesk(n: string) {
  const required = (await server.db.select({ id: page.page_id }).from(page).where(eq(page.required, true))).map((p) => p.id);
  const res = await call(server.app, 'POST', '/api/customer', {
    token: staffToken,
    body: { name: 'Rocío', last_name: 'Luna', phone: `55 31${n.padStart(6, '0')}`, email: `Rocio.${n}@Mostrador.MX`, accepted_page_ids: required },
  });
  expect(res.status).toBe(200);
  const created = res.body.customer as { customer_id: number; email: string; uid: string | null };
  expect(created.uid).toBeNull();
  const credit = await call(server.app, 'POST', '/api/available_classes', { token: adminToken, body: { customer_id: created.customer_id, available_classes: 5, reason: 'Paquete pagado en el mostrador' } });
  expect(credit.status).toBe(200);
  return created;
}

async function mailsTo(email: string) {
  return server.db.select().from(outbox_message).where(eq(outbox_message.recipient, email)).orderBy(desc(outbox_message.outbox_message_id));
}

function linkToken(body: string): string {
  const match = /\/recuperar\?token=([^\s]+)/.exec(body);
  if (!match?.[1]) throw new Error(`no link in: ${body}`);
  return decodeURIComponent(match[1]);
}

describe('a customer registered at the desk claims the account from the portal', () => {
  it('sign-up mails the link that creates the password; the link binds the same customer with its credits, once', async () => {
    const desk = await registerAtDesk('1');
    const email = desk.email;

    const signUp = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Rocio-2026!' } });
    expect(signUp.status).toBe(409);
    expect(signUp.body).toEqual({
      code: 'auth/customer-claim-sent',
      message: 'El estudio ya te registró con este correo. Te enviamos un correo con un enlace para crear tu contraseña; ábrelo para entrar a tu cuenta.',
    });
    const [mail] = await mailsTo(email);
    expect(mail?.subject).toBe('Crea tu contraseña de Estudio Demo');
    expect(mail?.body).toContain('ya te registró con este correo');
    const token = linkToken(mail!.body);

    // Before the link is opened nothing is signed in: no password works, and the row is not bound.
    const early = await call(server.app, 'POST', '/api/auth/login', { body: { email, password: 'Rocio-2026!' } });
    expect(early.body.code).toBe('auth/user-not-found');
    expect((await server.db.select().from(customer).where(eq(customer.customer_id, desk.customer_id)))[0]?.uid).toBeNull();

    // The same password rules as a reset.
    expect((await call(server.app, 'POST', '/api/auth/reset', { body: { token, password: '123456' } })).status).toBe(400);
    const reset = await call(server.app, 'POST', '/api/auth/reset', { body: { token, password: 'Rocio-2026!' } });
    expect(reset.status).toBe(200);

    const [identity] = await server.db.select().from(auth_user).where(eq(auth_user.email, email));
    const [bound] = await server.db.select().from(customer).where(eq(customer.customer_id, desk.customer_id));
    expect(bound?.uid).toBe(identity?.uid);

    const tokens = await login(server.app, email, 'Rocio-2026!');
    const me = await call(server.app, 'GET', '/api/customer', { token: tokens.idToken });
    expect(me.status).toBe(200);
    expect(me.body.customer).toMatchObject({ customer_id: desk.customer_id, email, name: 'Rocío' });
    const credits = await call(server.app, 'GET', '/api/available_classes', { token: tokens.idToken });
    expect(credits.status).toBe(200);
    expect(JSON.stringify(credits.body)).toContain('"available_classes":5');

    // Spent: the link works once.
    const twice = await call(server.app, 'POST', '/api/auth/reset', { body: { token, password: 'Otra-2026!x' } });
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe('auth/invalid-action-code');

    // Now the account is an ordinary one: sign-up says it exists, recovery mails the reset text.
    const again = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Rocio-2026!' } });
    expect(again.body.code).toBe('auth/email-already-in-use');
    expect((await call(server.app, 'POST', '/api/auth/recover', { body: { email } })).status).toBe(200);
    expect((await mailsTo(email))[0]?.subject).toBe('Restablece tu contraseña de Estudio Demo');
  });

  it('while the studio cannot send e-mail, sign-up says so and sends her to the counter; the link waits in the outbox', async () => {
    const desk = await registerAtDesk('9');
    const noMail = await server.withConfig({ SMTP_HOST: '' });
    const res = await call(noMail, 'POST', '/api/auth/signup', { body: { email: desk.email, password: 'Rocio-2026!' } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 'auth/customer-claim-waiting',
      message: 'El estudio ya te registró con este correo, pero todavía no puede enviar correos. Pide en recepción que te ayuden a crear tu contraseña.',
    });
    const [mail] = await mailsTo(desk.email);
    expect(mail?.subject).toBe('Crea tu contraseña de Estudio Demo');
  });

  it('recovery answers as for any e-mail and mails the same link; an expired link is refused and binds nothing', async () => {
    const desk = await registerAtDesk('2');
    const unknown = await call(server.app, 'POST', '/api/auth/recover', { body: { email: 'nadie.nunca@estudio.demo' } });
    const res = await call(server.app, 'POST', '/api/auth/recover', { body: { email: desk.email } });
    expect(res.status).toBe(unknown.status);
    expect(res.body).toEqual(unknown.body);
    const [mail] = await mailsTo(desk.email);
    expect(mail?.subject).toBe('Crea tu contraseña de Estudio Demo');
    const token = linkToken(mail!.body);

    const [waiting] = await server.db.select().from(auth_user).where(eq(auth_user.email, desk.email));
    await server.db
      .update(password_reset)
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where(eq(password_reset.uid, waiting!.uid));
    const expired = await call(server.app, 'POST', '/api/auth/reset', { body: { token, password: 'Rocio-2026!' } });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('auth/invalid-action-code');
    expect((await server.db.select().from(customer).where(eq(customer.customer_id, desk.customer_id)))[0]?.uid).toBeNull();

    // Asking again (sign-up this time) mails a fresh link to the same waiting identity, which works.
    expect((await call(server.app, 'POST', '/api/auth/signup', { body: { email: desk.email, password: 'Rocio-2026!' } })).body.code).toBe('auth/customer-claim-sent');
    const fresh = linkToken((await mailsTo(desk.email))[0]!.body);
    expect((await call(server.app, 'POST', '/api/auth/reset', { body: { token: fresh, password: 'Rocio-2026!' } })).status).toBe(200);
    const [{ n }] = (await server.db.select({ n: count() }).from(auth_user).where(eq(auth_user.email, desk.email))) as [{ n: number }];
    expect(n).toBe(1);
    const tokens = await login(server.app, desk.email, 'Rocio-2026!');
    expect((await call(server.app, 'GET', '/api/customer', { token: tokens.idToken })).body.customer.customer_id).toBe(desk.customer_id);
  });

  it('an e-mail without a desk customer signs up as before, and a deleted desk customer is not claimed', async () => {
    const plain = await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'nueva.persona@estudio.demo', password: 'Nueva-2026!' } });
    expect(plain.status).toBe(200);
    const desk = await registerAtDesk('3');
    await server.db.update(customer).set({ deletedAt: new Date() }).where(and(eq(customer.customer_id, desk.customer_id)));
    const before = (await mailsTo(desk.email)).length;
    expect((await call(server.app, 'POST', '/api/auth/recover', { body: { email: desk.email } })).status).toBe(200);
    expect((await mailsTo(desk.email)).length).toBe(before);
  });
});
