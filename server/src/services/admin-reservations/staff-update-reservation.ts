import { DomainError } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { lockReservationForChange } from '../reservations/booking-locks.ts';
import { checkSeatAndPlaces, guardSpot, returnOneClass } from '../reservations/create-reservation.ts';
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
  /** Absent: unchanged; null: no seat for the guest. */
  guest_spot?: number | null | undefined;
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
    // The guest's seat goes with the guest, and yields to the booker's own seat moved onto it.
    const guestSpot = guest === null ? null : input.guest_spot !== undefined ? input.guest_spot : spot === r.guest_spot ? null : r.guest_spot;
    if (guestSpot !== null && guestSpot === spot) throw new DomainError('booking/guest-spot-invalid');
    if (input.guest_spot != null && guest === null) throw new DomainError('booking/guest-spot-invalid');
    const seatChanged = spot !== r.spot || guest !== r.guest || guestSpot !== r.guest_spot;
    if (!seatChanged && attend === r.attend && isPaid === r.is_paid) return r;
    if (seatChanged) {
      if (c.class_date <= now) throw new DomainError('booking/class-started');
      await checkSeatAndPlaces(tx, settings, c, {
        spot: spot === r.spot ? null : spot,
        guest: guest === r.guest ? null : guest,
        guestSpot: guestSpot === r.guest_spot ? null : guestSpot,
        reservationId: r.class_reservation_id,
      });
    }
    const [updated] = await guardSpot(() =>
      tx
        .update(class_reservation)
        .set({
          spot,
          guest,
          guest_spot: guestSpot,
          guest_available_class_id: guest === null ? null : r.guest_available_class_id,
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
    if (r.guest !== null && guest === null) {
      // The credit that paid for the guest comes back with the guest's place.
      if (r.guest_available_class_id !== null) await returnOneClass(tx, r.guest_available_class_id, now);
      await notifyWaitlist(tx, c.single_class_id, now, messages);
    }
    const { class_reservation_id, ...sent } = input;
    await recordAudit(tx, { actorId: actor.customerId, action: 'update', entity: 'class_reservation', entityId: class_reservation_id, changes: sent });
    return updated;
  });
}
