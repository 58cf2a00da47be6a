import { DomainError } from '@estudio/core';
import { class_reservation } from '@estudio/db';
import { eq } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { reservationNamedBy } from './replica-rows.ts';

/** The server's undoCheckIn (`server/src/services/desk/undo-check-in.ts`) on the replica. */
export const undoCheckIn: Mutator<'undoCheckIn'> = async ({ tx, now }, args) => {
  const r = await reservationNamedBy(tx, args);
  if (r.deletedAt) throw new DomainError('checkin/reservation-cancelled');
  if (!r.attend) return [];
  await tx
    .update(class_reservation)
    .set({ attend: false, attendedAt: null, updatedAt: now })
    .where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
  return ['class_reservation'];
};
