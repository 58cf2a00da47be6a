import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { class_package } from '@estudio/db/schema/packages';
import { processed_webhook_event } from '@estudio/db/schema/payments';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { enablePayPalCheckout, startPayPalFake, type PayPalFake } from '../support/paypal-fake.ts';
import { deliver, stripeEnv, stripeEvent, webhookSecret } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

/**
 * Replayed and forged payment confirmations. The duplicate delivery of one
 * event is proven in webhooks.test.ts ('the same event delivered twice (and
 * at once) grants credits once'); here: signatures that are stale, dated
 * ahead, of another scheme or over another body; genuine events that do not
 * match the purchase they name; and the PayPal equivalents (an order or a
 * subscription that is not the purchase's, an amount that is not its total).
 */

const invalidSignature = { code: 'webhook/invalid-signature', message: 'La firma del webhook no es válida.' };

let fake: StripeFake;
let paypal: PayPalFake;
let server: TestServer;
let nuevo: string;
let cliente: string;
const pkg: Record<string, number> = {};
const signer = new Stripe('sk_test_estudio_fake');

beforeAll(async () => {
  fake = await startStripeFake();
  paypal = await startPayPalFake();
  server = await startTestServer({ ...stripeEnv(fake), ...paypal.env });
  nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
  cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
  await enablePayPalCheckout(server, pkg);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
  await paypal?.close();
});

const purchaseRow = async (id: number) => (await server.db.select().from(purchase).where(eq(purchase.purchase_id, id)))[0]!;
const creditsOf = (id: number) => server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id));
const invoicesOf = (id: number) => server.db.select().from(invoice).where(eq(invoice.purchase_id, id));

/** A card purchase left pending at Stripe (the browser has not confirmed yet), and its PaymentIntent in the fake. */
async function pendingPurchase(title: string) {
  const res = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg[title], payment_method: 1 } });
  expect(res.status).toBe(200);
  const row = await purchaseRow(res.body.purchase_id as number);
  return { row, intent: fake.objects.get(row.provider_payment_id!)! };
}

const succeeded = (intent: Record<string, unknown>, changes: Record<string, unknown> = {}) =>
  stripeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded', amount_received: intent.amount, ...changes });

/** Posts `payload` with a Stripe-Signature header as given. */
async function post(payload: string, signature: string | undefined) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload,
    headers: { 'content-type': 'application/json', ...(signature !== undefined ? { 'stripe-signature': signature } : {}) },
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

const header = (payload: string, opts: { secret?: string; timestamp?: number } = {}) =>
  signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? webhookSecret, ...(opts.timestamp ? { timestamp: opts.timestamp } : {}) });

/** The purchase is as the attempt left it: pending, no credits, no invoice, and the event was not recorded. */
async function expectUntouched(purchaseId: number, eventId: string) {
  expect((await purchaseRow(purchaseId)).status).toBe('pending');
  expect(await creditsOf(purchaseId)).toEqual([]);
  expect(await invoicesOf(purchaseId)).toEqual([]);
  expect(await server.db.select().from(processed_webhook_event).where(eq(processed_webhook_event.event_id, eventId))).toEqual([]);
}

describe('Stripe signatures that must be refused', () => {
  it('a correctly signed event replayed after the five-minute tolerance: 400, nothing changes; the same event freshly signed pays (control)', async () => {
    const { row, intent } = await pendingPurchase('1 Clase');
    const event = succeeded(intent);
    const payload = JSON.stringify(event);
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    expect(await post(payload, header(payload, { timestamp: tenMinutesAgo }))).toEqual({ status: 400, body: invalidSignature });
    await expectUntouched(row.purchase_id, event.id);

    expect((await post(payload, header(payload))).status).toBe(200);
    expect((await purchaseRow(row.purchase_id)).status).toBe('completed');
  });

  it('no header, a wrong secret, a body altered after signing, only a v0 signature, or a timestamp ahead of the tolerance: 400, nothing written', async () => {
    const { row, intent } = await pendingPurchase('5 Clases');
    const event = succeeded(intent);
    const payload = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const v0 = createHmac('sha256', webhookSecret).update(`${now}.${payload}`).digest('hex');
    const altered = JSON.stringify({ ...event, data: { object: { ...event.data.object, amount: 1, amount_received: 1 } } });
    const forgeries: [string, string, string | undefined][] = [
      ['no signature header', payload, undefined],
      ['an empty header', payload, ''],
      ['another secret', payload, header(payload, { secret: 'whsec_otro_secreto_de_prueba' })],
      ['the body altered after signing', altered, header(payload)],
      ['a v0 signature only (valid HMAC, old scheme)', payload, `t=${now},v0=${v0}`],
      ['a v1 signature over the body without its timestamp', payload, `t=${now},v1=${createHmac('sha256', webhookSecret).update(payload).digest('hex')}`],
      ['a timestamp an hour ahead', payload, header(payload, { timestamp: now + 3600 })],
    ];
    for (const [what, body, signature] of forgeries) {
      expect(await post(body, signature), what).toEqual({ status: 400, body: invalidSignature });
      await expectUntouched(row.purchase_id, event.id);
    }
    // Control: the genuine delivery of the same bytes pays, once.
    expect((await post(payload, header(payload))).status).toBe(200);
    expect((await creditsOf(row.purchase_id)).map((c) => c.available_classes)).toEqual([5]);
  });
});

describe('genuine events that do not match the purchase', () => {
  it('a new event id for an intent already paid through checkout.confirm grants nothing more', async () => {
    const res = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['5 Clases'], payment_method: 1 } });
    const confirm = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: res.body.clientSecret, payment_method_token: 'pm_card_visa' } });
    expect(confirm.status).toBe(200);
    const row = await purchaseRow(res.body.purchase_id as number);
    expect(row.status).toBe('completed');
    const intent = fake.objects.get(row.provider_payment_id!)!;
    for (let i = 0; i < 2; i++) expect((await deliver(server.app, succeeded(intent))).body).toEqual({ received: true, duplicate: false });
    expect((await creditsOf(row.purchase_id)).map((c) => c.available_classes)).toEqual([5]);
    expect(await invoicesOf(row.purchase_id)).toHaveLength(1);
  });

  it('a charge for less than the purchase, or in another currency, does not pay it', async () => {
    const { row, intent } = await pendingPurchase('10 Clases');
    const cheap = succeeded(intent, { amount: 100, amount_received: 100 });
    expect((await deliver(server.app, cheap)).status).toBe(200);
    const dollars = succeeded(intent, { currency: 'usd' });
    expect((await deliver(server.app, dollars)).status).toBe(200);
    expect((await purchaseRow(row.purchase_id)).status).toBe('pending');
    expect(await creditsOf(row.purchase_id)).toEqual([]);
    expect(await invoicesOf(row.purchase_id)).toEqual([]);
  });

  it("another intent's event whose metadata names a dearer purchase pays only its own purchase", async () => {
    const dear = await pendingPurchase('10 Clases');
    const cheap = await pendingPurchase('1 Clase');
    // The cheap intent paid, its metadata pointing at the dear purchase (a mistaken integration, or metadata edited at Stripe).
    const event = succeeded(cheap.intent, { metadata: { purchase_id: String(dear.row.purchase_id) } });
    expect((await deliver(server.app, event)).status).toBe(200);
    expect((await purchaseRow(dear.row.purchase_id)).status).toBe('pending');
    expect(await creditsOf(dear.row.purchase_id)).toEqual([]);
    expect((await purchaseRow(cheap.row.purchase_id)).status).toBe('completed');

    // An unknown intent (another shop on the same Stripe account) with the dear purchase's id and amount: still waiting on its own intent.
    const foreign = succeeded({ ...dear.intent, id: 'pi_de_otra_tienda' }, { metadata: { purchase_id: String(dear.row.purchase_id) } });
    expect((await deliver(server.app, foreign)).status).toBe(200);
    expect((await purchaseRow(dear.row.purchase_id)).status).toBe('pending');
  });

  it('the metadata still settles a purchase whose intent id was never stored (the server stopped after creating it)', async () => {
    const { row, intent } = await pendingPurchase('1 Clase');
    await server.db.update(purchase).set({ provider_payment_id: null }).where(eq(purchase.purchase_id, row.purchase_id));
    expect((await deliver(server.app, succeeded(intent))).status).toBe(200);
    expect(await purchaseRow(row.purchase_id)).toMatchObject({ status: 'completed', provider_payment_id: intent.id });
  });

  it('a Checkout Session completed for less than the purchase does not pay it; for the full amount it does', async () => {
    await server.db.insert(app_config).values({ key: 'stripe_checkout_mode', value: 'checkout' }).onConflictDoUpdate({ target: app_config.key, set: { value: 'checkout' } });
    try {
      const res = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['10 Clases'], payment_method: 1 } });
      expect(res.body.session.url).toEqual(expect.any(String));
      const [row] = await server.db.select().from(purchase).where(eq(purchase.provider_session_id, lastSessionId()));
      const session = fake.objects.get(row!.provider_session_id!)!;
      const total = Math.round(Number(row!.total_payment) * 100);
      await deliver(server.app, stripeEvent('checkout.session.completed', { ...session, payment_status: 'paid', amount_total: 100, currency: 'mxn' }));
      expect((await purchaseRow(row!.purchase_id)).status).toBe('pending');
      await deliver(server.app, stripeEvent('checkout.session.completed', { ...session, payment_status: 'paid', amount_total: total, currency: 'mxn' }));
      expect((await purchaseRow(row!.purchase_id)).status).toBe('completed');
    } finally {
      await server.db.update(app_config).set({ value: 'elements' }).where(eq(app_config.key, 'stripe_checkout_mode'));
    }
  });
});

/** The id of the last Checkout Session the fake created. */
function lastSessionId(): string {
  return [...fake.objects.keys()].filter((k) => k.startsWith('cs_test')).at(-1) ?? '';
}

// ---------- PayPal ----------

describe('PayPal confirmations that are not the purchase’s', () => {
  const paypalOrder = async (token: string, title: string) => {
    const res = await call(server.app, 'POST', '/api/checkout/paypal', { token, body: { class_package_id: pkg[title] } });
    expect(res.status).toBe(200);
    return { purchaseId: res.body.purchase_id as number, orderID: res.body.orderID as string };
  };
  const capture = (token: string, body: Record<string, unknown>) => call(server.app, 'POST', '/api/checkout/capture', { token, body });

  it("capturing another customer's approved order pays neither purchase", async () => {
    const theirs = await paypalOrder(cliente, '10 Clases');
    const mine = await paypalOrder(nuevo, '1 Clase');
    paypal.orders.get(theirs.orderID)!.status = 'APPROVED';
    expect((await capture(nuevo, { orderID: theirs.orderID })).status).toBe(404);
    expect((await capture(nuevo, { purchase_id: mine.purchaseId, orderID: theirs.orderID })).status).toBe(404);
    expect(paypal.orders.get(theirs.orderID)!.status).toBe('APPROVED');
    expect((await purchaseRow(theirs.purchaseId)).status).toBe('pending');
    expect((await purchaseRow(mine.purchaseId)).status).toBe('pending');
    // Control: its owner captures it.
    expect((await capture(cliente, { orderID: theirs.orderID })).body).toEqual({ purchase_id: theirs.purchaseId });
  });

  it('a capture for another amount or currency than the purchase total grants nothing', async () => {
    for (const captured of [{ value: '1.00', currency_code: 'MXN' }, { value: '120.00', currency_code: 'USD' }]) {
      const order = await paypalOrder(nuevo, '1 Clase');
      Object.assign(paypal.orders.get(order.orderID)!, { status: 'APPROVED', captured });
      const res = await capture(nuevo, { orderID: order.orderID });
      expect(res.status, JSON.stringify(captured)).toBe(412);
      expect(res.body).toEqual({ code: 'payment/not-approved', message: 'El pago aún no ha sido aprobado. Inténtalo de nuevo.' });
      expect((await purchaseRow(order.purchaseId)).status).toBe('pending');
      expect(await creditsOf(order.purchaseId)).toEqual([]);
    }
  });

  it('one active subscription sent for a second purchase is refused (412, not a 500), and pays once', async () => {
    const subscribe = async () => {
      const res = await call(server.app, 'POST', '/api/checkout/paypal', { token: nuevo, body: { class_package_id: pkg['Online Mensual'] } });
      expect(res.status).toBe(200);
      return res.body.purchase_id as number;
    };
    const first = await subscribe();
    // The browser's PayPal button creates the subscription without our purchase id (custom_id absent).
    paypal.subscriptions.set('I-UNA-SOLA', { status: 'ACTIVE', plan_id: 'P-ONLINE' });
    expect((await capture(nuevo, { purchase_id: first, subscriptionID: 'I-UNA-SOLA' })).status).toBe(200);
    const second = await subscribe();
    const replay = await capture(nuevo, { purchase_id: second, subscriptionID: 'I-UNA-SOLA' });
    expect(replay).toMatchObject({ status: 412, body: { code: 'payment/not-approved' } });
    expect((await purchaseRow(second)).status).toBe('pending');
    expect(await invoicesOf(second)).toEqual([]);
    expect(await invoicesOf(first)).toHaveLength(1);
    // Another purchase's subscription (its custom_id names that purchase) is refused too.
    paypal.subscriptions.set('I-DE-OTRA', { status: 'ACTIVE', plan_id: 'P-ONLINE', custom_id: String(first) });
    expect((await capture(nuevo, { purchase_id: second, subscriptionID: 'I-DE-OTRA' })).status).toBe(412);
  });
});
