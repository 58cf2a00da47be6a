import { DomainError } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { standing_booking } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';

/**
 * DELETE /api/standing_bookings/{id}: the customer stops booking the slot
 * every week. Bookings already made stay (she cancels each as any booking);
 * another customer's place answers as one that does not exist.
 */
export async function endStandingBooking(db: Db, customerId: number, standingBookingId: number, now: Date = new Date()): Promise<void> {
  const [ended] = await db
    .update(standing_booking)
    .set({ endedAt: now })
    .where(and(eq(standing_booking.standing_booking_id, standingBookingId), eq(standing_booking.customer_id, customerId), isNull(standing_booking.endedAt)))
    .returning({ id: standing_booking.standing_booking_id });
  if (!ended) throw new DomainError('standing/not-found');
}
