import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '@estudio/core';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';

/**
 * Decision 033: the owner reads every customer's purchases of a
 * period (the previous panel's /myadmin/orders) and the customers new, active
 * and cancelled in it ('Inscritos'), on the demo seed.
 */
describe("the admins' purchases of a period and the customers report", () => {
  let server: TestServer;
  let admin = '';
  let recepcion = '';
  let cliente = '';
  const today = localDate(new Date(), 'America/Mexico_City');
  const range = `start_date=${today}&end_date=${today}`;

  beforeAll(async () => {
    server = await startTestServer();
    admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    recepcion = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
  });
  afterAll(() => server.close());

  it('lists a gift given and then revoked today, newest first, and Mariana among the cancelled of the day', async () => {
    const first = await call(server.app, 'POST', '/api/customer/giveAccess', { token: admin, body: { customer_id: 1, class_package_id: 2, is_gift: true, reason: 'Cortesía de bienvenida' } });
    const second = await call(server.app, 'POST', '/api/customer/giveAccess', { token: admin, body: { customer_id: 1, class_package_id: 2, is_gift: true, reason: 'Clase cancelada por el estudio' } });
    expect([first.status, second.status]).toEqual([200, 200]);
    const revoked = await call(server.app, 'PUT', '/api/customer/revokeAccess', { token: admin, body: { purchase_id: first.body.purchase_id, reason: 'Regalo equivocado' } });
    expect(revoked.status).toBe(200);

    const res = await call(server.app, 'GET', `/api/purchases/admin/all?${range}&page=1`, { token: admin });
    expect(res.status).toBe(200);
    const ids = res.body.purchases.map((p: { purchase_id: number }) => p.purchase_id);
    expect(ids.indexOf(second.body.purchase_id)).toBeLessThan(ids.indexOf(first.body.purchase_id));
    expect(res.body.purchases.find((p: { purchase_id: number }) => p.purchase_id === first.body.purchase_id)).toMatchObject({
      customer_name: 'Mariana López',
      email: 'cliente@estudio.demo',
      status: 'revoked',
      payment_kind: 'gift',
    });
    expect(res.body).toMatchObject({ page: 1, total: ids.length });

    const report = await call(server.app, 'GET', `/api/reports/customers?${range}`, { token: admin });
    expect(report.status).toBe(200);
    expect(report.body.cancelados.map((c: { email: string }) => c.email)).toContain('cliente@estudio.demo');
    expect(report.body.activos.map((c: { email: string }) => c.email)).toContain('cliente@estudio.demo');
    // The seed's accounts were not created today... unless the seed ran today: new is whoever was created in the range.
    expect(report.body.nuevos.every((c: { createdAt: string }) => localDate(new Date(c.createdAt), 'America/Mexico_City') === today)).toBe(true);
  });

  it('is the admin\'s: reception and customers are refused, and a bad range is said in Spanish', async () => {
    for (const token of [recepcion, cliente]) {
      expect((await call(server.app, 'GET', `/api/purchases/admin/all?${range}`, { token })).status).toBe(403);
      expect((await call(server.app, 'GET', `/api/reports/customers?${range}`, { token })).status).toBe(403);
    }
    const bad = await call(server.app, 'GET', `/api/purchases/admin/all?start_date=${today}&end_date=2000-01-01`, { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('La fecha final debe ser posterior a la inicial.');
  });

  it("tells staff where the reset link went and never hands it over (the panel's 'Generar Link' copies the recovery page); with no e-mail set up, that it waits", async () => {
    const res = await call(server.app, 'POST', '/api/customer/resetPasswordLink', { token: admin, body: { email: 'Nuevo@Estudio.demo' } });
    expect(res.status).toBe(200);
    // This studio sends no e-mail: the panel is told the link waits, never that it went.
    expect(res.body).toEqual({
      // What the panel copies is the studio's recovery page with her e-mail filled in, where she asks for her own link.
      link: `${server.config.PUBLIC_URL}/recuperar?email=nuevo%40estudio.demo`,
      sent: false,
      message: 'El estudio no tiene configurado el envío de correos: el correo para reestablecer la contraseña quedó en espera en Mensajes y solo saldrá cuando se configure. Para que entre hoy, usa «Nueva contraseña en recepción».',
    });
    expect(JSON.stringify(res.body)).not.toContain('token');
    expect((await call(server.app, 'POST', '/api/customer/resetPasswordLink', { token: recepcion, body: { email: 'nuevo@estudio.demo' } })).status).toBe(403);
    const unknown = await call(server.app, 'POST', '/api/customer/resetPasswordLink', { token: admin, body: { email: 'nadie@correo.mx' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('customer/unknown');
  });
});
