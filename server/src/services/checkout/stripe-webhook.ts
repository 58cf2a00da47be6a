import { and, eq, isNull } from 'drizzle-orm';
import { toCents } from '@estudio/core';
import type Stripe from 'stripe';
import { processed_webhook_event } from '@estudio/db/schema/payments';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { queuePaymentFailed, queueSubscriptionCancelled } from '../billing/notices.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { endAccessNow, markPurchaseFailed, markPurchasePaid, recordRenewal, type PaidDetails, type PurchaseRow } from './grant-purchase.ts';
import { isRefusedAtPayment } from './purchase-caps.ts';
import { fundsLeftOver, markInstructionsPaid, renewalFailed, renewalPaid, transferShort, voucherFailed, voucherPaidDetails } from './voucher-events.ts';

const cents = (n: number | null | undefined) => ((n ?? 0) / 100).toFixed(2);
const idOf = (v: string | { id: string } | null | undefined) => (v ? (typeof v === 'string' ? v : v.id) : null);

/**
 * The purchase a PaymentIntent or Checkout Session event is about: the one
 * that stored that Stripe id. The metadata's purchase_id is only a fallback
 * for a purchase that has no id of that kind yet (the server stopped between
 * creating the intent and storing its id): an event for another intent
 * never settles a purchase that is waiting on its own.
 */
async function purchaseOfObject(
  tx: Tx,
  column: typeof purchase.provider_payment_id | typeof purchase.provider_session_id,
  id: string,
  metadata: Record<string, string> | null | undefined,
): Promise<PurchaseRow | null> {
  const [byId] = await tx.select().from(purchase).where(and(eq(purchase.provider, 'stripe'), eq(column, id)));
  if (byId) return byId;
  const fromMeta = Number(metadata?.purchase_id);
  if (!Number.isInteger(fromMeta) || fromMeta <= 0) return null;
  const [byMeta] = await tx
    .select()
    .from(purchase)
    .where(and(eq(purchase.provider, 'stripe'), eq(purchase.purchase_id, fromMeta), isNull(column)));
  return byMeta ?? null;
}

/** Whether a charge covers the purchase: MXN, and at least the total the server asked for. */
const covers = (p: PurchaseRow, amountCents: number | null | undefined, currency: string | null | undefined) =>
  (!currency || currency.toLowerCase() === 'mxn') && (amountCents ?? 0) >= toCents(p.total_payment);

function subscriptionOfInvoice(inv: Stripe.Invoice): string | null {
  return idOf(inv.parent?.subscription_details?.subscription ?? null);
}

/** A charge Stripe took for a purchase that a cap refused when it was to be paid: given back once the event is recorded. */
export interface RefusedCharge {
  purchaseId: number;
  paymentId: string | null;
  subscriptionId: string | null;
}

/**
 * Pays the purchase of a successful charge, every cap checked again. A cap
 * with no room left (the attempt was superseded, the last place sold
 * meanwhile) fails the purchase instead, and the charge is handed back to
 * be refunded: the event is still recorded, so Stripe does not retry it.
 */
async function payOrRefuse(tx: Tx, p: PurchaseRow, details: PaidDetails & { now: Date }, refused: RefusedCharge[]): Promise<void> {
  try {
    await markPurchasePaid(tx, p.purchase_id, details);
  } catch (err) {
    if (!isRefusedAtPayment(err)) throw err;
    await markPurchaseFailed(tx, p.purchase_id, details.now);
    refused.push({ purchaseId: p.purchase_id, paymentId: details.providerPaymentId ?? null, subscriptionId: details.subscriptionId ?? p.subscription_id });
  }
}

async function applyEvent(tx: Tx, event: Stripe.Event, now: Date, refused: RefusedCharge[], messages: MessageContext | null): Promise<void> {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const pi = event.data.object;
      const renewalId = Number(pi.metadata?.renewal_payment_id);
      if (Number.isInteger(renewalId) && renewalId > 0) return renewalPaid(tx, renewalId, pi, now, messages);
      const p = await purchaseOfObject(tx, purchase.provider_payment_id, pi.id, pi.metadata);
      // An OXXO voucher or a SPEI transfer paid (decision 080): the purchase is paid through the one path, every cap checked.
      if (p?.payment_channel) {
        if (!covers(p, pi.amount_received || pi.amount, pi.currency)) return;
        // Paid after the order was cancelled, or past a cap: the money goes back (OXXO cannot refund: the log tells staff).
        await payOrRefuse(tx, p, { ...voucherPaidDetails(p, pi), now, messages }, refused);
        await markInstructionsPaid(tx, p);
        return;
      }
      // A charge for less than the purchase, or in another currency, pays nothing (a mistaken or foreign event).
      if (p && !p.subscription_period && covers(p, pi.amount_received || pi.amount, pi.currency)) await payOrRefuse(tx, p, { providerPaymentId: pi.id, totalPayment: cents(pi.amount_received || pi.amount), now, messages }, refused);
      return;
    }
    case 'payment_intent.payment_failed': {
      const pi = event.data.object;
      const renewalId = Number(pi.metadata?.renewal_payment_id);
      if (Number.isInteger(renewalId) && renewalId > 0) return renewalFailed(tx, renewalId, now);
      const p = await purchaseOfObject(tx, purchase.provider_payment_id, pi.id, pi.metadata);
      if (p?.payment_channel) return voucherFailed(tx, p, now, messages);
      if (p) await markPurchaseFailed(tx, p.purchase_id, now);
      return;
    }
    case 'payment_intent.partially_funded': {
      const pi = event.data.object;
      const p = await purchaseOfObject(tx, purchase.provider_payment_id, pi.id, pi.metadata);
      if (p?.payment_channel === 'spei' && p.status === 'pending') await transferShort(tx, p, pi, messages);
      return;
    }
    case 'cash_balance.funds_available': {
      const balance = event.data.object;
      return fundsLeftOver(tx, { customer: idOf(balance.customer) ?? '', available: balance.available }, event.id, messages);
    }
    case 'checkout.session.completed': {
      const s = event.data.object;
      const p = await purchaseOfObject(tx, purchase.provider_session_id, s.id, s.metadata);
      if (!p) return;
      // One-off sessions carry the charged amount; subscription sessions may be a trial (nothing charged now).
      if (s.mode === 'payment' && !covers(p, s.amount_total, s.currency)) return;
      if (s.payment_status === 'paid' || s.payment_status === 'no_payment_required') {
        await payOrRefuse(
          tx,
          p,
          { providerPaymentId: idOf(s.payment_intent), subscriptionId: idOf(s.subscription), totalPayment: cents(s.amount_total), now, messages },
          refused,
        );
      }
      return;
    }
    case 'invoice.paid': {
      const inv = event.data.object;
      const subId = subscriptionOfInvoice(inv);
      if (!subId) return;
      const [p] = await tx.select().from(purchase).where(and(eq(purchase.provider, 'stripe'), eq(purchase.subscription_id, subId)));
      if (!p) return;
      if (p.status === 'pending' || p.status === 'failed') {
        await payOrRefuse(tx, p, { providerInvoiceId: inv.id, totalPayment: cents(inv.amount_paid), subscriptionId: subId, now, messages }, refused);
        return;
      }
      if (p.status !== 'active' || inv.billing_reason === 'subscription_create') return;
      const line = inv.lines?.data?.[0]?.period;
      await recordRenewal(tx, p, {
        providerInvoiceId: inv.id ?? `${event.id}`,
        totalPayment: cents(inv.amount_paid),
        periodStart: line?.start ? new Date(line.start * 1000) : now,
        periodEnd: line?.end ? new Date(line.end * 1000) : null,
        now,
        messages,
      });
      return;
    }
    case 'invoice.payment_failed': {
      const inv = event.data.object;
      const subId = subscriptionOfInvoice(inv);
      if (!subId) return;
      const [p] = await tx.select().from(purchase).where(and(eq(purchase.provider, 'stripe'), eq(purchase.subscription_id, subId)));
      if (!p) return;
      if (p.status === 'pending') {
        await markPurchaseFailed(tx, p.purchase_id, now);
        return;
      }
      // A renewal that failed: recorded as a failed charge; Stripe retries (Smart Retries), and ends the subscription if it never pays.
      await tx
        .insert(invoice)
        .values({ purchase_id: p.purchase_id, customer_id: p.customer_id, total_payment: cents(inv.amount_due), status: 'failed', provider_invoice_id: inv.id ?? null })
        .onConflictDoNothing({ target: invoice.provider_invoice_id });
      // The customer reads what the sandbox's dunning says (decision 024): what failed, when Stripe tries again, where to change the card.
      if (messages && p.status === 'active') {
        await queuePaymentFailed(tx, messages, p, {
          total: cents(inv.amount_due),
          // An Invoice has no decline code (it is on the charge's PaymentIntent, not in this event): the generic reason.
          declineCode: null,
          cardDigits: null,
          nextAttempt: inv.next_payment_attempt ? new Date(inv.next_payment_attempt * 1000) : null,
          dedupeKey: `payment-failed:${inv.id ?? event.id}:${inv.attempt_count ?? 0}`,
        });
      }
      return;
    }
    case 'customer.subscription.deleted': {
      const sub = event.data.object;
      const [p] = await tx.select().from(purchase).where(and(eq(purchase.provider, 'stripe'), eq(purchase.subscription_id, sub.id)));
      if (!p || p.status === 'revoked') return;
      const [cancelled] = await tx
        .update(purchase)
        .set({ status: 'cancelled', cancelledAt: p.cancelledAt ?? now, updatedAt: now })
        .where(eq(purchase.purchase_id, p.purchase_id))
        .returning();
      if (cancelled) await endAccessNow(tx, cancelled, now);
      // Stripe ends a subscription after its last retry (or when the studio ends it there): the customer is told, once.
      if (cancelled && messages && p.status === 'active') await queueSubscriptionCancelled(tx, messages, cancelled, sub.cancellation_details?.reason === 'payment_failed' ? 'payment' : 'provider');
      return;
    }
    default:
      return;
  }
}

/**
 * Applies a verified Stripe event exactly once: the event id is inserted into
 * processed_webhook_event (unique per provider) in the same transaction as its
 * effect. A repeated or concurrent delivery conflicts on the insert and
 * changes nothing; a failed effect rolls the insert back so Stripe's retry is
 * applied. Returns false when the event had been processed already. Charges
 * a cap refused are added to `refused`, for the caller to give back. The
 * receipts and dunning notices it queues link to `messages`' portal.
 */
export async function processStripeEvent(
  db: Db,
  event: Stripe.Event,
  messages: MessageContext | null,
  now: Date = new Date(),
  refused: RefusedCharge[] = [],
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(processed_webhook_event)
      .values({ provider: 'stripe', event_id: event.id, type: event.type, processedAt: now })
      .onConflictDoNothing({ target: [processed_webhook_event.provider, processed_webhook_event.event_id] })
      .returning({ id: processed_webhook_event.processed_webhook_event_id });
    if (!inserted.length) return false;
    await applyEvent(tx, event, now, refused, messages);
    return true;
  });
}
