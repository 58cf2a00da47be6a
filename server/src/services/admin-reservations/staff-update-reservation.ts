import { DomainError } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { lockReservationForChange } from '../reservations/booking-locks.ts';
import { checkSeatAndPlaces, guardSpot } from '../reservations/create-reservation.ts';
import type { ReservationRow } from '../reservations/reservation-output.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { notifyWaitlist } from '../waitlist/notify-waitlist.ts';
import type { Actor } from '../admin-schedule/save-class.ts';

export interface StaffUpdateReservationInput {
  class_reservation_id: number;
  /** Absent: unchanged; null: no seat. */
  spot?: number | null | undefined;
  /** Absent: unchanged; null: no guest. */
  guest?: string | null | undefined;
  attend?: boolean | undefined;
  is_paid?: boolean | undefined;
}

/**
 * PUT /api/class_reservations by staff or admin: seat and guest with the
 * booking's rules (only before the class starts), attendance (any time of a
 * live class: staff mark it during or after the class) and payment, under the
 * booking locks (customer, class, reservation) and audited in the same
 * transaction. Nothing changes when the values sent are the current ones.
 */
export async function staffUpdateReservation(
  db: Db,
  input: StaffUpdateReservationInput,
  actor: Actor,
  now: Date = new Date(),
  messages?: MessageContext,
): Promise<ReservationRow> {
  const settings = await loadStudioSettings(db);
  return db.transaction(async (tx) => {
    const { reservation: r, klass: c } = await lockReservationForChange(tx, input.class_reservation_id);

    const spot = input.spot === undefined ? r.spot : input.spot;
    const guest = input.guest === undefined ? r.guest : input.guest?.trim() || null;
    const attend = input.attend ?? r.attend;
    const isPaid = input.is_paid ?? r.is_paid;
    const seatChanged = spot !== r.spot || guest !== r.guest;
    if (!seatChanged && attend === r.attend && isPaid === r.is_paid) return r;
    if (seatChanged) {
      if (c.class_date <= now) throw new DomainError('booking/class-started');
      await checkSeatAndPlaces(tx, settings, c, {
        spot: spot === r.spot ? null : spot,
        guest: guest === r.guest ? null : guest,
        reservationId: r.class_reservation_id,
      });
    }
    const [updated] = await guardSpot(() =>
      tx
        .update(class_reservation)
        .set({
          spot,
          guest,
          attend,
          // The first check-in time is kept; unmarking attendance clears it.
          attendedAt: attend ? (r.attendedAt ?? now) : null,
          // Attendance marked after the clock's no-show clears it (decision 021).
          ...(attend ? { noShowAt: null } : {}),
          is_paid: isPaid,
          updatedAt: now,
        })
        .where(eq(class_reservation.class_reservation_id, r.class_reservation_id))
        .returning(),
    );
    if (!updated) throw new DomainError('reservation/not-found');
    // Dropping the guest frees a place: the class's waitlist hears of it (decision 023).
    if (r.guest !== null && guest === null) await notifyWaitlist(tx, c.single_class_id, now, messages);
    const { class_reservation_id, ...sent } = input;
    await recordAudit(tx, { actorId: actor.customerId, action: 'update', entity: 'class_reservation', entityId: class_reservation_id, changes: sent });
    return updated;
  });
}
