import { describe, expect, it } from 'vitest';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
let admin: string;
let cliente: string;
demoStudio(['admin', 'cliente'], (s) => ({ server, tokens: { admin, cliente } } = s));

describe('payment methods as the studio admin keeps them', () => {
  it('creates, reads, hides from checkout and deletes a payment method', async () => {
    const created = await call(server.app, 'POST', '/api/payment_methods', {
      token: admin,
      body: { name: 'Transferencia SPEI', description: 'Paga por transferencia y envía tu comprobante.', provider: 'cash' },
    });
    expect(created.status).toBe(200);
    const id = created.body.payment_method.payment_method_id as number;
    expect(created.body.payment_method).toMatchObject({ name: 'Transferencia SPEI', provider: 'cash', available: true });

    const checkout = await call(server.app, 'GET', '/api/payment_methods');
    expect(checkout.body.payment_methods.map((m: { name: string }) => m.name)).toContain('Transferencia SPEI');

    const hidden = await call(server.app, 'PUT', '/api/payment_methods', { token: admin, body: { payment_method_id: id, available: false } });
    expect(hidden.body.payment_method.available).toBe(false);
    const afterHide = await call(server.app, 'GET', '/api/payment_methods');
    expect(afterHide.body.payment_methods.map((m: { name: string }) => m.name)).not.toContain('Transferencia SPEI');
    expect((await call(server.app, 'GET', `/api/payment_methods/${id}`, { token: admin })).body.payment_method.name).toBe('Transferencia SPEI');

    expect((await call(server.app, 'DELETE', `/api/payment_methods/${id}`, { token: admin })).body).toEqual({ ok: true });
    const gone = await call(server.app, 'GET', `/api/payment_methods/${id}`, { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 'payment-method/not-found', message: 'No encontramos esta forma de pago.' });
  });

  it('keeps a payment method that purchases were paid with', async () => {
    const res = await call(server.app, 'DELETE', '/api/payment_methods/1', { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('payment-method/in-use');
    expect((await call(server.app, 'GET', '/api/payment_methods/1', { token: admin })).status).toBe(200);
  });

  it('is for admins only, and checks what it is given', async () => {
    expect((await call(server.app, 'POST', '/api/payment_methods', { token: cliente, body: { name: 'X', provider: 'cash' } })).status).toBe(403);
    const bad = await call(server.app, 'POST', '/api/payment_methods', { token: admin, body: { name: '', provider: 'bitcoin' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Revisa el campo (name|provider): /);
  });
});
