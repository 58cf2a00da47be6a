import { DomainError, type DeskMutationArgs } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import type { ReservationRow } from '../reservations/reservation-output.ts';
import { reservationNamedBy } from './desk-reservation.ts';

export type UndoCheckInInput = DeskMutationArgs<'undoCheckIn'>;

/**
 * Undoes a mistaken check-in: the reservation is no longer
 * attended and its check-in time is cleared, so it counts as a no-show again
 * until scanned. Undoing a reservation that is not checked in changes
 * nothing and succeeds. Locks only the reservation row, like the check-in
 * (the last lock of the booking order, decision 006). Audited with the staff
 * member and the check-in time it removed.
 */
export async function undoCheckIn(db: Db, actor: StaffActor, input: UndoCheckInInput, now: Date = new Date()): Promise<ReservationRow> {
  return db.transaction(async (tx) => {
    await reservationNamedBy(tx, input);
    const [r] = await tx.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, input.class_reservation_id)).for('update');
    if (!r) throw new DomainError('reservation/not-found');
    if (r.deletedAt) throw new DomainError('checkin/reservation-cancelled');
    if (!r.attend) return r;
    const [updated] = await tx
      .update(class_reservation)
      .set({ attend: false, attendedAt: null, updatedAt: now })
      .where(eq(class_reservation.class_reservation_id, r.class_reservation_id))
      .returning();
    if (!updated) throw new DomainError('reservation/not-found');
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'reservation.check-in.undo',
      entity: 'class_reservation',
      entityId: r.class_reservation_id,
      changes: { customer_id: r.customer_id, single_class_id: r.single_class_id, attended_at: r.attendedAt?.toISOString() ?? null },
    });
    return updated;
  });
}
