import type { StandingSlot } from '@estudio/core';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '@estudio/db';
import { standing_booking } from '@estudio/db/schema/reservations';

const inSlot = (slot: StandingSlot) =>
  and(
    isNull(standing_booking.endedAt),
    eq(standing_booking.class_type_id, slot.class_type_id),
    eq(standing_booking.location_id, slot.location_id),
    eq(standing_booking.weekday, slot.weekday),
    eq(standing_booking.start_minute, slot.start_minute),
  );

/**
 * A series moved to another weekly slot (its time, place or discipline, from
 * a class on): the customers' standing places in its old slot move with it,
 * so "Reservar cada semana" keeps booking the same series (decisions 105,
 * 138). In the caller's transaction. A customer who already holds a place in
 * the new slot keeps that one; her place in the old slot ends. Answers how
 * many places moved or ended.
 */
export async function moveStandingPlaces(tx: Tx, from: StandingSlot, to: StandingSlot, now: Date): Promise<number> {
  if (from.class_type_id === to.class_type_id && from.location_id === to.location_id && from.weekday === to.weekday && from.start_minute === to.start_minute) return 0;
  const heldThere = sql`exists (select 1 from ${standing_booking} o where o.customer_id = ${standing_booking.customer_id} and o.ended_at is null
    and o.class_type_id = ${to.class_type_id} and o.location_id = ${to.location_id} and o.weekday = ${to.weekday} and o.start_minute = ${to.start_minute})`;
  const ended = await tx.update(standing_booking).set({ endedAt: now }).where(and(inSlot(from), heldThere)).returning({ id: standing_booking.standing_booking_id });
  const moved = await tx.update(standing_booking).set(to).where(inSlot(from)).returning({ id: standing_booking.standing_booking_id });
  return ended.length + moved.length;
}
