import { DomainError, type Role } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { notifyWaitlist } from '../waitlist/notify-waitlist.ts';
import { lockReservationForChange } from './booking-locks.ts';
import { checkSeatAndPlaces, guardSpot } from './create-reservation.ts';
import type { ReservationRow } from './reservation-output.ts';

export interface UpdateReservationInput {
  reservationId: number;
  /** Absent: unchanged; null: no seat. */
  spot?: number | null | undefined;
  /** Absent: unchanged; null: no guest. */
  guest?: string | null | undefined;
  actor: { customerId: number; role: Role };
  now?: Date;
  /** To tell the class's waitlist when dropping the guest frees a place (decision 023). */
  messages?: MessageContext | undefined;
}

/**
 * Changes the seat or the guest of a live reservation of a class that has not
 * started, under the booking locks and with the booking's seat, guest and
 * capacity rules (the reservation's own places and seat do not count against
 * it). A customer changes only their own reservations.
 */
export async function updateReservation(db: Db, input: UpdateReservationInput): Promise<ReservationRow> {
  const now = input.now ?? new Date();
  const settings = await loadStudioSettings(db);
  const staff = input.actor.role === 'staff' || input.actor.role === 'admin';
  return db.transaction(async (tx) => {
    const { reservation: r, klass: c } = await lockReservationForChange(tx, input.reservationId, staff ? undefined : input.actor.customerId);
    if (c.class_date <= now) throw new DomainError('booking/class-started');

    const spot = input.spot === undefined ? r.spot : input.spot;
    const guest = input.guest === undefined ? r.guest : input.guest?.trim() || null;
    if (spot === r.spot && guest === r.guest) return r;
    // An unchanged seat or guest was valid when booked; only what changes is checked, so
    // moving seats is never refused because the studio lowered the capacity since.
    await checkSeatAndPlaces(tx, settings, c, {
      spot: spot === r.spot ? null : spot,
      guest: guest === r.guest ? null : guest,
      reservationId: r.class_reservation_id,
    });
    const [updated] = await guardSpot(() =>
      tx
        .update(class_reservation)
        .set({ spot, guest, updatedAt: now })
        .where(eq(class_reservation.class_reservation_id, r.class_reservation_id))
        .returning(),
    );
    if (!updated) throw new DomainError('reservation/not-found');
    if (r.guest !== null && guest === null) await notifyWaitlist(tx, c.single_class_id, now, input.messages);
    return updated;
  });
}
