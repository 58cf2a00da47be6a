import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { customerId } from '../support/reservations-fixtures.ts';
import { deliver, stripeEnv, stripeEvent } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

/** The Stripe provider with the real stripe-node client against the loopback fake. */
let fake: StripeFake;
let server: TestServer;
let nuevo: string;
let nuevoId: number;
const pkg: Record<string, number> = {};

beforeAll(async () => {
  fake = await startStripeFake();
  server = await startTestServer(stripeEnv(fake));
  nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
  nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const purchaseRow = async (id: number) => (await server.db.select().from(purchase).where(eq(purchase.purchase_id, id)))[0]!;
const attempt = (body: Record<string, unknown>) => call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { payment_method: 1, ...body } });

describe('Stripe PaymentIntents', () => {
  it('payment methods say cards go to Stripe', async () => {
    expect((await call(server.app, 'GET', '/api/payment_methods')).body.card_provider).toBe('stripe');
  });

  it('creates a Customer once and a PaymentIntent with idempotency keys; the browser confirms, the webhook grants', async () => {
    const res = await attempt({ class_package_id: pkg['5 Clases'] });
    expect(res.status).toBe(200);
    expect(res.body.clientSecret).toMatch(/^pi_[0-9a-f]+_secret_/);
    const id = res.body.purchase_id as number;
    const row = await purchaseRow(id);
    expect(row).toMatchObject({ status: 'pending', provider: 'stripe', total_payment: '800.00' });
    const create = fake.requests.find((r) => r.path === '/v1/payment_intents' && r.method === 'POST');
    expect(create).toMatchObject({ idempotencyKey: `purchase-${id}-payment`, form: { amount: '80000', currency: 'mxn', 'metadata[purchase_id]': String(id) } });
    expect(fake.requests.find((r) => r.path === '/v1/customers')?.idempotencyKey).toBe(`customer-${nuevoId}`);
    const [c] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(c?.stripe_customer_id).toMatch(/^cus_/);

    const intent = fake.objects.get(row.provider_payment_id!)!;
    const event = stripeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded', amount_received: intent.amount });
    expect((await deliver(server.app, event)).status).toBe(200);
    expect((await purchaseRow(id)).status).toBe('completed');
    const granted = await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id));
    expect(granted.map((g) => g.available_classes)).toEqual([5]);

    const again = await attempt({ class_package_id: pkg['1 Clase'] });
    expect(again.status).toBe(200);
    expect(fake.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(1);
  });

  it('a token charged at once pays now; the decline of 9995 answers 402 insufficient_funds', async () => {
    const paid = await attempt({ class_package_id: pkg['1 Clase'], payment_method_token: 'pm_card_visa' });
    expect(paid.status).toBe(200);
    expect(paid.body.clientSecret).toBeUndefined();
    expect((await purchaseRow(paid.body.purchase_id)).status).toBe('completed');

    const declined = await attempt({ class_package_id: pkg['1 Clase'], payment_method_token: 'pm_card_visa_chargeDeclinedInsufficientFunds' });
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ code: 'payment/card-declined', decline_code: 'insufficient_funds' });
    const stolen = await attempt({ class_package_id: pkg['1 Clase'], payment_method_token: 'pm_card_chargeDeclinedStolenCard' });
    expect(stolen.body.message).toBe('Lo sentimos. Esta tarjeta ha sido reportada como robada o perdida y no puede utilizarse.');
  });

  it('a Stripe outage answers 502 with the catalogue text and fails the purchase (its unit is freed)', async () => {
    fake.failing.add('/v1/payment_intents');
    const res = await attempt({ class_package_id: pkg['1 Clase'] });
    fake.failing.clear();
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 'payment/provider-error', message: 'Hubo un error al procesar tu compra. Inténtalo más tarde.' });
    const [last] = await server.db.select().from(purchase).where(eq(purchase.customer_id, nuevoId)).orderBy(desc(purchase.purchase_id)).limit(1);
    expect(last?.status).toBe('failed');
  });

  it('checkout.confirm confirms the intent at Stripe', async () => {
    const res = await attempt({ class_package_id: pkg['1 Clase'] });
    const confirm = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: res.body.clientSecret, payment_method_token: 'pm_card_visa' } });
    expect(confirm.status).toBe(200);
    expect((await purchaseRow(res.body.purchase_id)).status).toBe('completed');
    expect(fake.requests.some((r) => r.path.endsWith('/confirm') && r.idempotencyKey?.startsWith(`purchase-${res.body.purchase_id}-confirm`))).toBe(true);
  });
  it('after the browser confirmed with Stripe, confirm without a token grants a succeeded intent (no webhook needed)', async () => {
    const res = await attempt({ class_package_id: pkg['1 Clase'] });
    const early = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: res.body.clientSecret } });
    expect(early.status).toBe(412);
    const row = await purchaseRow(res.body.purchase_id);
    const intent = fake.objects.get(row.provider_payment_id!)!;
    intent.status = 'succeeded';
    const ok = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: res.body.clientSecret } });
    expect(ok.body).toEqual({ purchase_id: res.body.purchase_id });
    expect((await purchaseRow(res.body.purchase_id)).status).toBe('completed');
  });
});

describe('Stripe: a charge for an attempt a cap refuses is given back', () => {
  const onePerCustomer = async () => {
    const [row] = await server.db
      .insert(class_package)
      .values({ title: `Uno por persona ${Date.now()}`, price: '400.00', class_amount: 1, expiration_days: 30, limit_per_customer: 1, is_special_event: true })
      .returning({ id: class_package.class_package_id });
    return row!.id;
  };

  it('an attempt superseded and then paid in the browser: the webhook does not grant it past the limit and refunds the charge', async () => {
    const id = await onePerCustomer();
    const first = await attempt({ class_package_id: id });
    const second = await attempt({ class_package_id: id });
    expect((await purchaseRow(first.body.purchase_id)).status).toBe('failed');
    // The second is paid; then the browser that still had the first card form open pays it too.
    const paidSecond = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: second.body.clientSecret, payment_method_token: 'pm_card_visa' } });
    expect(paidSecond.status).toBe(200);
    const firstRow = await purchaseRow(first.body.purchase_id);
    const intent = fake.objects.get(firstRow.provider_payment_id!)!;
    intent.status = 'succeeded';
    const event = stripeEvent('payment_intent.succeeded', { ...intent, amount_received: intent.amount });
    expect((await deliver(server.app, event)).status).toBe(200);
    expect((await purchaseRow(first.body.purchase_id)).status).toBe('failed');
    expect(await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, first.body.purchase_id))).toEqual([]);
    const refund = fake.requests.find((r) => r.path === '/v1/refunds' && r.form.payment_intent === intent.id);
    expect(refund?.idempotencyKey).toBe(`purchase-${first.body.purchase_id}-refund`);
    // Delivered again, nothing more happens (the event was recorded).
    expect((await deliver(server.app, event)).body.duplicate).toBe(true);
  });

  it('confirming a superseded attempt after the other was paid is refused before Stripe charges the card', async () => {
    const id = await onePerCustomer();
    const first = await attempt({ class_package_id: id });
    const second = await attempt({ class_package_id: id });
    expect((await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: second.body.clientSecret, payment_method_token: 'pm_card_visa' } })).status).toBe(200);
    const confirms = () => fake.requests.filter((r) => r.path.endsWith('/confirm')).length;
    const before = confirms();
    const refused = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: first.body.clientSecret, payment_method_token: 'pm_card_visa' } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Lo sentimos, ya has alcanzado el límite de compras de este paquete.');
    expect(confirms()).toBe(before);
  });
});

describe('Stripe subscriptions', () => {
  it('a recurring package creates a Price once and an incomplete Subscription; invoice.paid activates it and a renewal adds a period', async () => {
    const res = await attempt({ class_package_id: pkg['Ilimitado Mensual'] });
    expect(res.status).toBe(200);
    expect(res.body.clientSecret).toMatch(/^pi_/);
    const id = res.body.purchase_id as number;
    const row = await purchaseRow(id);
    expect(row.subscription_id).toMatch(/^sub_/);
    expect(fake.requests.find((r) => r.path === '/v1/subscriptions')?.idempotencyKey).toBe(`purchase-${id}-subscription`);
    const [p] = await server.db.select().from(class_package).where(eq(class_package.class_package_id, pkg['Ilimitado Mensual']!));
    expect(p?.stripe_price_id).toMatch(/^price_/);

    const subscription = { subscription_details: { subscription: row.subscription_id } };
    const first = stripeEvent('invoice.paid', { id: 'in_first_1', object: 'invoice', amount_paid: 199000, billing_reason: 'subscription_create', parent: subscription, lines: { data: [] } });
    expect((await deliver(server.app, first)).status).toBe(200);
    expect((await purchaseRow(id)).status).toBe('active');
    const [c] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(c?.has_unlimited).toBe(true);

    const start = Math.floor(Date.now() / 1000) + 30 * 86400;
    const renewal = stripeEvent('invoice.paid', {
      id: 'in_renewal_1',
      object: 'invoice',
      amount_paid: 199000,
      billing_reason: 'subscription_cycle',
      parent: subscription,
      lines: { data: [{ period: { start, end: start + 30 * 86400 } }] },
    });
    await deliver(server.app, renewal);
    await deliver(server.app, { ...renewal, id: `${renewal.id}_retry` });
    const invoices = await server.db.select().from(invoice).where(eq(invoice.purchase_id, id));
    expect(invoices.map((i) => i.provider_invoice_id).sort()).toEqual(['in_first_1', 'in_renewal_1']);
    expect(await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id))).toHaveLength(2);

    const failed = stripeEvent('invoice.payment_failed', { id: 'in_failed_1', object: 'invoice', amount_due: 199000, parent: subscription });
    await deliver(server.app, failed);
    expect((await server.db.select().from(invoice).where(eq(invoice.provider_invoice_id, 'in_failed_1')))[0]?.status).toBe('failed');

    const cancel = await call(server.app, 'POST', `/api/purchases/cancel/${id}`, { token: nuevo, body: { reason: 'Cambio de ciudad' } });
    expect(cancel.status).toBe(200);
    const update = fake.requests.find((r) => r.path === `/v1/subscriptions/${row.subscription_id}` && r.method === 'POST');
    expect(update?.form.cancel_at_period_end).toBe('true');

    await deliver(server.app, stripeEvent('customer.subscription.deleted', { id: row.subscription_id, object: 'subscription', status: 'canceled' }));
    const [after] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(after?.has_unlimited).toBe(false);
  });

  it('a free trial starts at once with trial_period_days and hands back the SetupIntent secret', async () => {
    const res = await attempt({ class_package_id: pkg['Online Mensual'], discountCode: 'PRIMERMES50' });
    expect(res.status).toBe(200);
    expect(res.body.clientSecret).toMatch(/^seti_/);
    const row = await purchaseRow(res.body.purchase_id);
    expect(row).toMatchObject({ status: 'active', total_payment: '0.00' });
    const create = fake.requests.filter((r) => r.path === '/v1/subscriptions').at(-1);
    expect(create?.form.trial_period_days).toBe('7');
    expect(create?.form['discounts[0][coupon]']).toMatch(/^coupon_/);
    expect(fake.requests.find((r) => r.path === '/v1/coupons')?.form).toMatchObject({ duration: 'once', percent_off: '50' });
  });
});

describe('Stripe Checkout Sessions and saved cards', () => {
  it("stripe_checkout_mode 'checkout' answers a session url; checkout.session.completed grants", async () => {
    await server.db.insert(app_config).values({ key: 'stripe_checkout_mode', value: 'checkout' }).onConflictDoUpdate({ target: app_config.key, set: { value: 'checkout' } });
    const res = await attempt({ class_package_id: pkg['10 Clases'] });
    expect(res.status).toBe(200);
    expect(res.body.session.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const mine = (await server.db.select().from(purchase).where(eq(purchase.customer_id, nuevoId))).find((p) => p.provider_session_id);
    expect(mine).toBeDefined();
    const session = fake.objects.get(mine!.provider_session_id!)!;
    await deliver(server.app, stripeEvent('checkout.session.completed', { ...session, payment_status: 'paid', amount_total: 135000, payment_intent: 'pi_from_session' }));
    expect((await purchaseRow(mine!.purchase_id)).status).toBe('completed');
    const sub = await attempt({ class_package_id: pkg['Ilimitado Mensual'], discountCode: 'VERANO200' });
    expect(sub.body.session.url).toBeDefined();
    const sessionCall = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
    expect(sessionCall?.form).toMatchObject({ mode: 'subscription', 'line_items[0][price_data][unit_amount]': '199000', 'discounts[0][coupon]': expect.stringMatching(/^coupon_/) });
    expect(fake.requests.filter((r) => r.path === '/v1/coupons').at(-1)?.form).toMatchObject({ duration: 'forever', amount_off: '20000', currency: 'mxn' });
    await server.db.update(app_config).set({ value: 'elements' }).where(eq(app_config.key, 'stripe_checkout_mode'));
  });

  it('saving a card attaches the PaymentMethod to the Customer and stores brand and last 4 only', async () => {
    const res = await call(server.app, 'POST', '/api/payment_sources', { token: nuevo, body: { payment_method_token: 'pm_card_mastercard', card_type: 'mastercard', last_digits: '4444' } });
    expect(res.status).toBe(200);
    expect(res.body.payment_source).toMatchObject({ provider: 'stripe', card_type: 'mastercard', last_digits: '4444' });
    expect(res.body.payment_source.source_id).toMatch(/^pm_/);
    const pay = await attempt({ class_package_id: pkg['1 Clase'], payment_source_id: res.body.payment_source.payment_source_id });
    expect(pay.status).toBe(200);
    expect((await purchaseRow(pay.body.purchase_id)).status).toBe('completed');
    const del = await call(server.app, 'DELETE', `/api/payment_sources/${res.body.payment_source.payment_source_id}`, { token: nuevo });
    expect(del.status).toBe(200);
    expect(fake.requests.some((r) => r.path.endsWith('/detach'))).toBe(true);
  });
});
