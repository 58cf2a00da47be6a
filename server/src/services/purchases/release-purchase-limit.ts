import { DomainError, isReasonGiven, type PurchaseOutput } from '@estudio/core';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { releaseDiscountUse } from '../discounts/validate-discount.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { getPurchase } from './purchases.ts';

/**
 * POST /purchases/{id}/release-limit (admin): a purchase that was paid and
 * has ended (cancelled, revoked or refunded) still counts toward its
 * package's limit per customer and people, and toward its code's uses, for
 * good (purchase-caps.ts). An admin gives that use back, with a reason: the
 * customer may buy the package or use the code again. A purchase still live
 * holds its place and cannot be released. Who, why and what go to the
 * activity log in the same transaction.
 */
export async function releasePurchaseLimit(db: Db, actor: StaffActor, input: { id: number; reason: string }, now: Date = new Date()): Promise<PurchaseOutput> {
  const reason = input.reason.trim();
  if (!isReasonGiven(reason)) throw new DomainError('access/reason-required');
  const customerId = await db.transaction(async (tx) => {
    const [owner] = await tx.select({ customer_id: purchase.customer_id }).from(purchase).where(eq(purchase.purchase_id, input.id));
    if (!owner) throw new DomainError('purchase/not-found');
    await lockCustomer(tx, owner.customer_id);
    const [row] = await tx.select().from(purchase).where(eq(purchase.purchase_id, input.id)).for('update');
    if (!row) throw new DomainError('purchase/not-found');
    if (row.status === 'active' || row.status === 'completed' || row.status === 'pending') throw new DomainError('purchase/limit-still-held');
    const [released] = await tx
      .update(purchase)
      .set({ limitReleasedAt: now, updatedAt: now })
      .where(and(eq(purchase.purchase_id, row.purchase_id), isNotNull(purchase.paidAt), isNull(purchase.limitReleasedAt)))
      .returning({ id: purchase.purchase_id });
    if (!released) throw new DomainError('purchase/limit-not-taken');
    await releaseDiscountUse(tx, row.purchase_id);
    await recordAudit(tx, {
      actorId: actor.customer_id,
      action: 'purchase.limit-release',
      entity: 'customer',
      entityId: row.customer_id,
      changes: { purchase_id: row.purchase_id, title: row.title, discount_id: row.discount_id, reason },
    });
    return row.customer_id;
  });
  return getPurchase(db, input.id, { customer_id: customerId, role: 'admin' });
}
