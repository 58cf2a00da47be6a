import { DomainError, type AvailableClassOutput } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { available_classes } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { toCreditOutput } from './credit-output.ts';
import { assertClassTypeExists, syncUnlimitedMembership } from './credit-rules.ts';

export interface UpdateCreditsInput {
  id: number;
  available_classes?: number | undefined;
  expiration_date?: string | null | undefined;
  class_type_id?: number | null | undefined;
  allowed_times?: string | null | undefined;
}

/**
 * PUT /available_classes/{id} (staff, admin): corrects a credit row. Only the
 * fields sent change (null clears an expiry, a class type or allowed times);
 * 0 classes is allowed here, it is how staff take the rest of a credit away.
 * The row is locked so a booking spending it at the same moment is not lost.
 */
export async function updateCredits(db: Db, input: UpdateCreditsInput, now: Date = new Date()): Promise<AvailableClassOutput> {
  return db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ customer_id: available_classes.customer_id })
      .from(available_classes)
      .where(and(eq(available_classes.available_class_id, input.id), isNull(available_classes.deletedAt)));
    if (!owner) throw new DomainError('credit/not-found');
    // Customer, then credit: the order booking transactions lock in, so the two never deadlock.
    await lockCustomer(tx, owner.customer_id);
    const [current] = await tx
      .select()
      .from(available_classes)
      .where(and(eq(available_classes.available_class_id, input.id), isNull(available_classes.deletedAt)))
      .for('update');
    if (!current) throw new DomainError('credit/not-found');
    await assertClassTypeExists(tx, input.class_type_id);
    const patch: Partial<typeof available_classes.$inferInsert> = {};
    if (input.available_classes !== undefined) patch.available_classes = input.available_classes;
    if (input.expiration_date !== undefined) patch.expiration_date = input.expiration_date ? new Date(input.expiration_date) : null;
    if (input.class_type_id !== undefined) patch.class_type_id = input.class_type_id;
    if (input.allowed_times !== undefined) patch.allowed_times = input.allowed_times;
    const [row] = Object.keys(patch).length
      ? await tx.update(available_classes).set(patch).where(eq(available_classes.available_class_id, current.available_class_id)).returning()
      : [current];
    if (!row) throw new DomainError('credit/not-found');
    if (current.available_classes === -1 || row.available_classes === -1) await syncUnlimitedMembership(tx, row.customer_id, now);
    const [type] = row.class_type_id === null ? [] : await tx.select().from(class_type).where(eq(class_type.class_type_id, row.class_type_id));
    return toCreditOutput(row, type ?? null);
  });
}
