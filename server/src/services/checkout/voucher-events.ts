import { chargeDate, cycleAt, studioTimeZone, toCents } from '@estudio/core';
import { transferReceived, voucherExpired } from '@estudio/core/messages/templates/mexico';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import { customer } from '@estudio/db/schema/customer';
import { purchase, renewal_payment } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import { voucherInstructionsOf } from '../../providers/payments/stripe.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { markPurchaseFailed, recordRenewal, type PaidDetails, type PurchaseRow } from './grant-purchase.ts';

/**
 * Stripe's events of OXXO vouchers and SPEI transfers (decision 080), applied
 * in processStripeEvent's transaction, once per event.
 */

const nameOf = async (tx: Tx, customerId: number) => (await tx.select({ name: customer.name }).from(customer).where(eq(customer.customer_id, customerId)))[0]?.name?.trim() || null;

/** The details to pay a voucher's purchase with (a subscription paid by voucher renews by voucher: decision 083). */
export function voucherPaidDetails(p: PurchaseRow, pi: Stripe.PaymentIntent): Partial<PaidDetails> {
  return {
    providerPaymentId: pi.id,
    totalPayment: ((pi.amount_received || pi.amount) / 100).toFixed(2),
    ...(p.subscription_period ? { subscriptionId: `${p.payment_channel}_sub_${p.purchase_id}` } : {}),
  };
}

/** The purchase's instructions after a payment arrived: nothing left to pay. */
export async function markInstructionsPaid(tx: Tx, p: PurchaseRow): Promise<void> {
  const i = p.payment_instructions;
  if (!i) return;
  await tx
    .update(purchase)
    .set({ payment_instructions: { ...i, received_cents: i.amount_cents, remaining_cents: 0 } })
    .where(eq(purchase.purchase_id, p.purchase_id));
}

/**
 * OXXO: the voucher expired unpaid (payment_intent.payment_failed). The
 * purchase fails (its place and any discount use freed) and the customer is
 * told, with the link to buy again. A renewal's voucher expires its cycle.
 */
export async function voucherFailed(tx: Tx, p: PurchaseRow, now: Date, messages: MessageContext | null): Promise<void> {
  if (!(await markPurchaseFailed(tx, p.purchase_id, now))) return;
  if (!messages) return;
  await queueCustomerMessage(tx, messages, {
    customerId: p.customer_id,
    dedupeKey: `voucher-expired:${p.purchase_id}`,
    parts: voucherExpired({ name: await nameOf(tx, p.customer_id), purchaseId: p.purchase_id, title: p.title, buyUrl: `${messages.publicUrl}/checkout/${p.class_package_id}` }),
  });
}

/**
 * SPEI: a transfer arrived short (payment_intent.partially_funded). The money
 * is Stripe's until the intent is whole: no sale, no access; the order shows
 * what arrived and what is missing, and the customer is told how much to send.
 */
export async function transferShort(tx: Tx, p: PurchaseRow, pi: Stripe.PaymentIntent, messages: MessageContext | null): Promise<void> {
  const now = voucherInstructionsOf(pi, 'spei');
  const before = p.payment_instructions;
  await tx
    .update(purchase)
    .set({ payment_instructions: { ...(before ?? { channel: 'spei', reference: now.reference, amount_cents: now.amount_cents }), ...now, overpaid_cents: before?.overpaid_cents ?? 0 } })
    .where(eq(purchase.purchase_id, p.purchase_id));
  if (!messages) return;
  await queueCustomerMessage(tx, messages, {
    customerId: p.customer_id,
    // One per amount still missing: a second short transfer is told again.
    dedupeKey: `transfer-short:${p.purchase_id}:${now.remaining_cents}`,
    parts: transferReceived({
      name: await nameOf(tx, p.customer_id),
      purchaseId: p.purchase_id,
      title: p.title,
      receivedCents: now.received_cents,
      remainingCents: now.remaining_cents,
      overpaidCents: 0,
      clabe: now.clabe,
      orderUrl: `${messages.publicUrl}/gracias/${p.purchase_id}`,
    }),
  });
}

/**
 * SPEI: money left in the customer's cash balance after Stripe applied a
 * transfer (cash_balance.funds_available): sent over the amount, or for an
 * order no longer waiting. It is the customer's, not a sale: Stripe applies it
 * to her next transfer payment (automatic reconciliation), or the studio
 * refunds it from Stripe. Her latest transfer order shows it; she is told.
 */
export async function fundsLeftOver(tx: Tx, balance: { customer: string; available: Record<string, number> | null }, eventId: string, messages: MessageContext | null): Promise<void> {
  const cents = balance.available?.mxn ?? 0;
  if (cents <= 0) return;
  const [who] = await tx.select().from(customer).where(eq(customer.stripe_customer_id, balance.customer));
  if (!who) return;
  const [latest] = await tx
    .select()
    .from(purchase)
    .where(and(eq(purchase.customer_id, who.customer_id), eq(purchase.payment_channel, 'spei'), isNotNull(purchase.payment_instructions)))
    .orderBy(desc(purchase.purchase_id))
    .limit(1);
  if (latest?.payment_instructions) {
    await tx
      .update(purchase)
      .set({ payment_instructions: { ...latest.payment_instructions, overpaid_cents: cents } })
      .where(eq(purchase.purchase_id, latest.purchase_id));
  }
  if (!messages || !latest) return;
  await queueCustomerMessage(tx, messages, {
    customerId: who.customer_id,
    dedupeKey: `transfer-over:${eventId}`,
    parts: transferReceived({
      name: who.name?.trim() || null,
      purchaseId: latest.purchase_id,
      title: latest.title,
      receivedCents: (latest.payment_instructions?.amount_cents ?? 0) + cents,
      remainingCents: 0,
      overpaidCents: cents,
      clabe: latest.payment_instructions?.clabe ?? null,
      orderUrl: `${messages.publicUrl}/gracias/${latest.purchase_id}`,
    }),
  });
}

/**
 * A renewal's voucher or transfer paid (decision 083): recordRenewal grants
 * the cycle's credits and sends its receipt; the renewal row is marked paid in
 * the same transaction, so a repeated event changes nothing. A renewal that
 * expired (the subscription lapsed) is not paid again by a late event.
 */
export async function renewalPaid(tx: Tx, renewalId: number, pi: Stripe.PaymentIntent, now: Date, messages: MessageContext | null): Promise<void> {
  const [r] = await tx.select().from(renewal_payment).where(eq(renewal_payment.renewal_payment_id, renewalId)).for('update');
  if (!r || r.status !== 'pending' || r.provider_payment_id !== pi.id) return;
  if ((pi.amount_received || pi.amount) < toCents(r.amount)) return;
  const [p] = await tx.select().from(purchase).where(eq(purchase.purchase_id, r.purchase_id));
  if (!p || p.status !== 'active') return;
  const tz = studioTimeZone(await loadStudioSettings(tx));
  await recordRenewal(tx, p, {
    providerInvoiceId: `renewal_${r.renewal_payment_id}`,
    totalPayment: r.amount,
    periodStart: r.due_at,
    periodEnd: chargeDate(p, cycleAt(p, r.due_at, tz) + 1, tz),
    now,
    messages,
  });
  await tx.update(renewal_payment).set({ status: 'paid', paidAt: now, updatedAt: now }).where(eq(renewal_payment.renewal_payment_id, r.renewal_payment_id));
}

/** A renewal's OXXO voucher expired: its cycle waits for the lapse (the clock's grace days) or a new voucher. */
export async function renewalFailed(tx: Tx, renewalId: number, now: Date): Promise<void> {
  await tx
    .update(renewal_payment)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(renewal_payment.renewal_payment_id, renewalId), eq(renewal_payment.status, 'pending')));
}
