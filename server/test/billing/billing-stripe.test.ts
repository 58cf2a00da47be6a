import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchase } from '@estudio/db/schema/purchases';
import { renewDueSubscriptions } from '../../src/services/billing/renewals.ts';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { dailySubscription, days, emailsOf, messagesOf, newCustomer, renewalDeps } from '../support/billing-fixtures.ts';
import { deliver, stripeEnv, stripeEvent } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

/**
 * With Stripe as the provider, Stripe renews and retries; its webhooks tell
 * the customer the same things the sandbox's dunning does (decision 024):
 * receipt, renewal, declined charge with the next attempt, cancellation.
 * Events go through the real signed webhook route.
 */
let fake: StripeFake;
let server: TestServer;
let pkgId: number;

beforeAll(async () => {
  fake = await startStripeFake();
  server = await startTestServer(stripeEnv(fake));
  pkgId = await dailySubscription(server.db, { subscription_period: 'month', price: '990.00', class_amount: -1 });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** A Stripe subscription checkout left waiting for its first invoice. */
async function pendingStripeSubscription(customerId: number) {
  const subscriptionId = `sub_billing_${randomBytes(4).toString('hex')}`;
  const [row] = await server.db
    .insert(purchase)
    .values({
      customer_id: customerId,
      class_package_id: pkgId,
      payment_method_id: 1,
      title: 'Ilimitado de prueba',
      amount: '990.00',
      total_payment: '990.00',
      class_amount: -1,
      status: 'pending',
      subscription_id: subscriptionId,
      subscription_interval: 1,
      subscription_period: 'month',
      provider: 'stripe',
    })
    .returning();
  return row!;
}

const parentOf = (subscriptionId: string) => ({ subscription_details: { subscription: subscriptionId } });

describe('Stripe webhooks tell the customer', () => {
  it('first invoice: the receipt; a renewal: its own receipt, once; a declined renewal: when Stripe tries again; the end after the retries', async () => {
    const who = await newCustomer(server.db, 'Ximena');
    const p = await pendingStripeSubscription(who);
    const sub = p.subscription_id!;
    const first = stripeEvent('invoice.paid', { id: `in_${sub}_1`, object: 'invoice', amount_paid: 99000, billing_reason: 'subscription_create', parent: parentOf(sub), lines: { data: [] } });
    expect((await deliver(server.app, first)).status).toBe(200);
    const [receipt] = await emailsOf(server.db, who, 'purchase-receipt');
    expect(receipt!.subject).toBe(`Recibo de tu compra: Orden #00${p.purchase_id}`);
    expect(receipt!.body).toContain('Total pagado: $990.00 MXN');

    const start = Math.floor(Date.now() / 1000) + 30 * 86400;
    const renewal = stripeEvent('invoice.paid', {
      id: `in_${sub}_2`,
      object: 'invoice',
      amount_paid: 99000,
      billing_reason: 'subscription_cycle',
      parent: parentOf(sub),
      lines: { data: [{ period: { start, end: start + 30 * 86400 } }] },
    });
    await deliver(server.app, renewal);
    await deliver(server.app, { ...renewal, id: `${renewal.id}_again` });
    const renewed = await emailsOf(server.db, who, 'subscription-renewed');
    expect(renewed).toHaveLength(1);
    expect(renewed[0]!.body).toContain(`Orden #00${p.purchase_id}`);

    const retryAt = Math.floor(days(new Date(), 33).getTime() / 1000);
    const failed = stripeEvent('invoice.payment_failed', {
      id: `in_${sub}_3`,
      object: 'invoice',
      amount_due: 99000,
      attempt_count: 1,
      next_payment_attempt: retryAt,
      parent: parentOf(sub),
    });
    await deliver(server.app, failed);
    await deliver(server.app, { ...failed, id: `${failed.id}_again` });
    const told = await emailsOf(server.db, who, 'payment-failed');
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain('Lo intentaremos de nuevo el');
    expect(told[0]!.body).toContain('Cambiar mi tarjeta: http://estudio.test/mystudio/metodos');
    await deliver(server.app, stripeEvent('invoice.payment_failed', { id: `in_${sub}_3`, object: 'invoice', amount_due: 99000, attempt_count: 2, next_payment_attempt: retryAt + 3 * 86400, parent: parentOf(sub) }));
    expect(await emailsOf(server.db, who, 'payment-failed')).toHaveLength(2);

    await deliver(server.app, stripeEvent('customer.subscription.deleted', { id: sub, object: 'subscription', status: 'canceled', cancellation_details: { reason: 'payment_failed' } }));
    const ended = await emailsOf(server.db, who, 'subscription-cancelled');
    expect(ended).toHaveLength(1);
    expect(ended[0]!.body).toContain('no pudimos cobrarla después de varios intentos');
    expect((await messagesOf(server.db, who, 'subscription-cancelled')).some((m) => m.channel === 'whatsapp')).toBe(true);
  });

  it('a subscription the customer cancelled in Mis Compras is not announced again when Stripe ends it', async () => {
    const who = await newCustomer(server.db);
    const p = await pendingStripeSubscription(who);
    const sub = p.subscription_id!;
    await deliver(server.app, stripeEvent('invoice.paid', { id: `in_${sub}_1`, object: 'invoice', amount_paid: 99000, billing_reason: 'subscription_create', parent: parentOf(sub), lines: { data: [] } }));
    await server.db.update(purchase).set({ status: 'cancelled', cancelledAt: new Date(), cancel_reason: 'Me mudo' }).where(eq(purchase.purchase_id, p.purchase_id));
    await deliver(server.app, stripeEvent('customer.subscription.deleted', { id: sub, object: 'subscription', status: 'canceled', cancellation_details: { reason: 'cancellation_requested' } }));
    expect(await emailsOf(server.db, who, 'subscription-cancelled')).toHaveLength(0);
  });

  it('the sandbox renewal job leaves Stripe subscriptions to Stripe', async () => {
    expect(await renewDueSubscriptions(renewalDeps(server.db, server.config), days(new Date(), 400))).toBe(0);
  });
});
