import { DomainError, type DeskMutationArgs } from '@estudio/core';
import { and, eq } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import type { ReservationRow } from '../reservations/reservation-output.ts';

export type MarkReservationPaidInput = DeskMutationArgs<'markReservationPaid'>;

/**
 * Cash collected at the desk for a reservation booked to pay at the studio.
 * Paying twice (a double click, a replay) changes nothing; a reservation that
 * was not a cash one is already paid. A cancelled reservation takes no money.
 * The collection and its activity row (who took the money, at which desk,
 * when) commit together.
 */
export async function markReservationPaid(db: Db, actor: StaffActor, input: MarkReservationPaidInput, now: Date = new Date()): Promise<ReservationRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(class_reservation)
      .where(eq(class_reservation.class_reservation_id, input.class_reservation_id))
      .for('update');
    if (!row) throw new DomainError('reservation/not-found');
    if (row.deletedAt) throw new DomainError('reservation/already-cancelled');
    if (!row.is_cash || row.is_paid) return row;
    const [paid] = await tx
      .update(class_reservation)
      .set({ is_paid: true, updatedAt: now })
      .where(and(eq(class_reservation.class_reservation_id, row.class_reservation_id), eq(class_reservation.is_paid, false)))
      .returning();
    if (!paid) return row;
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'reservation.mark-paid',
      entity: 'class_reservation',
      entityId: paid.class_reservation_id,
      changes: { customer_id: paid.customer_id, single_class_id: paid.single_class_id },
    });
    return paid;
  });
}
