import { describeWeeklySlot, domainErrors, isDomainErrorCode, isInWeeklySlot, standingHorizonMs, studioTimeZone, type standingBookingOutput } from '@estudio/core';
import { and, asc, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import type { z } from 'zod';
import { class_type, location } from '@estudio/db/schema/catalogue';
import { standing_booking } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { weeksOf } from './book-standing-weeks.ts';

export type StandingBookingOutput = z.infer<typeof standingBookingOutput>;

/**
 * GET /api/standing_bookings: the caller's live weekly places, each with the
 * slot's classes from now to a week past the horizon and what became of each
 * week (those not tried yet are 'pendiente': booked when they open).
 */
export async function listStandingBookings(db: Db, customerId: number, now: Date = new Date(), only?: number): Promise<StandingBookingOutput[]> {
  const places = await db
    .select({ s: standing_booking, class_type_name: class_type.name, location_name: location.name })
    .from(standing_booking)
    .innerJoin(class_type, eq(class_type.class_type_id, standing_booking.class_type_id))
    .innerJoin(location, eq(location.location_id, standing_booking.location_id))
    .where(
      and(
        eq(standing_booking.customer_id, customerId),
        isNull(standing_booking.endedAt),
        only === undefined ? undefined : eq(standing_booking.standing_booking_id, only),
      ),
    )
    .orderBy(asc(standing_booking.weekday), asc(standing_booking.start_minute), asc(standing_booking.standing_booking_id));
  if (places.length === 0) return [];
  const settings = await loadStudioSettings(db);
  const tz = studioTimeZone(settings);
  // A week past what the clock books: the customer sees her next class coming, booked once it opens.
  const until = new Date(now.getTime() + standingHorizonMs(settings) + 7 * 86_400_000);
  const classes = await db
    .select({
      single_class_id: single_class.single_class_id,
      class_date: single_class.class_date,
      class_type_id: single_class.class_type_id,
      location_id: single_class.location_id,
    })
    .from(single_class)
    .where(
      and(
        inArray(single_class.class_type_id, places.map((p) => p.s.class_type_id)),
        isNull(single_class.cancelledAt),
        isNull(single_class.class_package_id),
        gt(single_class.class_date, now),
        lte(single_class.class_date, until),
      ),
    )
    .orderBy(asc(single_class.class_date));
  const tried = await weeksOf(db, places.map((p) => p.s.standing_booking_id));
  return places.map(({ s, class_type_name, location_name }) => ({
    standing_booking_id: s.standing_booking_id,
    class_type_id: s.class_type_id,
    class_type_name,
    location_id: s.location_id,
    location_name,
    weekday: s.weekday,
    start_minute: s.start_minute,
    label: describeWeeklySlot(s),
    spot: s.spot,
    createdAt: s.createdAt.toISOString(),
    weeks: classes
      .filter((c) => isInWeeklySlot(s, c, tz))
      .map((c) => {
        const week = tried.find((w) => w.standing_booking_id === s.standing_booking_id && w.single_class_id === c.single_class_id);
        const status = !week ? 'pendiente' : week.refusal !== null ? 'no-reservada' : week.cancelled ? 'cancelada' : 'reservada';
        const reason = week?.refusal == null ? null : isDomainErrorCode(week.refusal) ? domainErrors[week.refusal].message : null;
        return { single_class_id: c.single_class_id, class_date: c.class_date.toISOString(), status, class_reservation_id: week?.class_reservation_id ?? null, reason } as const;
      }),
  }));
}
