import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { call, login, startTestServer, type TestServer } from './helpers.ts';

/** PayPal REST on a loopback fake: token, orders (create, capture) and subscriptions (read, cancel). */
interface PayPalCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  requestId: string | undefined;
  auth: string | undefined;
}
let calls: PayPalCall[] = [];
const orders = new Map<string, { status: string; custom_id: string }>();
const subscriptions = new Map<string, { status: string; plan_id: string; custom_id: string }>();

function startPayPalFake(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const body = text && req.headers['content-type']?.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : {};
      calls.push({ method: req.method ?? 'GET', path, body, requestId: req.headers['paypal-request-id'] as string | undefined, auth: req.headers.authorization });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (path === '/v1/oauth2/token') return send(200, { access_token: 'A21-token', expires_in: 3600 });
      if (req.headers.authorization !== 'Bearer A21-token') return send(401, { error: 'invalid_token' });
      if (req.method === 'POST' && path === '/v2/checkout/orders') {
        const id = `ORDER${orders.size + 1}`;
        const unit = (body.purchase_units as { custom_id: string }[])[0]!;
        orders.set(id, { status: 'CREATED', custom_id: unit.custom_id });
        return send(201, { id, status: 'CREATED' });
      }
      const capture = /^\/v2\/checkout\/orders\/(\w+)\/capture$/.exec(path);
      if (req.method === 'POST' && capture?.[1]) {
        const order = orders.get(capture[1]);
        if (!order || order.status !== 'APPROVED') return send(422, { name: 'UNPROCESSABLE_ENTITY' });
        order.status = 'COMPLETED';
        return send(201, { id: capture[1], status: 'COMPLETED', purchase_units: [{ payments: { captures: [{ custom_id: order.custom_id }] } }] });
      }
      const sub = /^\/v1\/billing\/subscriptions\/([\w-]+)(\/cancel)?$/.exec(path);
      if (sub?.[1]) {
        const s = subscriptions.get(sub[1]);
        if (!s) return send(404, { name: 'RESOURCE_NOT_FOUND' });
        if (sub[2]) {
          s.status = 'CANCELLED';
          res.writeHead(204);
          return res.end();
        }
        return send(200, { id: sub[1], ...s });
      }
      return send(404, { name: 'NOT_FOUND' });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

let fake: { server: Server; base: string };
let server: TestServer;
let nuevo: string;
const pkg: Record<string, number> = {};

beforeAll(async () => {
  fake = await startPayPalFake();
  server = await startTestServer({ PAYPAL_CLIENT_ID: 'cliente-paypal', PAYPAL_SECRET: 'secreto-paypal', PAYPAL_API_BASE: fake.base });
  nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
  await server.db.insert(app_config).values({ key: 'paypal_enabled', value: 'true' }).onConflictDoUpdate({ target: app_config.key, set: { value: 'true' } });
  await server.db.update(payment_method).set({ available: true }).where(eq(payment_method.provider, 'paypal'));
  await server.db.update(class_package).set({ paypal_plan_id: 'P-ONLINE' }).where(eq(class_package.class_package_id, pkg['Online Mensual']!));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => fake?.server.close(resolve));
});

describe('PayPal', () => {
  it('is offered once enabled', async () => {
    const res = await call(server.app, 'GET', '/api/payment_methods');
    expect(res.body.payment_methods.map((m: { name: string }) => m.name)).toContain('PayPal');
  });

  it('one-off: creates an order with the server price, capture grants the purchase once', async () => {
    calls = [];
    const res = await call(server.app, 'POST', '/api/checkout/paypal', { token: nuevo, body: { class_package_id: pkg['10 Clases'], discountCode: 'VERANO200' } });
    expect(res.status).toBe(200);
    expect(res.body.orderID).toBe('ORDER1');
    const create = calls.find((c) => c.path === '/v2/checkout/orders');
    expect(create?.requestId).toBe(`purchase-${res.body.purchase_id}-order`);
    expect(create?.body).toMatchObject({ intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'MXN', value: '1150.00' } }] });
    expect(calls[0]?.auth).toBe(`Basic ${Buffer.from('cliente-paypal:secreto-paypal').toString('base64')}`);

    const early = await call(server.app, 'POST', '/api/checkout/capture', { token: nuevo, body: { orderID: 'ORDER1' } });
    expect(early.status).toBe(412);
    orders.get('ORDER1')!.status = 'APPROVED';
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
    subscriptions.set('I-WRONG', { status: 'ACTIVE', plan_id: 'P-OTRO', custom_id: String(res.body.purchase_id) });
    expect((await call(server.app, 'POST', '/api/checkout/capture', { token: nuevo, body: { purchase_id: res.body.purchase_id, subscriptionID: 'I-WRONG' } })).status).toBe(412);
    subscriptions.set('I-OK', { status: 'ACTIVE', plan_id: 'P-ONLINE', custom_id: String(res.body.purchase_id) });
    const ok = await call(server.app, 'POST', '/api/checkout/capture', { token: nuevo, body: { purchase_id: res.body.purchase_id, subscriptionID: 'I-OK' } });
    expect(ok.status).toBe(200);
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
    expect(row).toMatchObject({ status: 'active', subscription_id: 'I-OK' });
    const cancel = await call(server.app, 'POST', `/api/purchases/cancel/${res.body.purchase_id}`, { token: nuevo, body: { reason: 'Prefiero tarjeta' } });
    expect(cancel.status).toBe(200);
    expect(subscriptions.get('I-OK')?.status).toBe('CANCELLED');
  });
});
