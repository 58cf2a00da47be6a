import type { DeskMutation } from '@estudio/core';
import type { MutationOrigin } from '@estudio/sync';
import type { Tx } from '@estudio/db';
import type { CustomerRow } from '../customer/find-customer.ts';
import type { MessageContext } from '../messages/message-context.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { acceptDocumentsAtDesk } from './accept-documents-at-desk.ts';
import { addCustomerNote, removeCustomerNote } from '../customer/customer-notes.ts';
import { cancelAtDesk } from './cancel-at-desk.ts';
import { checkIn } from './check-in.ts';
import { giveAccess } from './give-access.ts';
import { markCashPurchasePaid } from './mark-purchase-paid.ts';
import { markReservationPaid } from './mark-reservation-paid.ts';
import { registerAtDesk } from './register-at-desk.ts';
import { removeClasses } from './remove-classes.ts';
import { revokeAccess } from './revoke-access.ts';
import { sellAtDesk } from './sell-at-desk.ts';
import { moveReservation } from './move-reservation.ts';
import { undoCheckIn } from './undo-check-in.ts';
import { joinWaitlistAtDesk, leaveWaitlistAtDesk } from './waitlist-at-desk.ts';
import { walkIn } from './walk-in.ts';

/**
 * Applies one mutation pushed by a desk with the same services as /api, inside
 * the push's transaction (pushMutations in @estudio/sync). `now` is the
 * server's time of the push; `origin` says which desk pushed it and when staff
 * did it there (a check-in also carries its own scan time in `at`). `staff` is
 * the signed-in desk account; the services authorise by role at the router,
 * and what a role may do beyond that (a gift's limit) in the service, so a
 * replay is judged too. Every action that changes a customer's bookings,
 * attendance, credits or money writes its activity row with the staff member,
 * the desk and the desk's time, in the action's transaction.
 */
export async function applyDeskMutation(
  tx: Tx,
  staff: Pick<CustomerRow, 'customer_id'>,
  mutation: DeskMutation,
  now: Date,
  origin?: MutationOrigin,
  messages?: MessageContext,
): Promise<unknown> {
  const actor: StaffActor = { customer_id: staff.customer_id, ...(origin ? { desk: { id: origin.clientId, at: origin.at } } : {}) };
  switch (mutation.name) {
    case 'checkIn':
      return checkIn(tx, actor, mutation.args, now);
    case 'walkIn':
      return walkIn(tx, actor, mutation.args, now);
    case 'markReservationPaid':
      return markReservationPaid(tx, actor, mutation.args, now);
    case 'markPurchasePaid':
      return markCashPurchasePaid(tx, actor, mutation.args, messages ?? null, now);
    case 'giveAccess':
      return giveAccess(tx, actor, mutation.args, messages ?? null, now);
    case 'sellAtDesk':
      return sellAtDesk(tx, actor, mutation.args, messages ?? null, now);
    case 'revokeAccess':
      return revokeAccess(tx, actor, mutation.args, now);
    case 'removeClasses':
      return removeClasses(tx, actor, mutation.args, now);
    case 'cancelReservation':
      return cancelAtDesk(tx, actor, mutation.args, now, messages);
    case 'undoCheckIn':
      return undoCheckIn(tx, actor, mutation.args, now);
    case 'moveReservation':
      return moveReservation(tx, actor, mutation.args, now, messages);
    case 'joinWaitlist':
      return joinWaitlistAtDesk(tx, actor, mutation.args, now);
    case 'leaveWaitlist':
      return leaveWaitlistAtDesk(tx, actor, mutation.args);
    case 'acceptDocuments':
      return acceptDocumentsAtDesk(tx, actor, mutation.args, now);
    case 'addCustomerNote':
      return addCustomerNote(tx, actor, mutation.args, now);
    case 'removeCustomerNote':
      return removeCustomerNote(tx, actor, mutation.args);
    case 'registerCustomer':
      return registerAtDesk(tx, actor, mutation.args);
  }
}
