import { DomainError, hasRoomFor, isOn, type ReservationOutput, type Role } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { countPlaces, lockClass } from '../reservations/booking-locks.ts';
import { updateReservation } from '../reservations/update-reservation.ts';
import { toReservationOutput } from '../reservations/reservation-output.ts';
import { loadStudioSettings } from './studio-settings.ts';

export interface GuestCaller {
  customer_id: number;
  role: Role;
}

/**
 * PUT /single_class/guest: names (or renames) the guest of a live reservation
 * ('Nombre actualizado.'). A customer may touch only their own reservation of a
 * class that has not started (another customer's is 404); staff and admin any
 * live one. Renaming an existing guest takes no new place; adding a guest where
 * there was none needs allow_class_guests and a free place, checked with the
 * class row locked (the same lock bookings take) so it cannot overbook.
 */
export async function updateGuestName(
  db: Db,
  input: { class_reservation_id: number; name: string },
  caller: GuestCaller,
  now: Date = new Date(),
): Promise<ReservationOutput> {
  const staff = caller.role === 'staff' || caller.role === 'admin';
  const name = input.name.trim();
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ single_class_id: class_reservation.single_class_id, customer_id: class_reservation.customer_id, guest: class_reservation.guest })
      .from(class_reservation)
      .where(eq(class_reservation.class_reservation_id, input.class_reservation_id));
    if (!found || (!staff && found.customer_id !== caller.customer_id)) throw new DomainError('reservation/not-found');
    // Adding a guest is a change of the booking (its place, seat and, when guests are charged, a credit): the booking's rule decides.
    if (found.guest === null && !staff) {
      return toReservationOutput(
        await updateReservation(tx, {
          reservationId: input.class_reservation_id,
          guest: name,
          actor: { customerId: caller.customer_id, role: caller.role },
          guestSeatOptional: true,
          now,
        }),
      );
    }

    // The class lock every booking takes: places are counted only by its holder.
    const cls = await lockClass(tx, found.single_class_id);
    const [reservation] = await tx
      .select()
      .from(class_reservation)
      .where(eq(class_reservation.class_reservation_id, input.class_reservation_id));
    if (!reservation) throw new DomainError('reservation/not-found');
    if (reservation.deletedAt) throw new DomainError('reservation/already-cancelled');
    if (cls.cancelledAt) throw new DomainError('booking/class-cancelled');
    if (!staff && cls.class_date.getTime() <= now.getTime()) throw new DomainError('booking/class-started');

    if (reservation.guest === null) {
      const settings = await loadStudioSettings(tx);
      if (!isOn(settings.allow_class_guests)) throw new DomainError('booking/guest-not-allowed');
      const places = await countPlaces(tx, reservation.single_class_id);
      if (!hasRoomFor({ capacity: cls.capacity, reservation_count: places }, 1)) throw new DomainError('booking/class-full');
    }

    const [updated] = await tx
      .update(class_reservation)
      .set({ guest: name, updatedAt: now })
      .where(eq(class_reservation.class_reservation_id, reservation.class_reservation_id))
      .returning();
    if (!updated) throw new DomainError('reservation/not-found');
    return toReservationOutput(updated);
  });
}
