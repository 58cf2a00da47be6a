import { DomainError, isReasonGiven, type AvailableClassOutput } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { available_classes } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { assertMayChangeCredits, type StaffActor } from '../permissions/staff-permissions.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { toCreditOutput } from './credit-output.ts';
import { assertClassTypeExists, syncUnlimitedMembership } from './credit-rules.ts';

export interface GrantCreditsInput {
  customer_id: number;
  available_classes: number;
  expiration_date?: string | null | undefined;
  class_type_id?: number | null | undefined;
  allowed_times?: string | null | undefined;
  reason?: string | null | undefined;
}

/**
 * POST /available_classes (staff, admin) and the previous panel's
 * giveClasses: gives a customer credits outside a purchase (a courtesy, a
 * correction). At least one class, or -1 for unlimited, which also makes the
 * customer an unlimited member until the credit's expiry. An expiry must lie
 * in the future. It is a gift: a reason is required, Recepción gives within
 * the owner's limit (assertMayChangeCredits: no unlimited, no credit without
 * an expiry), and who gave what, to whom and why goes to the activity log in
 * the same transaction.
 */
export async function grantCredits(db: Db, actor: StaffActor, input: GrantCreditsInput, now: Date = new Date()): Promise<AvailableClassOutput> {
  const reason = input.reason?.trim() || null;
  if (!isReasonGiven(reason)) throw new DomainError('access/reason-required');
  if (input.available_classes === 0) throw new DomainError('credit/invalid-amount');
  const expiration = input.expiration_date ? new Date(input.expiration_date) : null;
  if (expiration && expiration.getTime() <= now.getTime()) throw new DomainError('credit/expiration-past');
  return db.transaction(async (tx) => {
    // Customer first, as every booking transaction locks (no deadlock with a booking spending credits).
    const owner = await lockCustomer(tx, input.customer_id);
    await assertMayChangeCredits(tx, actor, { classesBefore: 0, classesAfter: input.available_classes, widens: expiration === null });
    await assertClassTypeExists(tx, input.class_type_id);
    const [row] = await tx
      .insert(available_classes)
      .values({
        customer_id: owner.customer_id,
        available_classes: input.available_classes,
        expiration_date: expiration,
        class_type_id: input.class_type_id ?? null,
        allowed_times: input.allowed_times ?? null,
      })
      .returning();
    if (!row) throw new DomainError('credit/not-found');
    if (row.available_classes === -1) await syncUnlimitedMembership(tx, owner.customer_id, now);
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'credits.grant',
      entity: 'customer',
      entityId: owner.customer_id,
      changes: {
        available_class_id: row.available_class_id,
        available_classes: row.available_classes,
        expiration_date: row.expiration_date?.toISOString() ?? null,
        class_type_id: row.class_type_id,
        allowed_times: row.allowed_times,
        reason,
      },
    });
    const [type] = row.class_type_id === null ? [] : await tx.select().from(class_type).where(eq(class_type.class_type_id, row.class_type_id));
    return toCreditOutput(row, type ?? null);
  });
}
