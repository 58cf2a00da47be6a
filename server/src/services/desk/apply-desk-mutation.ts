import type { DeskMutation } from '@estudio/core';
import type { Tx } from '@estudio/db';
import type { CustomerRow } from '../customer/find-customer.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { acceptDocumentsAtDesk } from './accept-documents-at-desk.ts';
import { cancelAtDesk } from './cancel-at-desk.ts';
import { checkIn } from './check-in.ts';
import { giveAccess } from './give-access.ts';
import { markCashPurchasePaid } from './mark-purchase-paid.ts';
import { markReservationPaid } from './mark-reservation-paid.ts';
import { removeClasses } from './remove-classes.ts';
import { revokeAccess } from './revoke-access.ts';
import { moveReservation } from './move-reservation.ts';
import { undoCheckIn } from './undo-check-in.ts';
import { joinWaitlistAtDesk, leaveWaitlistAtDesk } from './waitlist-at-desk.ts';
import { walkIn } from './walk-in.ts';

/**
 * Applies one mutation pushed by a desk with the same services as /api, inside
 * the push's transaction (pushMutations in @estudio/sync). `now` is the
 * server's time of the push; a check-in carries its own scan time in `at`.
 * `staff` is the signed-in desk account; the services authorise by role at the
 * router, and what a role may do beyond that (a gift's limit) in the service, so a replay is judged too; the actions of issue 16 record it in the audit log as who did them.
 */
export async function applyDeskMutation(
  tx: Tx,
  staff: Pick<CustomerRow, 'customer_id'>,
  mutation: DeskMutation,
  now: Date,
  messages?: MessageContext,
): Promise<unknown> {
  switch (mutation.name) {
    case 'checkIn':
      return checkIn(tx, mutation.args, now);
    case 'walkIn':
      return walkIn(tx, mutation.args, now);
    case 'markReservationPaid':
      return markReservationPaid(tx, mutation.args, now);
    case 'markPurchasePaid':
      return markCashPurchasePaid(tx, mutation.args, messages ?? null, now);
    case 'giveAccess':
      return giveAccess(tx, staff, mutation.args, messages ?? null, now);
    case 'revokeAccess':
      return revokeAccess(tx, staff, mutation.args, now);
    case 'removeClasses':
      return removeClasses(tx, staff, mutation.args, now);
    case 'cancelReservation':
      return cancelAtDesk(tx, staff.customer_id, mutation.args, now, messages);
    case 'undoCheckIn':
      return undoCheckIn(tx, staff.customer_id, mutation.args, now);
    case 'moveReservation':
      return moveReservation(tx, staff.customer_id, mutation.args, now, messages);
    case 'joinWaitlist':
      return joinWaitlistAtDesk(tx, staff.customer_id, mutation.args, now);
    case 'leaveWaitlist':
      return leaveWaitlistAtDesk(tx, staff.customer_id, mutation.args);
    case 'acceptDocuments':
      return acceptDocumentsAtDesk(tx, staff.customer_id, mutation.args, now);
  }
}
