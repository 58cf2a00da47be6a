import { deskMovableRefusal, deskMoveTargetRefusal, refuse } from '@estudio/core';
import type { Mutator } from './context.ts';
import { cancelOnReplica, reservationNamedBy } from './replica-rows.ts';
import { walkIn } from './walk-in.ts';

/** The server's moveReservation (`server/src/services/desk/move-reservation.ts`) on the replica. */
export const moveReservation: Mutator<'moveReservation'> = async (ctx, args) => {
  refuse(deskMoveTargetRefusal(args.from_single_class_id, args.single_class_id));
  const old = await reservationNamedBy(ctx.tx, { ...args, single_class_id: args.from_single_class_id });
  refuse(deskMovableRefusal(old));
  // Cancelled by staff (the credit comes back, no cancellation used), then booked as a walk-in; a refusal undoes both.
  const cancelled = await cancelOnReplica(ctx.tx, old, true, false, ctx.now);
  const booked = await walkIn(ctx, { customer_id: old.customer_id, single_class_id: args.single_class_id, spot: args.spot, guest: old.guest });
  return [...new Set([...cancelled, ...booked])];
};
