import { deskActionTime, deskOverrideRefusal, refuse, type DeskMutationArgs } from '@estudio/core';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { cancelReservation, type CancelReservationResult } from '../reservations/cancel-reservation.ts';
import { reservationNamedBy } from './desk-reservation.ts';

export type CancelAtDeskInput = DeskMutationArgs<'cancelReservation'>;

/**
 * A reservation cancelled by staff at the desk. Without an
 * override the spec's rules decide, as if the customer cancelled at `at`
 * (the desk's time, so a cancellation made offline is judged when it was
 * made): too late gives no credit back, a disabled or spent cancellation is
 * refused with the rule's message. With `return_credit` staff decide the
 * credit whatever the rules say, and must give a reason. Every desk
 * cancellation is recorded in the audit log with the staff member, what the
 * rules said, what was done and why, in the cancellation's transaction.
 */
export async function cancelAtDesk(
  db: Db,
  actor: StaffActor,
  input: CancelAtDeskInput,
  now: Date = new Date(),
  messages?: MessageContext,
): Promise<CancelReservationResult> {
  const at = deskActionTime(input.at, now);
  const override = input.return_credit !== null;
  const reason = input.reason?.trim() || null;
  refuse(deskOverrideRefusal(input.return_credit, reason));
  return db.transaction(async (tx) => {
    await reservationNamedBy(tx, input);
    const result = await cancelReservation(tx, {
      reservationId: input.class_reservation_id,
      actor: { customerId: actor.customer_id, role: 'staff' },
      mode: 'customer',
      override: override ? { returnCredit: input.return_credit === true } : undefined,
      now: at,
      messages,
    });
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: override ? 'reservation.cancel.override' : 'reservation.cancel',
      entity: 'class_reservation',
      entityId: input.class_reservation_id,
      changes: {
        customer_id: input.customer_id,
        single_class_id: input.single_class_id,
        at: at.toISOString(),
        credit_returned: result.creditReturned,
        rules: result.rules ?? null,
        reason,
      },
    });
    return result;
  });
}
