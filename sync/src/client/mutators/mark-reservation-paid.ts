import { DomainError } from '@estudio/core';
import { class_reservation } from '@estudio/db';
import { eq } from 'drizzle-orm';
import type { Mutator } from './context.ts';

/** The server's markReservationPaid (`server/src/services/desk/mark-reservation-paid.ts`) on the replica. */
export const markReservationPaid: Mutator<'markReservationPaid'> = async ({ tx, now }, args) => {
  const [row] = await tx.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  if (!row) throw new DomainError('reservation/not-found');
  if (row.deletedAt) throw new DomainError('reservation/already-cancelled');
  // A reservation that was not a cash one is already paid.
  if (!row.is_cash || row.is_paid) return [];
  await tx
    .update(class_reservation)
    .set({ is_paid: true, updatedAt: now })
    .where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  return ['class_reservation'];
};
