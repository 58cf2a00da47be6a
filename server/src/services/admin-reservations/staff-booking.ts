import type { Role } from '@estudio/core';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { checkIn } from '../desk/check-in.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { cancelReservation, type CancelReservationResult } from '../reservations/cancel-reservation.ts';
import { createReservation, PenalizedError, type CreateReservationInput } from '../reservations/create-reservation.ts';
import type { ReservationRow } from '../reservations/reservation-output.ts';
import type { Actor } from '../admin-schedule/save-class.ts';

/*
 * Staff writes through the booking services, each wrapped in one outer
 * transaction with its audit_log row: the booking service runs on that
 * transaction (its own becomes a savepoint), so the change and its record
 * commit or roll back together. The wrappers take no lock before the service,
 * so the lock order stays the service's (decision 006).
 */

/**
 * POST /api/class_reservations by staff for a customer: the customer's booking
 * (credits, seat, places, package-only) with byStaff (no lead time, only the
 * class end). A penalty created by the refusal is kept, as it is for the customer.
 */
export async function staffCreateReservation(
  db: Db,
  input: Omit<CreateReservationInput, 'byStaff'>,
  actor: Actor,
): Promise<ReservationRow> {
  const outcome = await db.transaction(async (tx): Promise<{ reservation: ReservationRow } | { refused: PenalizedError }> => {
    try {
      const reservation = await createReservation(tx, { ...input, byStaff: true });
      await recordAudit(tx, {
        actorId: actor.customerId,
        action: 'create',
        entity: 'class_reservation',
        entityId: reservation.class_reservation_id,
        changes: { customer_id: input.customerId, single_class_id: input.singleClassId, spot: input.spot ?? null, guest: input.guest ?? null },
      });
      return { reservation };
    } catch (error) {
      // Committing the outer transaction keeps a penalty the refusal created.
      if (error instanceof PenalizedError) return { refused: error };
      throw error;
    }
  });
  if ('refused' in outcome) throw outcome.refused;
  return outcome.reservation;
}

/** DELETE /api/class_reservations/{id} by staff or admin: always allowed, the credit always comes back; audited. */
export async function staffCancelReservation(
  db: Db,
  reservationId: number,
  actor: Actor & { role: Role },
  messages?: MessageContext,
): Promise<CancelReservationResult> {
  return db.transaction(async (tx) => {
    const result = await cancelReservation(tx, { reservationId, actor, mode: 'staff', messages });
    await recordAudit(tx, {
      actorId: actor.customerId,
      action: 'cancel',
      entity: 'class_reservation',
      entityId: reservationId,
      changes: { customer_id: result.reservation.customer_id, credit_returned: result.creditReturned },
    });
    return result;
  });
}

/** PUT /api/class_reservations/{id}/checkin: the desk's check-in service (today's class only; twice is harmless), which writes the activity row. */
export function staffCheckIn(db: Db, reservationId: number, actor: Actor, now: Date = new Date()): Promise<ReservationRow> {
  return checkIn(db, { customer_id: actor.customerId }, { class_reservation_id: reservationId }, now);
}
