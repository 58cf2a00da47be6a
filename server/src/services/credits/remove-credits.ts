import { DomainError, isReasonGiven } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { available_classes } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { syncUnlimitedMembership } from './credit-rules.ts';

/**
 * DELETE /available_classes/{id}?reason=… (staff, admin): a soft delete
 * (deletedAt), so the reservations it paid for keep their history. A removed
 * -1 credit ends the unlimited membership unless another one is still valid.
 * A reason is required (as for removing classes, decision 037) and kept in the
 * activity log with who removed what, in the same transaction.
 */
export async function removeCredits(db: Db, actor: StaffActor, input: { id: number; reason?: string | null | undefined }, now: Date = new Date()): Promise<void> {
  const reason = input.reason?.trim() || null;
  if (!isReasonGiven(reason)) throw new DomainError('access/reason-required');
  await db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ customer_id: available_classes.customer_id })
      .from(available_classes)
      .where(and(eq(available_classes.available_class_id, input.id), isNull(available_classes.deletedAt)));
    if (!owner) throw new DomainError('credit/not-found');
    // Customer, then credit: the order booking transactions lock in, so the two never deadlock.
    await lockCustomer(tx, owner.customer_id);
    const [row] = await tx
      .update(available_classes)
      .set({ deletedAt: now })
      .where(and(eq(available_classes.available_class_id, input.id), isNull(available_classes.deletedAt)))
      .returning({ customer_id: available_classes.customer_id, available_classes: available_classes.available_classes, purchase_id: available_classes.purchase_id });
    if (!row) throw new DomainError('credit/not-found');
    if (row.available_classes === -1) await syncUnlimitedMembership(tx, row.customer_id, now);
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'credits.remove',
      entity: 'customer',
      entityId: row.customer_id,
      changes: { available_class_id: input.id, available_classes: row.available_classes, purchase_id: row.purchase_id, reason },
    });
  });
}
