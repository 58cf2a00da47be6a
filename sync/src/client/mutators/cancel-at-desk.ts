import { deskActionTime, deskOverrideRefusal, DomainError, evaluateCancellation, refuse } from '@estudio/core';
import { available_classes, single_class } from '@estudio/db';
import { eq } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { cancelOnReplica, reservationNamedBy } from './replica-rows.ts';

/**
 * The server's cancelAtDesk (`server/src/services/desk/cancel-at-desk.ts`) on
 * the replica: without an override the cancellation rules decide at the
 * desk's time; with one, staff decide the credit and give a reason.
 */
export const cancelReservation: Mutator<'cancelReservation'> = async ({ tx, now, settings }, args) => {
  const at = deskActionTime(args.at, now);
  refuse(deskOverrideRefusal(args.return_credit, args.reason));
  const r = await reservationNamedBy(tx, args);
  if (r.deletedAt) throw new DomainError('reservation/already-cancelled');
  if (args.return_credit !== null) return cancelOnReplica(tx, r, args.return_credit === true, false, at);
  const [c] = await tx.select({ class_date: single_class.class_date }).from(single_class).where(eq(single_class.single_class_id, r.single_class_id));
  if (!c) throw new DomainError('class/not-found');
  const [credit] = r.available_class_id
    ? await tx.select().from(available_classes).where(eq(available_classes.available_class_id, r.available_class_id))
    : [];
  const limited = credit !== undefined && credit.available_classes !== -1;
  const verdict = evaluateCancellation({ classDate: c.class_date, now: at, config: settings, cancelsUsed: limited ? credit.cancels_used : 0, cancelled: false });
  if (!verdict.allowed) throw new DomainError(verdict.code ?? 'reservation/cancel-disabled');
  return cancelOnReplica(tx, r, verdict.creditReturned, true, at);
};
