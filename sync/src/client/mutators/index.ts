import type { DeskMutationArgs, DeskMutationName, ReplicatedTable } from '@estudio/core';
import { acceptDocuments } from './accept-documents-at-desk.ts';
import { cancelReservation } from './cancel-at-desk.ts';
import { checkIn } from './check-in.ts';
import type { Mutator, MutatorContext } from './context.ts';
import { addCustomerNote, removeCustomerNote } from './customer-notes.ts';
import { giveAccess } from './give-access.ts';
import { markPurchasePaid } from './mark-purchase-paid.ts';
import { markReservationPaid } from './mark-reservation-paid.ts';
import { moveReservation } from './move-reservation.ts';
import { registerCustomer } from './register-customer.ts';
import { removeClasses } from './remove-classes.ts';
import { revokeAccess } from './revoke-access.ts';
import { sellAtDesk } from './sell-at-desk.ts';
import { undoCheckIn } from './undo-check-in.ts';
import { joinWaitlist, leaveWaitlist } from './waitlist-at-desk.ts';
import { walkIn } from './walk-in.ts';

export { forgetReplicaSettings, loadReplicaSettings, replicaSettings, type MutatorContext } from './context.ts';

const mutators: { [N in DeskMutationName]: Mutator<N> } = {
  checkIn,
  walkIn,
  markReservationPaid,
  markPurchasePaid,
  giveAccess,
  sellAtDesk,
  revokeAccess,
  removeClasses,
  cancelReservation,
  undoCheckIn,
  moveReservation,
  joinWaitlist,
  leaveWaitlist,
  acceptDocuments,
  addCustomerNote,
  removeCustomerNote,
  registerCustomer,
};

/** Runs the local mutator of `name`; returns the tables it changed. Throws DomainError when the replica says the server would refuse. */
export function runMutator<N extends DeskMutationName>(name: N, ctx: MutatorContext, args: DeskMutationArgs<N>): Promise<ReplicatedTable[]> {
  const mutator = mutators[name] as Mutator<N>;
  return mutator(ctx, args);
}
