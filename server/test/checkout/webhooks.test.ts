import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { class_package } from '@estudio/db/schema/packages';
import { processed_webhook_event } from '@estudio/db/schema/payments';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { deliver, stripeEnv, stripeEvent } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

let fake: StripeFake;
let server: TestServer;
let nuevo: string;
const pkg: Record<string, number> = {};

beforeAll(async () => {
  fake = await startStripeFake();
  server = await startTestServer(stripeEnv(fake));
  nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function pendingPurchase(title: string) {
  const res = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg[title], payment_method: 1 } });
  expect(res.status).toBe(200);
  const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
  return row!;
}

const creditsOf = (purchaseId: number) => server.db.select().from(available_classes).where(eq(available_classes.purchase_id, purchaseId));

describe('POST /api/webhooks/stripe', () => {
  it('the same event delivered twice (and at once) grants credits once', async () => {
    const p = await pendingPurchase('5 Clases');
    const intent = { ...fake.objects.get(p.provider_payment_id!)!, status: 'succeeded' };
    const event = stripeEvent('payment_intent.succeeded', intent);
    const [a, b] = await Promise.all([deliver(server.app, event), deliver(server.app, event)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const third = await deliver(server.app, event);
    expect(third.body).toEqual({ received: true, duplicate: true });
    // A different event for the same payment is a new event but still grants nothing more.
    await deliver(server.app, stripeEvent('payment_intent.succeeded', intent));
    expect((await creditsOf(p.purchase_id)).map((c) => c.available_classes)).toEqual([5]);
    expect(await server.db.select().from(invoice).where(eq(invoice.purchase_id, p.purchase_id))).toHaveLength(1);
    expect(await server.db.select().from(processed_webhook_event).where(eq(processed_webhook_event.event_id, event.id))).toHaveLength(1);
  });

  it('a bad signature answers 400 and changes nothing', async () => {
    const p = await pendingPurchase('1 Clase');
    const event = stripeEvent('payment_intent.succeeded', { ...fake.objects.get(p.provider_payment_id!)!, status: 'succeeded' });
    const res = await deliver(server.app, event, { secret: 'whsec_otro' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'webhook/invalid-signature', message: 'La firma del webhook no es válida.' });
    const missing = await server.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: JSON.stringify(event), headers: { 'content-type': 'application/json' } });
    expect(missing.statusCode).toBe(400);
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, p.purchase_id));
    expect(row?.status).toBe('pending');
    expect(await creditsOf(p.purchase_id)).toEqual([]);
    expect(await server.db.select().from(processed_webhook_event).where(eq(processed_webhook_event.event_id, event.id))).toEqual([]);
  });

  it('a card order the customer cancelled before paying, then paid by a late signed event: stays cancelled, grants nothing, and the charge goes back', async () => {
    const p = await pendingPurchase('5 Clases');
    const cancelled = await call(server.app, 'POST', `/api/purchases/cancel/${p.purchase_id}`, { token: nuevo, body: { reason: 'Me equivoqué de paquete' } });
    expect(cancelled.status, cancelled.raw).toBe(200);
    const intent = { ...fake.objects.get(p.provider_payment_id!)!, status: 'succeeded' };
    fake.objects.set(p.provider_payment_id!, intent);
    const res = await deliver(server.app, stripeEvent('payment_intent.succeeded', intent));
    expect(res.status).toBe(200);
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, p.purchase_id));
    expect(row).toMatchObject({ status: 'cancelled', paidAt: null });
    expect(await creditsOf(p.purchase_id)).toEqual([]);
    expect(await server.db.select().from(invoice).where(eq(invoice.purchase_id, p.purchase_id))).toEqual([]);
    const refunds = fake.requests.filter((r) => r.path === '/v1/refunds' && r.form.payment_intent === p.provider_payment_id);
    expect(refunds).toHaveLength(1);
  });

  it('a failed payment fails the purchase and gives back its unit', async () => {
    const p = await pendingPurchase('1 Clase');
    await deliver(server.app, stripeEvent('payment_intent.payment_failed', { ...fake.objects.get(p.provider_payment_id!)!, status: 'requires_payment_method' }));
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, p.purchase_id));
    expect(row?.status).toBe('failed');
  });

  it('other JSON routes of /api still parse JSON', async () => {
    const res = await call(server.app, 'POST', '/api/auth/login', { body: { email: 'nuevo@estudio.demo', password: 'Demo1234!' } });
    expect(res.status).toBe(200);
  });

  it('without Stripe configured the webhook route is not there', async () => {
    const other = await server.withConfig({ STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' });
    const res = await other.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: '{}', headers: { 'content-type': 'application/json', 'stripe-signature': 'x' } });
    expect(res.statusCode).toBe(404);
  });
});
