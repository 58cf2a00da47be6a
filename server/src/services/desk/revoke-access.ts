import { DomainError, isReasonGiven, toCents, type DeskMutationArgs } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import type { PurchaseRow } from '../checkout/grant-purchase.ts';
import { syncUnlimitedMembership } from '../credits/credit-rules.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { correctInvoiceOfReturn } from '../cfdi/correct-invoice.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';

export type RevokeAccessInput = DeskMutationArgs<'revokeAccess'>;

/**
 * PUT /api/customer/revokeAccess: ends what a purchase gave. The purchase
 * becomes 'revoked', its credits that are still live are soft-deleted (history
 * of the reservations they paid for is kept) and the unlimited membership is
 * recomputed from the credits left. Reservations already made stay: staff
 * cancel those one by one if they should go. Revoking twice is
 * access/already-revoked. A subscription paid through a provider is not
 * cancelled there by this: its renewals grant nothing to a revoked purchase
 * but are still charged, so staff cancel it too (Mis Compras or the provider).
 * A reason is required and kept in the audit log with who revoked (decision 037).
 */
export async function revokeAccess(
  db: Db,
  actor: StaffActor,
  input: RevokeAccessInput,
  now: Date = new Date(),
): Promise<{ purchase: PurchaseRow; removedCreditIds: number[] }> {
  const reason = input.reason?.trim() || null;
  if (!isReasonGiven(reason)) throw new DomainError('access/reason-required');
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ customer_id: purchase.customer_id }).from(purchase).where(eq(purchase.purchase_id, input.purchase_id));
    if (!row) throw new DomainError('purchase/not-found');
    // Customer, then the credits: the booking order, so a booking spending one of these credits cannot deadlock with this.
    await lockCustomer(tx, row.customer_id);
    const [current] = await tx.select().from(purchase).where(eq(purchase.purchase_id, input.purchase_id)).for('update');
    if (!current) throw new DomainError('purchase/not-found');
    if (current.status === 'revoked') throw new DomainError('access/already-revoked');
    const ended = await endPurchaseAccess(tx, current, now);
    // An annulled sale was not carried out: its invoice is cancelled (or corrected) with it (decision 086).
    if (current.status === 'active' || current.status === 'completed') await correctInvoiceOfReturn(tx, { purchaseId: current.purchase_id, returnedCents: toCents(current.total_payment), now });
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'access.revoke',
      entity: 'customer',
      entityId: current.customer_id,
      changes: { purchase_id: current.purchase_id, title: current.title, available_class_ids: ended.removedCreditIds, reason },
    });
    return ended;
  });
}

/**
 * Ends what a locked purchase gave: status 'revoked', its live credits
 * soft-deleted, the unlimited membership recomputed. One rule for revoking
 * and refunding (a refund ends the access too, decision 034). The caller holds
 * the customer's lock and the purchase's row lock.
 */
export async function endPurchaseAccess(tx: Tx, current: PurchaseRow, now: Date): Promise<{ purchase: PurchaseRow; removedCreditIds: number[] }> {
  const [revoked] = await tx
    .update(purchase)
    .set({ status: 'revoked', updatedAt: now })
    .where(eq(purchase.purchase_id, current.purchase_id))
    .returning();
  if (!revoked) throw new DomainError('purchase/not-found');
  const removed = await tx
    .update(available_classes)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(available_classes.purchase_id, current.purchase_id), isNull(available_classes.deletedAt)))
    .returning({ id: available_classes.available_class_id });
  await syncUnlimitedMembership(tx, current.customer_id, now);
  return { purchase: revoked, removedCreditIds: removed.map((r) => r.id) };
}
