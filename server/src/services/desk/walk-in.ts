import type { DeskMutationArgs } from '@estudio/core';
import { and, eq } from 'drizzle-orm';
import { waitlist } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
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
 * The booking and its activity row commit together: who booked, from which
 * desk and when, with the guest and the seat, and whether the customer was
 * given a place from the waitlist (the booking takes them off it).
 *
 * From a desk push, a refusal rolls back the whole mutation, including a
 * penalty the booking service records as it refuses; the portal's next
 * booking attempt records it again, as it is computed from the no-shows.
 */
export function walkIn(db: Db, actor: StaffActor, input: WalkInInput, now: Date = new Date()): Promise<ReservationRow> {
  return db.transaction(async (tx) => {
    const [waiting] = await tx
      .select({ id: waitlist.waitlist_id })
      .from(waitlist)
      .where(and(eq(waitlist.single_class_id, input.single_class_id), eq(waitlist.customer_id, input.customer_id)));
    const booked = await createReservation(tx, {
      customerId: input.customer_id,
      singleClassId: input.single_class_id,
      spot: input.spot,
      guest: input.guest,
      byStaff: true,
      now,
    });
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'reservation.walk-in',
      entity: 'class_reservation',
      entityId: booked.class_reservation_id,
      changes: { customer_id: booked.customer_id, single_class_id: booked.single_class_id, spot: booked.spot, guest: booked.guest, from_waitlist: Boolean(waiting) },
    });
    return booked;
  });
}
