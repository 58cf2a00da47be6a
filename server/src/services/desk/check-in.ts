import { checkInRefusal, checkInWindow, deskActionTime, DomainError, refuse, studioTimeZone, type DeskMutationArgs } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { ReservationRow } from '../reservations/reservation-output.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';

export type CheckInInput = DeskMutationArgs<'checkIn'>;

/**
 * Marks a reservation attended. `at` is when staff scanned it (a check-in made
 * offline is judged by the day it happened, not the day it reached the
 * server): the class must be on that calendar day in the studio's time zone.
 * A cancelled reservation or class is refused; checking in twice keeps the
 * first time and succeeds, so a double scan or a replay is harmless. A first
 * check-in must fall inside the check-in window (app config
 * check_in_opens_minutes / check_in_closes_minutes, decision 016).
 *
 * Locks only the reservation row: it is the last lock of the booking order
 * (decision 006), so a check-in never waits on a booking in the wrong order.
 * A first check-in writes the activity row (who, from which desk, when it was
 * scanned); a repeated scan changes nothing and writes none.
 */
export async function checkIn(db: Db, actor: StaffActor, input: CheckInInput, now: Date = new Date()): Promise<ReservationRow> {
  const at = deskActionTime(input.at, now);
  const settings = await loadStudioSettings(db);
  const tz = studioTimeZone(settings);

  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({
        reservation: class_reservation,
        class_date: single_class.class_date,
        duration_minutes: single_class.duration_minutes,
        cancelledAt: single_class.cancelledAt,
      })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(eq(class_reservation.class_reservation_id, input.class_reservation_id))
      .for('update', { of: class_reservation });
    if (!found) throw new DomainError('reservation/not-found');
    const { reservation } = found;
    // Inside the studio's check-in window (decision 016), judged by the scan's time.
    refuse(
      checkInRefusal(
        {
          reservationCancelled: reservation.deletedAt !== null,
          classCancelled: found.cancelledAt !== null,
          attended: reservation.attend === true,
          classDate: found.class_date,
          window: checkInWindow(found.class_date, found.duration_minutes, settings),
          timeZone: tz,
        },
        at,
      ),
    );
    if (reservation.attend) return reservation;
    const [updated] = await tx
      .update(class_reservation)
      .set({ attend: true, attendedAt: at, noShowAt: null, updatedAt: now })
      .where(eq(class_reservation.class_reservation_id, reservation.class_reservation_id))
      .returning();
    if (!updated) throw new DomainError('reservation/not-found');
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'reservation.check-in',
      entity: 'class_reservation',
      entityId: updated.class_reservation_id,
      changes: { customer_id: updated.customer_id, single_class_id: updated.single_class_id, at: at.toISOString() },
    });
    return updated;
  });
}
