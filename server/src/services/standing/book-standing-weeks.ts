import { checkBookingWindow, DomainError, domainErrors, isDomainErrorCode, isInWeeklySlot, standingHorizonMs, studioTimeZone } from '@estudio/core';
import { classWhen } from '@estudio/core/messages/templates/bookings';
import { standingBookingMissed } from '@estudio/core/messages/templates/standing';
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation, standing_booking, standing_booking_week } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { createReservation } from '../reservations/create-reservation.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { classBookingUrl } from '../waitlist/notify-waitlist.ts';

type StandingRow = typeof standing_booking.$inferSelect;

/** What one week's try came to: booked (now or earlier by the customer), or the refusal's code. */
export type WeekOutcome = { single_class_id: number; booked: number } | { single_class_id: number; refused: string };

export interface StandingRun {
  booked: number;
  refused: number;
  messages: number;
  outcomes: WeekOutcome[];
}

/**
 * Books the weeks of standing places ("Reservar cada semana", decision 105):
 * for each live place, the slot's live classes from now until the horizon
 * (as far as the studio opens booking, or a week) that it has not booked yet
 * are booked through the booking service (createReservation: credits,
 * penalties, capacity, seats and the booking window, exactly as when the
 * customer taps Reservar). A week is booked once: a booking the customer
 * cancels is never made again. A refused week is tried again on later runs
 * (a package bought, a place freed) and the customer is told of it once, when
 * `messages` is given (the clock; the portal shows the refusal itself).
 * One place only with `standingBookingId` (a place just started).
 */
export async function bookStandingWeeks(
  db: Db,
  options: { now: Date; messages: MessageContext | null; standingBookingId?: number },
): Promise<StandingRun> {
  const { now } = options;
  const settings = await loadStudioSettings(db);
  const tz = studioTimeZone(settings);
  const until = new Date(now.getTime() + standingHorizonMs(settings));
  const places = await db
    .select({ s: standing_booking })
    .from(standing_booking)
    .innerJoin(customer, eq(customer.customer_id, standing_booking.customer_id))
    .where(
      and(
        isNull(standing_booking.endedAt),
        isNull(customer.deletedAt),
        options.standingBookingId === undefined ? undefined : eq(standing_booking.standing_booking_id, options.standingBookingId),
      ),
    )
    .orderBy(asc(standing_booking.createdAt), asc(standing_booking.standing_booking_id));
  const run: StandingRun = { booked: 0, refused: 0, messages: 0, outcomes: [] };
  for (const { s } of places) {
    for (const c of await weeksToTry(db, s, now, until, tz)) {
      // A class whose booking opens later is booked by a later run; any other refusal is the booking service's to give.
      const window = checkBookingWindow({ classDate: c.class_date, now, config: settings });
      if (!window.ok && window.code === 'booking/not-open-yet') continue;
      const outcome = await bookWeek(db, s, c, now);
      run.outcomes.push(outcome);
      if ('booked' in outcome) {
        run.booked++;
        continue;
      }
      run.refused++;
      if (options.messages) run.messages += await tellMissedWeek(db, options.messages, s, c, outcome.refused, tz);
    }
  }
  return run;
}

/** Refusals no later run can turn into a booking: the week is not tried again. */
const finalRefusals = ['booking/outside-window', 'booking/class-started', 'booking/class-cancelled', 'booking/package-only'];

interface WeekClass {
  single_class_id: number;
  class_date: Date;
  class_type_id: number;
  location_id: number;
  name: string;
}

/** The slot's live classes up to the horizon, not yet booked by this place (a week refused for a reason that may pass is tried again). */
async function weeksToTry(db: Db, s: StandingRow, now: Date, until: Date, tz: string): Promise<WeekClass[]> {
  const rows = await db
    .select({
      single_class_id: single_class.single_class_id,
      class_date: single_class.class_date,
      class_type_id: single_class.class_type_id,
      location_id: single_class.location_id,
      name: class_type.name,
    })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(
      and(
        eq(single_class.class_type_id, s.class_type_id),
        eq(single_class.location_id, s.location_id),
        isNull(single_class.cancelledAt),
        // Special classes are one-offs, never a week of a standing place.
        isNull(single_class.class_package_id),
        gt(single_class.class_date, now),
        lte(single_class.class_date, until),
        sql`not exists (select 1 from ${standing_booking_week} w where w.standing_booking_id = ${s.standing_booking_id}
          and w.single_class_id = ${single_class.single_class_id} and (w.refusal is null or w.refusal in ${finalRefusals}))`,
      ),
    )
    .orderBy(asc(single_class.class_date));
  return rows.filter((c) => isInWeeklySlot(s, c, tz));
}

/**
 * One week, in one transaction with its record: the customer's own live
 * booking of the class counts as this week's; otherwise the booking service
 * books the place's seat, or any place when that seat is taken.
 */
async function bookWeek(db: Db, s: StandingRow, c: WeekClass, now: Date): Promise<WeekOutcome> {
  try {
    const reservationId = await db.transaction(async (tx) => {
      const id = (await ownBooking(tx, s, c)) ?? (await bookSeatOrAnyPlace(tx, s, c, now));
      await recordWeek(tx, s, c, { class_reservation_id: id, refusal: null });
      return id;
    });
    return { single_class_id: c.single_class_id, booked: reservationId };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // Booked meanwhile (the customer, or the clock beside a place just started): that booking is this week's.
    const own = error.code === 'booking/already-booked' ? await ownBooking(db, s, c) : null;
    if (own !== null) {
      await recordWeek(db, s, c, { class_reservation_id: own, refusal: null });
      return { single_class_id: c.single_class_id, booked: own };
    }
    await recordWeek(db, s, c, { class_reservation_id: null, refusal: error.code });
    return { single_class_id: c.single_class_id, refused: error.code };
  }
}

/** The customer's own live booking of the class, if any. */
async function ownBooking(db: Db, s: StandingRow, c: WeekClass): Promise<number | null> {
  const [own] = await db
    .select({ id: class_reservation.class_reservation_id })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, c.single_class_id), eq(class_reservation.customer_id, s.customer_id), isNull(class_reservation.deletedAt)));
  return own?.id ?? null;
}

async function bookSeatOrAnyPlace(tx: Db, s: StandingRow, c: WeekClass, now: Date): Promise<number> {
  const booking = { customerId: s.customer_id, singleClassId: c.single_class_id, byStaff: false, now };
  try {
    return (await createReservation(tx, { ...booking, spot: s.spot })).class_reservation_id;
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'booking/spot-taken' || s.spot === null) throw error;
    return (await createReservation(tx, booking)).class_reservation_id;
  }
}

async function recordWeek(db: Db, s: StandingRow, c: WeekClass, result: { class_reservation_id: number | null; refusal: string | null }): Promise<void> {
  await db
    .insert(standing_booking_week)
    .values({ standing_booking_id: s.standing_booking_id, single_class_id: c.single_class_id, ...result })
    .onConflictDoUpdate({
      target: [standing_booking_week.standing_booking_id, standing_booking_week.single_class_id],
      set: result,
      // A week once booked stays booked: a refusal racing it never overwrites it.
      setWhere: result.refusal === null ? undefined : isNotNull(standing_booking_week.refusal),
    });
}

/** The refusal told once per place and class ('standing-missed:<place>:<class>'). */
async function tellMissedWeek(db: Db, ctx: MessageContext, s: StandingRow, c: WeekClass, code: string, tz: string): Promise<number> {
  const [who] = await db.select({ name: customer.name }).from(customer).where(eq(customer.customer_id, s.customer_id));
  return queueCustomerMessage(db, ctx, {
    customerId: s.customer_id,
    parts: standingBookingMissed({
      name: who?.name ?? null,
      className: c.name,
      when: classWhen(c.class_date, tz),
      reason: isDomainErrorCode(code) ? domainErrors[code].message : domainErrors.validation.message,
      classUrl: classBookingUrl(ctx, c.single_class_id, c.class_date, tz),
    }),
    dedupeKey: `standing-missed:${s.standing_booking_id}:${c.single_class_id}`,
  });
}

/** The places' weeks as the customer sees them (list and start answers). */
export async function weeksOf(db: Db, standingBookingIds: readonly number[]) {
  if (standingBookingIds.length === 0) return [];
  return db
    .select({
      standing_booking_id: standing_booking_week.standing_booking_id,
      single_class_id: standing_booking_week.single_class_id,
      class_reservation_id: standing_booking_week.class_reservation_id,
      refusal: standing_booking_week.refusal,
      cancelled: sql<boolean>`${class_reservation.deletedAt} is not null`,
    })
    .from(standing_booking_week)
    .leftJoin(class_reservation, eq(class_reservation.class_reservation_id, standing_booking_week.class_reservation_id))
    .where(inArray(standing_booking_week.standing_booking_id, [...standingBookingIds]));
}
