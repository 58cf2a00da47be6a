import { addPeriod, chargeDate, DomainError, studioTimeZone } from '@estudio/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { class_package_type } from '@estudio/db/schema/packages';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import { queueReceipt } from '../billing/receipts.ts';
import { syncUnlimitedMembership } from '../credits/credit-rules.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { cancelBookingsPaidBy, type BookingsEnded } from '../reservations/cancel-bookings-paid-by.ts';
import { releaseDiscountUse } from '../discounts/validate-discount.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { claimPurchaseCaps, holdTimes } from './purchase-caps.ts';

export type PurchaseRow = typeof purchase.$inferSelect;

export interface PaidDetails {
  /** The provider's payment id (PaymentIntent, PayPal order), kept when the purchase has none yet. */
  providerPaymentId?: string | null;
  providerInvoiceId?: string | null;
  subscriptionId?: string | null;
  /** What this charge was; defaults to the purchase's total_payment. */
  totalPayment?: string;
  /** Meses sin intereses: the plan the card's bank splits this charge into (decision 082). */
  installments?: number | null;
  /** Record the invoice of this charge (default true); access granted at the desk without a bill has none. */
  recordInvoice?: boolean;
  /** How staff collected an 'Efectivo' order at the desk: cash into the drawer, or a bank transfer (not drawer cash). */
  paidWith?: 'cash' | 'transfer';
  /**
   * Where the receipt's links point (decision 024): the caller's server. Every caller says it; null (a test of
   * the grant alone) queues no receipt.
   */
  messages: MessageContext | null;
  now?: Date;
}

/**
 * End of the access a payment buys: the trial, one subscription cycle (the
 * next charge date of core's chargeDate, on the studio's clock `tz`), or
 * expiration_days.
 */
export function accessEnd(p: PurchaseRow, from: Date, firstCharge: boolean, tz: string): Date | null {
  if (p.subscription_period) {
    return chargeDate({ ...p, createdAt: from, free_trial_length: firstCharge ? p.free_trial_length : null }, 1, tz);
  }
  return p.expiration_days ? addPeriod(from, p.expiration_days, 'day') : null;
}

/**
 * Credits of one paid period: one row per class_package_type when the
 * package restricts class types, otherwise class_amount (-1 unlimited) for
 * any class type; nothing for packages without class credits (online,
 * enrolment fee). Unlimited rows also make the customer an unlimited member.
 */
async function grantCredits(tx: Tx, p: PurchaseRow, from: Date, until: Date | null, now: Date): Promise<void> {
  const types = await tx.select().from(class_package_type).where(eq(class_package_type.class_package_id, p.class_package_id));
  const rows = types.length
    ? types.map((t) => ({
        customer_id: p.customer_id,
        purchase_id: p.purchase_id,
        class_type_id: t.class_type_id,
        available_classes: t.class_amount,
        allowed_times: t.allowed_times,
        expiration_date: t.expiration_days && !p.subscription_period ? addPeriod(from, t.expiration_days, 'day') : until,
      }))
    : p.class_amount !== 0
      ? [{ customer_id: p.customer_id, purchase_id: p.purchase_id, class_type_id: null, available_classes: p.class_amount, allowed_times: null, expiration_date: until }]
      : [];
  if (!rows.length) return;
  await tx.insert(available_classes).values(rows);
  if (rows.some((r) => r.available_classes === -1)) await syncUnlimitedMembership(tx, p.customer_id, now);
}

/**
 * Marks a purchase paid and grants what it sells, exactly once, after
 * checking every cap again (claimPurchaseCaps: 412/409 when one has no room
 * left, and nothing changes; 409 'purchase/ended-before-payment' for an order
 * cancelled before its money arrived, which the caller then gives back): the conditional UPDATE (status pending or failed → completed, or active for a
 * subscription) is the single point where a purchase becomes paid, so a
 * second confirmation, a repeated webhook or a concurrent delivery finds no
 * row and grants nothing. Credits and the invoice are written in the same
 * transaction. Returns the purchase and whether this call paid it.
 */
export async function markPurchasePaid(tx: Tx, purchaseId: number, details: PaidDetails): Promise<{ purchase: PurchaseRow; paidNow: boolean }> {
  const now = details.now ?? new Date();
  const [current] = await tx.select().from(purchase).where(eq(purchase.purchase_id, purchaseId));
  if (!current) throw new Error(`purchase ${purchaseId} not found`);
  // Customer first, as every booking transaction locks (credits are the customer's).
  await lockCustomer(tx, current.customer_id);
  // Cancelled or revoked before any payment arrived: this money pays nothing, and the caller gives it back.
  if ((current.status === 'cancelled' || current.status === 'revoked') && current.paidAt === null) throw new DomainError('purchase/ended-before-payment');
  if (current.status !== 'pending' && current.status !== 'failed') return { purchase: current, paidNow: false };
  // Every cap again, under the package's and the discount's locks: the purchase may have been failed or superseded since it was created.
  const settings = await loadStudioSettings(tx);
  await claimPurchaseCaps(tx, current, now, holdTimes(settings));
  const until = accessEnd(current, now, true, studioTimeZone(settings));
  const [paid] = await tx
    .update(purchase)
    .set({
      status: current.subscription_period ? 'active' : 'completed',
      expiration_date: until,
      paidAt: now,
      ...(details.paidWith ? { paid_with: details.paidWith } : {}),
      updatedAt: now,
      ...(details.providerPaymentId && !current.provider_payment_id ? { provider_payment_id: details.providerPaymentId } : {}),
      ...(details.subscriptionId && !current.subscription_id ? { subscription_id: details.subscriptionId } : {}),
      ...(details.installments ? { installments: details.installments } : {}),
      // A voucher or transfer paid holds nothing any more: its hold was only for while it was unpaid.
      hold_until: null,
    })
    .where(and(eq(purchase.purchase_id, purchaseId), inArray(purchase.status, ['pending', 'failed'])))
    .returning();
  if (!paid) return { purchase: current, paidNow: false };
  await grantCredits(tx, paid, now, until, now);
  const total = details.totalPayment ?? paid.total_payment;
  const [bill] =
    details.recordInvoice === false
      ? []
      : await tx
          .insert(invoice)
          .values({
            purchase_id: paid.purchase_id,
            customer_id: paid.customer_id,
            total_payment: total,
            status: 'completed',
            provider_invoice_id: details.providerInvoiceId ?? null,
            period_start: now,
            period_end: until,
            paidAt: now,
          })
          .returning({ id: invoice.invoice_id });
  // The receipt (a confirmation when nothing was paid) is queued with the payment: both or neither.
  if (details.messages) await queueReceipt(tx, details.messages, paid, { invoiceId: bill?.id ?? null, total, paidAt: now, until, renewal: false });
  return { purchase: paid, paidNow: true };
}

/**
 * A renewal of an active subscription (Stripe invoice.paid after the first,
 * or a sandbox renewal the clock charged): a new invoice, the credits of the
 * new period and its receipt ('subscription-renewed'). The invoice's unique
 * provider id keeps a repeated renewal from granting twice.
 */
export async function recordRenewal(
  tx: Tx,
  p: PurchaseRow,
  renewal: {
    providerInvoiceId: string;
    totalPayment: string;
    periodStart: Date;
    periodEnd: Date | null;
    now?: Date;
    /** Where the renewal's receipt links point; null queues none. */
    messages: MessageContext | null;
    /** The card charged, for the receipt. */
    card?: { card_type: string; last_digits: string } | null;
  },
): Promise<boolean> {
  const now = renewal.now ?? new Date();
  await lockCustomer(tx, p.customer_id);
  const inserted = await tx
    .insert(invoice)
    .values({
      purchase_id: p.purchase_id,
      customer_id: p.customer_id,
      total_payment: renewal.totalPayment,
      status: 'completed',
      provider_invoice_id: renewal.providerInvoiceId,
      period_start: renewal.periodStart,
      period_end: renewal.periodEnd,
      paidAt: now,
    })
    .onConflictDoNothing({ target: invoice.provider_invoice_id })
    .returning({ id: invoice.invoice_id });
  if (!inserted.length) return false;
  const until = renewal.periodEnd ?? accessEnd(p, renewal.periodStart, false, studioTimeZone(await loadStudioSettings(tx)));
  await tx.update(purchase).set({ expiration_date: until, updatedAt: now }).where(eq(purchase.purchase_id, p.purchase_id));
  await grantCredits(tx, p, renewal.periodStart, until, now);
  if (renewal.messages) {
    await queueReceipt(tx, renewal.messages, p, { invoiceId: inserted[0]?.id ?? null, total: renewal.totalPayment, paidAt: now, until, renewal: true, card: renewal.card ?? null });
  }
  return true;
}

/** A payment that did not go through: pending → failed, and its discount use is given back. */
export async function markPurchaseFailed(tx: Tx, purchaseId: number, now: Date = new Date()): Promise<boolean> {
  const failed = await tx
    .update(purchase)
    .set({ status: 'failed', updatedAt: now })
    .where(and(eq(purchase.purchase_id, purchaseId), eq(purchase.status, 'pending')))
    .returning({ id: purchase.purchase_id });
  if (!failed.length) return false;
  await releaseDiscountUse(tx, purchaseId);
  return true;
}

/**
 * Ends a purchase's access now: its credits expire, the classes they booked
 * that have not started are cancelled with them (a credit no longer covers a
 * class after its expiry, the booking rule of core's credits), and the
 * unlimited membership is recomputed. The freed places' waitlists are told
 * through `messages` when given.
 */
export async function endAccessNow(tx: Tx, p: PurchaseRow, now: Date, messages?: MessageContext | null): Promise<BookingsEnded> {
  const ended = await cancelBookingsPaidBy(tx, p.purchase_id, now, messages);
  await tx
    .update(available_classes)
    .set({ expiration_date: now, updatedAt: now })
    .where(and(eq(available_classes.purchase_id, p.purchase_id), sql`(${available_classes.expiration_date} is null or ${available_classes.expiration_date} > ${now.toISOString()}::timestamptz)`));
  await syncUnlimitedMembership(tx, p.customer_id, now);
  return ended;
}
