import { activePenalty, DomainError, isReasonGiven } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { class_reservation_penalty } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';

/**
 * An administrator lifts a customer's active penalty before its end (PUT
 * /class_reservation_penaltys/{id}/lift): the customer books with her
 * unlimited package again at once. The reason is required and kept in
 * Actividad with who lifted it (decision 037); a penalty already over or
 * lifted is a 409, and nothing changes. The role is the route's (admin).
 */
export async function liftPenalty(db: Db, actor: StaffActor, input: { id: number; reason: string }, now: Date = new Date()) {
  const reason = input.reason.trim();
  if (!isReasonGiven(reason)) throw new DomainError('access/reason-required');
  return db.transaction(async (tx) => {
    const [penalty] = await tx.select().from(class_reservation_penalty).where(eq(class_reservation_penalty.class_reservation_penalty_id, input.id)).for('update').limit(1);
    if (!penalty) throw new DomainError('penalty/not-found');
    if (!activePenalty([penalty], now)) throw new DomainError('penalty/not-active');
    const [lifted] = await tx
      .update(class_reservation_penalty)
      .set({ deletedAt: now })
      .where(eq(class_reservation_penalty.class_reservation_penalty_id, penalty.class_reservation_penalty_id))
      .returning();
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'penalty.lift',
      entity: 'customer',
      entityId: penalty.customer_id,
      changes: { class_reservation_penalty_id: penalty.class_reservation_penalty_id, end_date: penalty.end_date.toISOString(), no_shows: penalty.no_shows, reason },
    });
    return lifted!;
  });
}
