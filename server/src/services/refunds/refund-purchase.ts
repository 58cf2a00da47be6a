import { DomainError, formatMXN, fromCents, refundableCents, texts, toCents, type PaymentKind, type PurchaseRefundInput, type refundOutput, type refundQuoteOutput, type z } from '@estudio/core';
import type { Tx } from '@estudio/db';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import type { CardProvider } from '../../providers/payments/types.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { correctInvoiceOfReturn } from '../cfdi/correct-invoice.ts';
import type { PurchaseRow } from '../checkout/grant-purchase.ts';
import { endPurchaseAccess } from '../desk/revoke-access.ts';
import { openShiftFor } from '../cash/cash-shifts.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { paymentKindOf } from '../reports/payment-kind.ts';

const cardProviders = new Set(['stripe', 'sandbox']);

/** Classes booked with the purchase's credits and not given back (live, or cancelled late), the guests' seats included. */
async function usedClasses(tx: Db, purchaseId: number): Promise<number> {
  const rows = tx.select({ id: available_classes.available_class_id }).from(available_classes).where(eq(available_classes.purchase_id, purchaseId));
  const kept = or(isNull(class_reservation.deletedAt), eq(class_reservation.credit_returned, false));
  const [own, guests] = await Promise.all([
    tx.select({ n: sql<number>`count(*)::int`.mapWith(Number) }).from(class_reservation).where(and(inArray(class_reservation.available_class_id, rows), kept)),
    tx
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(class_reservation)
      .where(and(inArray(class_reservation.guest_available_class_id, rows), isNull(class_reservation.deletedAt))),
  ]);
  return (own[0]?.n ?? 0) + (guests[0]?.n ?? 0);
}

interface Facts {
  row: PurchaseRow;
  method: PaymentKind;
  used: number;
  maxCents: number;
  refunded: boolean;
  throughProvider: boolean;
}

async function factsOf(tx: Db, row: PurchaseRow, now: Date): Promise<Facts> {
  const [[kind], used, [refund]] = await Promise.all([
    tx.select({ method: paymentKindOf }).from(purchase).where(eq(purchase.purchase_id, row.purchase_id)),
    usedClasses(tx, row.purchase_id),
    tx.select({ id: invoice.invoice_id }).from(invoice).where(and(eq(invoice.purchase_id, row.purchase_id), eq(invoice.status, 'refunded'))).limit(1),
  ]);
  // Money never received (an order cancelled unpaid) is nothing to give back.
  const paidCents = row.paidAt === null ? 0 : toCents(row.total_payment);
  const maxCents = refundableCents({ paidCents, classAmount: row.class_amount, used, startsAt: row.createdAt, endsAt: row.expiration_date, now });
  return {
    row,
    method: kind?.method ?? 'cash',
    used,
    maxCents,
    refunded: Boolean(refund),
    // OXXO payments cannot be refunded at Stripe (decision 080): the studio gives the money back itself, as with cash.
    throughProvider: cardProviders.has(row.provider ?? '') && row.provider_payment_id !== null && row.payment_channel !== 'oxxo',
  };
}

/** What the admin's refund form shows before asking: paid, used, at most refundable, and who gives the money back. */
export async function refundQuote(db: Db, purchaseId: number, now: Date = new Date()): Promise<z.infer<typeof refundQuoteOutput>> {
  const [row] = await db.select().from(purchase).where(eq(purchase.purchase_id, purchaseId));
  if (!row) throw new DomainError('purchase/not-found');
  const f = await factsOf(db, row, now);
  return {
    purchase_id: row.purchase_id,
    paid: row.paidAt === null ? '0.00' : row.total_payment,
    used: f.used,
    refundable: fromCents(f.maxCents),
    method: f.method,
    through_provider: f.throughProvider,
    already_refunded: f.refunded,
  };
}

/**
 * POST /api/purchases/{id}/refund (decision 034). An admin gives
 * a purchase's money back, with a reason. In one transaction: the customer's
 * lock, then the purchase's row lock (decision 006's order, so a booking
 * spending these credits waits or is waited on); a second refund finds the
 * refund invoice and is refused; the amount is checked against what is still
 * unused (refundableCents: a full refund of a partly used purchase is refused,
 * a partial one up to the unused share is taken); a card payment is refunded
 * by the provider inside the transaction (idempotency key per purchase, so a
 * commit lost after Stripe answered is repaired by the retry, which gets the
 * same refund back); cash and desk payments are recorded for staff to hand
 * back. Then the refund invoice (status 'refunded', paid_at now: the reports'
 * refunds), the end of the purchase's access (its unused credits removed) and
 * the audit row with who, why and how much.
 */
export async function refundPurchase(
  deps: { db: Db; card: CardProvider },
  actorId: number,
  input: PurchaseRefundInput,
  now: Date = new Date(),
): Promise<z.infer<typeof refundOutput>> {
  return deps.db.transaction(async (tx: Tx) => {
    const [owner] = await tx.select({ customer_id: purchase.customer_id }).from(purchase).where(eq(purchase.purchase_id, input.id));
    if (!owner) throw new DomainError('purchase/not-found');
    await lockCustomer(tx, owner.customer_id);
    const [row] = await tx.select().from(purchase).where(eq(purchase.purchase_id, input.id)).for('update');
    if (!row) throw new DomainError('purchase/not-found');
    if (row.paidAt === null) throw new DomainError('refund/not-paid');
    const f = await factsOf(tx, row, now);
    if (f.refunded) throw new DomainError('refund/already-refunded');
    if (row.is_gift || toCents(row.total_payment) === 0) throw new DomainError('refund/nothing-paid');
    if (f.method === 'paypal') throw new DomainError('refund/paypal');
    if (row.subscription_id !== null && cardProviders.has(row.provider ?? '')) throw new DomainError('refund/subscription');
    const cents = input.amount === null || input.amount === undefined ? toCents(row.total_payment) : toCents(input.amount);
    if (cents <= 0) throw new DomainError('refund/zero');
    if (cents > f.maxCents) {
      throw new DomainError('refund/over-limit', f.used > 0 ? texts.adminMoney.refundOverLimit(f.used, formatMXN(f.maxCents)) : undefined);
    }
    let providerRefundId: string | null = null;
    if (f.throughProvider) {
      const refund = await deps.card.refundPayment(row.provider_payment_id as string, `purchase-${row.purchase_id}-admin-refund`, {
        amountCents: cents,
        reason: input.reason,
      });
      providerRefundId = refund.refundId;
    }
    const amount = fromCents(cents);
    // Cash handed back at the counter leaves the refunder's open drawer; a card's refund is listed beside it.
    const cashShiftId = f.throughProvider ? null : await openShiftFor(tx, actorId, now);
    await tx.insert(invoice).values({
      cash_shift_id: cashShiftId,
      purchase_id: row.purchase_id,
      customer_id: row.customer_id,
      total_payment: amount,
      status: 'refunded',
      // One refund per purchase, also for the database: the unique index on provider_invoice_id.
      provider_invoice_id: `refund:${row.purchase_id}`,
      paidAt: now,
      createdAt: now,
      updatedAt: now,
    });
    const ended = row.status === 'revoked' ? { purchase: row, removedCreditIds: [] as number[] } : await endPurchaseAccess(tx, row, now);
    // Its invoice follows the money: cancelled (motive 03) or a credit note for what went back (decision 086).
    await correctInvoiceOfReturn(tx, { purchaseId: row.purchase_id, returnedCents: cents, now });
    await tx.update(purchase).set({ cancel_reason: input.reason, cancelledAt: now, refundedAt: now }).where(eq(purchase.purchase_id, row.purchase_id));
    await recordAudit(tx, {
      actorId,
      action: 'refund',
      entity: 'purchase',
      entityId: row.purchase_id,
      changes: { amount, reason: input.reason, method: f.method, provider_refund_id: providerRefundId, credits_removed: ended.removedCreditIds, used: f.used },
    });
    return {
      purchase_id: row.purchase_id,
      purchase_status: ended.purchase.status,
      amount,
      method: f.method,
      reason: input.reason,
      provider_refund_id: providerRefundId,
      credits_removed: ended.removedCreditIds.length,
      refunded_at: now.toISOString(),
      refunded_by: actorId,
    };
  });
}
