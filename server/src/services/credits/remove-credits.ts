import { DomainError } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { available_classes } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { syncUnlimitedMembership } from './credit-rules.ts';

/**
 * DELETE /available_classes/{id} (staff, admin): a soft delete (deletedAt), so
 * the reservations it paid for keep their history. A removed -1 credit ends the
 * unlimited membership unless another one is still valid.
 */
export async function removeCredits(db: Db, id: number, now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ customer_id: available_classes.customer_id })
      .from(available_classes)
      .where(and(eq(available_classes.available_class_id, id), isNull(available_classes.deletedAt)));
    if (!owner) throw new DomainError('credit/not-found');
    // Customer, then credit: the order booking transactions lock in, so the two never deadlock.
    await lockCustomer(tx, owner.customer_id);
    const [row] = await tx
      .update(available_classes)
      .set({ deletedAt: now })
      .where(and(eq(available_classes.available_class_id, id), isNull(available_classes.deletedAt)))
      .returning({ customer_id: available_classes.customer_id, available_classes: available_classes.available_classes });
    if (!row) throw new DomainError('credit/not-found');
    if (row.available_classes === -1) await syncUnlimitedMembership(tx, row.customer_id, now);
  });
}
