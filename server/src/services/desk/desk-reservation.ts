import { DomainError } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';

/**
 * The reservation a desk mutation names, when it is the customer's and the
 * class's the mutation says (they name the change to staff, also in a
 * refusal): otherwise reservation/not-found. Not locked; the service that
 * changes it locks it in the booking order.
 */
export async function reservationNamedBy(db: Db, args: { class_reservation_id: number; customer_id: number; single_class_id: number }) {
  const [row] = await db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  if (!row || row.customer_id !== args.customer_id || row.single_class_id !== args.single_class_id) throw new DomainError('reservation/not-found');
  return row;
}
