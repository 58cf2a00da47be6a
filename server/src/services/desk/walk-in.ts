import type { DeskMutationArgs } from '@estudio/core';
import type { Db } from '../../db.ts';
import { createReservation } from '../reservations/create-reservation.ts';
import type { ReservationRow } from '../reservations/reservation-output.ts';

export type WalkInInput = DeskMutationArgs<'walkIn'>;

/**
 * Books a class for a customer standing at the desk, through the portal's
 * booking service, so a desk cannot overbook, double-book a seat or spend a
 * credit the customer does not have (decision 006 locks included).
 *
 * What staff skip (`byStaff`): only the booking window. The portal stops
 * bookings some time before class start so the studio can plan; at the desk the
 * person is already in the room, so booking is allowed until the class ends.
 * Everything else stays strict: capacity, the seat, credits and their class
 * type and times, package-only classes, one booking per class, and the
 * unlimited members' no-show penalty (staff cannot lift a penalty by booking).
 *
 * From a desk push, a refusal rolls back the whole mutation, including a
 * penalty the booking service records as it refuses; the portal's next
 * booking attempt records it again, as it is computed from the no-shows.
 */
export function walkIn(db: Db, input: WalkInInput, now: Date = new Date()): Promise<ReservationRow> {
  return createReservation(db, {
    customerId: input.customer_id,
    singleClassId: input.single_class_id,
    spot: input.spot,
    guest: input.guest,
    byStaff: true,
    now,
  });
}
