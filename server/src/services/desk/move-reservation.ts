import { deskMovableRefusal, deskMoveTargetRefusal, refuse, type DeskMutationArgs } from '@estudio/core';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { enterClassGate } from '../reservations/booking-locks.ts';
import { cancelReservation } from '../reservations/cancel-reservation.ts';
import { createReservation } from '../reservations/create-reservation.ts';
import type { ReservationRow } from '../reservations/reservation-output.ts';
import { reservationNamedBy } from './desk-reservation.ts';

export type MoveReservationInput = DeskMutationArgs<'moveReservation'>;

/**
 * Moves a customer's reservation to another class in one transaction (issue
 * 16): the old reservation is cancelled by staff (its credit comes back
 * without using one of the customer's cancellations, and its class's
 * waitlist hears of the free place), then the new class is booked as a desk
 * booking with the same guest and the seat asked for — the booking service's
 * capacity, seat, credit and penalty rules and the locks of decision 006.
 * If the new class refuses (full, seat taken, no credit for that class), the
 * whole move rolls back and the old reservation stays as it was.
 *
 * Both class gates are entered first, in class id order, before any row
 * lock, so a move never waits on a class cancellation in the wrong order.
 */
export async function moveReservation(
  db: Db,
  actor: StaffActor,
  input: MoveReservationInput,
  now: Date = new Date(),
  messages?: MessageContext,
): Promise<ReservationRow> {
  refuse(deskMoveTargetRefusal(input.from_single_class_id, input.single_class_id));
  return db.transaction(async (tx) => {
    for (const id of [input.from_single_class_id, input.single_class_id].sort((a, b) => a - b)) await enterClassGate(tx, id);
    const old = await reservationNamedBy(tx, { ...input, single_class_id: input.from_single_class_id });
    refuse(deskMovableRefusal(old));
    await cancelReservation(tx, { reservationId: old.class_reservation_id, actor: { customerId: actor.customer_id, role: 'staff' }, mode: 'staff', now, messages, tellCustomer: false });
    const moved = await createReservation(tx, {
      customerId: old.customer_id,
      singleClassId: input.single_class_id,
      spot: input.spot,
      guest: old.guest,
      byStaff: true,
      now,
    });
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'reservation.move',
      entity: 'class_reservation',
      entityId: moved.class_reservation_id,
      changes: {
        customer_id: old.customer_id,
        from_reservation_id: old.class_reservation_id,
        from_single_class_id: old.single_class_id,
        single_class_id: moved.single_class_id,
        spot: moved.spot,
      },
    });
    return moved;
  });
}
