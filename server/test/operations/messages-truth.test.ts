import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { texts } from '@estudio/core';
import { audit_log } from '@estudio/db/schema/audit';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * Messages tell the truth (decision 079), on both drivers: with no channel
 * configured nothing says a message was sent, and a customer who forgot her
 * password gets back in at the counter, where she types the new one herself
 * and staff never see a code that signs in as her.
 */
let server: TestServer;
demoStudio([], (s) => ({ server } = s));

describe('with no message channel', () => {
  it('the recovery answers that no e-mail can go, the same for an e-mail with and without an account', async () => {
    const known = await call(server.app, 'POST', '/api/auth/recover', { body: { email: 'cliente@estudio.demo' } });
    const unknown = await call(server.app, 'POST', '/api/auth/recover', { body: { email: 'nadie@ejemplo.mx' } });
    expect(known).toMatchObject({ status: 200, body: { ok: true, delivery: 'none' } });
    expect(unknown.body).toEqual(known.body);
    expect((await call(server.app, 'GET', '/api/messaging/channels')).body).toEqual({ email: false, whatsapp: false });
  });

  it("the owner's console is told the e-mail waits, not that it was sent", async () => {
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    const res = await call(server.app, 'POST', '/api/customer/recover', { token: admin, body: { email: 'cliente@estudio.demo' } });
    expect(res).toMatchObject({ status: 200, body: { message: texts.adminCommerce.recoverNotSent } });
  });

  it('with e-mail set up, the answers say it goes', async () => {
    const app = await server.withConfig({ SMTP_HOST: 'smtp.estudio.test' });
    expect((await call(app, 'POST', '/api/auth/recover', { body: { email: 'cliente@estudio.demo' } })).body).toEqual({ ok: true, delivery: 'email' });
    expect((await call(app, 'GET', '/api/messaging/channels')).body).toEqual({ email: true, whatsapp: false });
    const admin = (await login(app, 'admin@estudio.demo')).idToken;
    expect((await call(app, 'POST', '/api/customer/recover', { token: admin, body: { email: 'cliente@estudio.demo' } })).body).toEqual({ message: texts.adminCommerce.recoverSent });
  });
});

describe('a new password typed at the counter', () => {
  it('lets her sign in with it, ends her other sessions, and is audited without the password', async () => {
    const before = await login(server.app, 'nuevo@estudio.demo');
    const staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    const id = await customerId(server.db, 'nuevo@estudio.demo');
    const res = await call(server.app, 'POST', '/api/customer/password', { token: staff, body: { customer_id: id, password: 'Nueva-Clave-2025', password_confirm: 'Nueva-Clave-2025' } });
    expect(res).toMatchObject({ status: 200, body: { message: texts.adminCommerce.setPasswordDone('Diego Hernández') } });
    expect(JSON.stringify(res.body)).not.toMatch(/token|Nueva-Clave/);
    await login(server.app, 'nuevo@estudio.demo', 'Nueva-Clave-2025');
    expect((await call(server.app, 'POST', '/api/auth/refresh', { body: { refreshToken: before.refreshToken } })).status).toBe(401);
    const audited = await server.db.select().from(audit_log).where(and(eq(audit_log.action, 'password-at-desk'), eq(audit_log.entity_id, String(id))));
    expect(audited).toHaveLength(1);
    expect(JSON.stringify(audited[0]?.changes)).not.toContain('Nueva-Clave');
  });

  it("is refused for a colleague's account, to a customer, and for a password the studio does not allow", async () => {
    const staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    const admin = await customerId(server.db, 'admin@estudio.demo');
    const forColleague = await call(server.app, 'POST', '/api/customer/password', { token: staff, body: { customer_id: admin, password: 'Nueva-Clave-2025', password_confirm: 'Nueva-Clave-2025' } });
    expect(forColleague.status).toBe(403);
    const cliente = await login(server.app, 'cliente@estudio.demo');
    const id = await customerId(server.db, 'ilimitado@estudio.demo');
    const byCustomer = await call(server.app, 'POST', '/api/customer/password', { token: cliente.idToken, body: { customer_id: id, password: 'Nueva-Clave-2025', password_confirm: 'Nueva-Clave-2025' } });
    expect(byCustomer.status).toBe(403);
    const weak = await call(server.app, 'POST', '/api/customer/password', { token: staff, body: { customer_id: id, password: 'a', password_confirm: 'a' } });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/contraseña/i);
    const mismatch = await call(server.app, 'POST', '/api/customer/password', { token: staff, body: { customer_id: id, password: 'Nueva-Clave-2025', password_confirm: 'Otra-Clave-2025' } });
    expect(mismatch.status).toBe(400);
    // Her password is the one she had.
    await login(server.app, 'ilimitado@estudio.demo');
  });
});
