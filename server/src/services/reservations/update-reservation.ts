import { DomainError, guestSeatRefusal, guestUsesCredit, pickGuestCredit, refuse, studioTimeZone, type Role } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { notifyWaitlist } from '../waitlist/notify-waitlist.ts';
import { lockCreditsFor, lockReservationForChange, readClass } from './booking-locks.ts';
import { checkSeatAndPlaces, guardSpot, returnOneClass, spendCredit } from './create-reservation.ts';
import type { ReservationRow } from './reservation-output.ts';

export interface UpdateReservationInput {
  reservationId: number;
  /** Absent: unchanged; null: no seat. */
  spot?: number | null | undefined;
  /** Absent: unchanged; null: no guest. */
  guest?: string | null | undefined;
  /** Absent: unchanged; null: no seat for the guest. Dropping the guest drops the seat. */
  guestSpot?: number | null | undefined;
  actor: { customerId: number; role: Role };
  /**
   * The spec's guest call (PUT /single_class/guest) names a guest and has no seat
   * to give: it may add one without a seat, as staff may. Default: a customer's
   * guest on a seat-mapped class needs a seat.
   */
  guestSeatOptional?: boolean;
  now?: Date;
  /** To tell the class's waitlist when dropping the guest frees a place (decision 023). */
  messages?: MessageContext | undefined;
}

/**
 * Changes the seat, the guest or the guest's seat of a live reservation of a
 * class that has not started, under the booking locks and with the booking's
 * seat, guest and capacity rules (the reservation's own places and seats do
 * not count against it). Adding a guest when the studio charges guests
 * (guest_uses_credit) spends one more class credit, locked after the
 * customer and before the class as a booking does (decision 006); dropping
 * the guest gives that credit back. A customer changes only their own reservations.
 */
export async function updateReservation(db: Db, input: UpdateReservationInput): Promise<ReservationRow> {
  const now = input.now ?? new Date();
  const settings = await loadStudioSettings(db);
  const staff = input.actor.role === 'staff' || input.actor.role === 'admin';
  return db.transaction(async (tx) => {
    const locked: { credits: (typeof available_classes.$inferSelect)[] } = { credits: [] };
    const { reservation: r, klass: c } = await lockReservationForChange(tx, input.reservationId, staff ? undefined : input.actor.customerId, async (customerId) => {
      // Only a change that adds a guest may spend a credit; its lock comes before the class's.
      if (input.guest && guestUsesCredit(settings)) {
        const [current] = await tx
          .select({ guest: class_reservation.guest, single_class_id: class_reservation.single_class_id })
          .from(class_reservation)
          .where(eq(class_reservation.class_reservation_id, input.reservationId));
        if (current && current.guest === null) {
          locked.credits = await lockCreditsFor(tx, customerId, await readClass(tx, current.single_class_id));
        }
      }
    });
    if (c.class_date <= now) throw new DomainError('booking/class-started');

    const spot = input.spot === undefined ? r.spot : input.spot;
    const guest = input.guest === undefined ? r.guest : input.guest?.trim() || null;
    const guestSpot = guest === null ? null : input.guestSpot === undefined ? r.guest_spot : input.guestSpot;
    if (input.guestSpot != null && guest === null) throw new DomainError('booking/guest-spot-invalid');
    if (spot === r.spot && guest === r.guest && guestSpot === r.guest_spot) return r;
    if (!staff && !input.guestSeatOptional) refuse(guestSeatRefusal(c.spot_map, { spot, guest, guestSpot }));
    if (guestSpot !== null && guestSpot === spot) throw new DomainError('booking/guest-spot-invalid');
    // An unchanged seat or guest was valid when booked; only what changes is checked, so
    // moving seats is never refused because the studio lowered the capacity since.
    await checkSeatAndPlaces(tx, settings, c, {
      spot: spot === r.spot ? null : spot,
      guest: guest === r.guest ? null : guest,
      guestSpot: guestSpot === r.guest_spot ? null : guestSpot,
      reservationId: r.class_reservation_id,
    });

    let guestCreditId = r.guest_available_class_id;
    if (r.guest === null && guest !== null && guestUsesCredit(settings)) {
      const picked = pickGuestCredit(locked.credits, { classTypeId: c.class_type_id, classDate: c.class_date, timeZone: studioTimeZone(settings) }, null);
      if (!picked) throw new DomainError('booking/guest-no-credits');
      await spendCredit(tx, picked.available_class_id, now, 'booking/guest-no-credits');
      guestCreditId = picked.available_class_id;
    } else if (r.guest !== null && guest === null && r.guest_available_class_id !== null) {
      await returnOneClass(tx, r.guest_available_class_id, now);
      guestCreditId = null;
    }

    const [updated] = await guardSpot(() =>
      tx
        .update(class_reservation)
        .set({ spot, guest, guest_spot: guestSpot, guest_available_class_id: guestCreditId, updatedAt: now })
        .where(eq(class_reservation.class_reservation_id, r.class_reservation_id))
        .returning(),
    );
    if (!updated) throw new DomainError('reservation/not-found');
    if (r.guest !== null && guest === null) await notifyWaitlist(tx, c.single_class_id, now, input.messages);
    return updated;
  });
}
