import { DomainError, isReasonGiven, type AvailableClassOutput } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { available_classes } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { assertMayChangeCredits, type StaffActor } from '../permissions/staff-permissions.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { toCreditOutput } from './credit-output.ts';
import { assertClassTypeExists, syncUnlimitedMembership } from './credit-rules.ts';

export interface UpdateCreditsInput {
  id: number;
  available_classes?: number | undefined;
  expiration_date?: string | null | undefined;
  class_type_id?: number | null | undefined;
  allowed_times?: string | null | undefined;
  reason?: string | null | undefined;
}

type CreditRow = typeof available_classes.$inferSelect;

/** Whether a correction makes a credit good for longer, for any class type or for more hours: a gift of value, like more classes. */
function widens(current: CreditRow, patch: Partial<typeof available_classes.$inferInsert>): boolean {
  if (patch.expiration_date !== undefined && current.expiration_date !== null) {
    if (patch.expiration_date === null || patch.expiration_date.getTime() > current.expiration_date.getTime()) return true;
  }
  if (patch.class_type_id !== undefined && patch.class_type_id !== current.class_type_id && current.class_type_id !== null) return true;
  if (patch.allowed_times !== undefined && current.allowed_times !== null) {
    const before = new Set(current.allowed_times.split(','));
    if (patch.allowed_times === null || patch.allowed_times.split(',').some((t) => !before.has(t))) return true;
  }
  return false;
}

/**
 * PUT /available_classes/{id} (staff, admin): corrects a credit row. Only the
 * fields sent change (null clears an expiry, a class type or allowed times);
 * 0 classes is allowed here, it is how staff take the rest of a credit away.
 * The row is locked so a booking spending it at the same moment is not lost.
 * A reason is required; what it gives is judged like a gift
 * (assertMayChangeCredits: Recepción adds classes within the owner's limit and
 * never makes a credit unlimited, longer or wider) and the change, before and
 * after, goes to the activity log in the same transaction.
 */
export async function updateCredits(db: Db, actor: StaffActor, input: UpdateCreditsInput, now: Date = new Date()): Promise<AvailableClassOutput> {
  const reason = input.reason?.trim() || null;
  if (!isReasonGiven(reason)) throw new DomainError('access/reason-required');
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
    await assertMayChangeCredits(tx, actor, {
      classesBefore: current.available_classes,
      classesAfter: patch.available_classes ?? current.available_classes,
      widens: widens(current, patch),
    });
    const [row] = Object.keys(patch).length
      ? await tx.update(available_classes).set(patch).where(eq(available_classes.available_class_id, current.available_class_id)).returning()
      : [current];
    if (!row) throw new DomainError('credit/not-found');
    if (current.available_classes === -1 || row.available_classes === -1) await syncUnlimitedMembership(tx, row.customer_id, now);
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'credits.update',
      entity: 'customer',
      entityId: row.customer_id,
      changes: {
        available_class_id: row.available_class_id,
        available_classes: { from: current.available_classes, to: row.available_classes },
        expiration_date: { from: current.expiration_date?.toISOString() ?? null, to: row.expiration_date?.toISOString() ?? null },
        class_type_id: { from: current.class_type_id, to: row.class_type_id },
        allowed_times: { from: current.allowed_times, to: row.allowed_times },
        reason,
      },
    });
    const [type] = row.class_type_id === null ? [] : await tx.select().from(class_type).where(eq(class_type.class_type_id, row.class_type_id));
    return toCreditOutput(row, type ?? null);
  });
}
