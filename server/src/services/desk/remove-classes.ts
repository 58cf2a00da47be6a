import { DomainError, isReasonGiven, type DeskMutationArgs } from '@estudio/core';
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { available_classes } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';

export type RemoveClassesInput = DeskMutationArgs<'removeClasses'>;

/**
 * PUT /api/customer/removeClasses: takes `amount` classes from the customer's
 * live, unexpired credits, the ones that expire first first (the ones the
 * customer would lose soonest). Unlimited credits are not counted. All or
 * nothing: fewer classes than asked is access/not-enough-classes. Locks the
 * customer, then the credits, like a booking. A reason is required and kept
 * in the audit log with who took the classes (decision 037).
 */
export async function removeClasses(
  db: Db,
  actor: StaffActor,
  input: RemoveClassesInput,
  now: Date = new Date(),
): Promise<{ changedCreditIds: number[] }> {
  const reason = input.reason?.trim() || null;
  if (!isReasonGiven(reason)) throw new DomainError('access/reason-required');
  return db.transaction(async (tx) => {
    await lockCustomer(tx, input.customer_id);
    const credits = await tx
      .select({ id: available_classes.available_class_id, left: available_classes.available_classes })
      .from(available_classes)
      .where(
        and(
          eq(available_classes.customer_id, input.customer_id),
          isNull(available_classes.deletedAt),
          gt(available_classes.available_classes, 0),
          or(isNull(available_classes.expiration_date), gt(available_classes.expiration_date, now)),
        ),
      )
      .orderBy(sql`${available_classes.expiration_date} asc nulls last`, asc(available_classes.available_class_id))
      .for('update');
    const total = credits.reduce((sum, c) => sum + c.left, 0);
    if (total < input.amount) throw new DomainError('access/not-enough-classes');
    let remaining = input.amount;
    const changedCreditIds: number[] = [];
    for (const credit of credits) {
      if (remaining === 0) break;
      const take = Math.min(credit.left, remaining);
      await tx
        .update(available_classes)
        .set({ available_classes: credit.left - take, updatedAt: now })
        .where(eq(available_classes.available_class_id, credit.id));
      changedCreditIds.push(credit.id);
      remaining -= take;
    }
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'classes.remove',
      entity: 'customer',
      entityId: input.customer_id,
      changes: { amount: input.amount, available_class_ids: changedCreditIds, reason },
    });
    return { changedCreditIds };
  });
}
