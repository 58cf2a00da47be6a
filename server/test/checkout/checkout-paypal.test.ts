import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { enablePayPalCheckout, startPayPalFake, type PayPalFake } from '../support/paypal-fake.ts';

/** PayPal REST on a loopback fake: token, orders (create, capture) and subscriptions (read, cancel). */
let fake: PayPalFake;
let server: TestServer;
let nuevo: string;
const pkg: Record<string, number> = {};

beforeAll(async () => {
  fake = await startPayPalFake();
  server = await startTestServer(fake.env);
  nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
  await enablePayPalCheckout(server, pkg);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('PayPal', () => {
  it('is offered once enabled', async () => {
    const res = await call(server.app, 'GET', '/api/payment_methods');
    expect(res.body.payment_methods.map((m: { name: string }) => m.name)).toContain('PayPal');
  });

  it('one-off: creates an order with the server price, capture grants the purchase once', async () => {
    fake.calls.length = 0;
    const res = await call(server.app, 'POST', '/api/checkout/paypal', { token: nuevo, body: { class_package_id: pkg['10 Clases'], discountCode: 'VERANO200' } });
    expect(res.status).toBe(200);
    expect(res.body.orderID).toBe('ORDER1');
    const create = fake.calls.find((c) => c.path === '/v2/checkout/orders');
    expect(create?.requestId).toBe(`purchase-${res.body.purchase_id}-order`);
    expect(create?.body).toMatchObject({ intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'MXN', value: '1150.00' } }] });
    expect(fake.calls[0]?.auth).toBe(`Basic ${Buffer.from('cliente-paypal:secreto-paypal').toString('base64')}`);

    const early = await call(server.app, 'POST', '/api/checkout/capture', { token: nuevo, body: { orderID: 'ORDER1' } });
    expect(early.status).toBe(412);
    fake.orders.get('ORDER1')!.status = 'APPROVED';
    const captured = await call(server.app, 'POST', '/api/checkout/capture', { token: nuevo, body: { orderID: 'ORDER1' } });
    expect(captured.body).toEqual({ purchase_id: res.body.purchase_id });
    const again = await call(server.app, 'POST', '/api/checkout/capture', { token: nuevo, body: { purchase_id: res.body.purchase_id } });
    expect(again.body).toEqual({ purchase_id: res.body.purchase_id });
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
    expect(row).toMatchObject({ status: 'completed', provider: 'paypal', total_payment: '1150.00' });
    expect(await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, res.body.purchase_id))).toHaveLength(1);
  });

  it('subscription: answers the plan; capture checks the subscription is active on that plan', async () => {
    const res = await call(server.app, 'POST', '/api/checkout/paypal', { token: nuevo, body: { class_package_id: pkg['Online Mensual'] } });
    expect(res.body).toEqual({ purchase_id: expect.any(Number), plan_id: 'P-ONLINE' });
    fake.subscriptions.set('I-WRONG', { status: 'ACTIVE', plan_id: 'P-OTRO', custom_id: String(res.body.purchase_id) });
    expect((await call(server.app, 'POST', '/api/checkout/capture', { token: nuevo, body: { purchase_id: res.body.purchase_id, subscriptionID: 'I-WRONG' } })).status).toBe(412);
    fake.subscriptions.set('I-OK', { status: 'ACTIVE', plan_id: 'P-ONLINE', custom_id: String(res.body.purchase_id) });
    const ok = await call(server.app, 'POST', '/api/checkout/capture', { token: nuevo, body: { purchase_id: res.body.purchase_id, subscriptionID: 'I-OK' } });
    expect(ok.status).toBe(200);
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
    expect(row).toMatchObject({ status: 'active', subscription_id: 'I-OK' });
    const cancel = await call(server.app, 'POST', `/api/purchases/cancel/${res.body.purchase_id}`, { token: nuevo, body: { reason: 'Prefiero tarjeta' } });
    expect(cancel.status).toBe(200);
    expect(fake.subscriptions.get('I-OK')?.status).toBe('CANCELLED');
  });
});
