import { DomainError, weeklySlotOf, studioTimeZone } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { isUniqueViolation } from '@estudio/db/errors';
import { class_reservation, standing_booking } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { bookStandingWeeks } from './book-standing-weeks.ts';
import { listStandingBookings, type StandingBookingOutput } from './list-standing-bookings.ts';

/**
 * POST /api/standing_bookings ("Reservar cada semana", decision 105): the
 * customer keeps a place in the weekly slot of a class she names (its
 * discipline, location, weekday and hour on the studio's clock), with her
 * seat in it if she holds one. The slot's weeks up to the horizon are booked
 * at once, each through the booking service; the answer says which were and
 * why the others were not. Asking again for the same slot answers the same place.
 */
export async function startStandingBooking(
  db: Db,
  input: { customerId: number; singleClassId: number; spot?: number | null | undefined; now?: Date },
): Promise<StandingBookingOutput> {
  const now = input.now ?? new Date();
  const [c] = await db.select().from(single_class).where(eq(single_class.single_class_id, input.singleClassId));
  if (!c) throw new DomainError('class/not-found');
  if (c.class_package_id !== null) throw new DomainError('standing/special-class');
  if (c.cancelledAt !== null || c.class_date.getTime() <= now.getTime()) throw new DomainError('standing/class-over');
  const slot = weeklySlotOf(c, studioTimeZone(await loadStudioSettings(db)));
  const [held] = await db
    .select({ spot: class_reservation.spot })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, c.single_class_id), eq(class_reservation.customer_id, input.customerId), isNull(class_reservation.deletedAt)));
  const spot = input.spot ?? held?.spot ?? null;
  const id = await insertOrFind(db, { customer_id: input.customerId, ...slot, spot });
  await bookStandingWeeks(db, { now, messages: null, standingBookingId: id });
  const [place] = await listStandingBookings(db, input.customerId, now, id);
  if (!place) throw new DomainError('standing/not-found');
  return place;
}

async function insertOrFind(db: Db, row: typeof standing_booking.$inferInsert): Promise<number> {
  const same = and(
    eq(standing_booking.customer_id, row.customer_id),
    eq(standing_booking.class_type_id, row.class_type_id),
    eq(standing_booking.location_id, row.location_id),
    eq(standing_booking.weekday, row.weekday),
    eq(standing_booking.start_minute, row.start_minute),
    isNull(standing_booking.endedAt),
  );
  const [existing] = await db.select({ id: standing_booking.standing_booking_id }).from(standing_booking).where(same);
  if (existing) return existing.id;
  try {
    const [created] = await db.insert(standing_booking).values(row).returning({ id: standing_booking.standing_booking_id });
    return created!.id;
  } catch (error) {
    // Two taps at once: the other one made it.
    if (!isUniqueViolation(error, 'standing_booking_slot_key')) throw error;
    const [other] = await db.select({ id: standing_booking.standing_booking_id }).from(standing_booking).where(same);
    if (!other) throw error;
    return other.id;
  }
}
