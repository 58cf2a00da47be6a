import { formatMXN, isOn, localDate, localTimeHHmm, studioDayjs, studioDayRange, studioTimeZone, toCents } from '@estudio/core';
import { ownerDailySummary, type OwnerSummary } from '@estudio/core/messages/templates/studio';
import { and, asc, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { payment_method } from '@estudio/db/schema/payments';
import { purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueEmail } from '../messages/queue-message.ts';
import { attendanceReport, salesReport, soldBetween } from '../reports/reports.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { ClockJob } from './job.ts';

/** 'YYYY-MM-DD' plus `days` calendar days (on the date itself, so no time zone can shift it). */
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** A studio date as the e-mail says it: 'lunes 30 nov 2026'. */
const dayLabel = (date: string, tz: string) => studioDayjs(studioDayRange(date, date, tz).from, tz).locale('es').format('dddd D MMM YYYY');

/**
 * The owner's numbers for the day before `now` (the studio's calendar) and
 * the day after: attendance and no-shows from the attendance report, sales
 * from the sales report plus their split by payment method (the same rule:
 * paid, not a gift), the classes cancelled that day, and tomorrow's fill rate
 * per class (places taken, a guest taking one, over capacity).
 */
export async function ownerSummaryOf(db: Db, now: Date): Promise<Omit<OwnerSummary, 'businessName'> & { today: string }> {
  const settings = await loadStudioSettings(db);
  const tz = studioTimeZone(settings);
  const today = localDate(now, tz);
  const yesterday = addDays(today, -1);
  const tomorrow = addDays(today, 1);
  const day = { start_date: yesterday, end_date: yesterday };
  const y = studioDayRange(yesterday, yesterday, tz);
  const t = studioDayRange(tomorrow, tomorrow, tz);

  const [attendance, sales, byMethod, cancelled, nextDay] = await Promise.all([
    attendanceReport(db, day, now),
    salesReport(db, day),
    db
      .select({
        method: sql<string>`coalesce(${payment_method.name}, 'Sin método')`,
        count: sql<number>`count(*)::int`.mapWith(Number),
        cents: sql<number>`coalesce(sum(round(${purchase.total_payment} * 100)), 0)::bigint`.mapWith(Number),
      })
      .from(purchase)
      .leftJoin(payment_method, eq(payment_method.payment_method_id, purchase.payment_method_id))
      // The sales report's rule, split by payment method.
      .where(soldBetween(y.from, y.to))
      .groupBy(sql`1`)
      .orderBy(sql`3 desc`, sql`1`),
    db
      .select({ class_date: single_class.class_date, name: class_type.name })
      .from(single_class)
      .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
      .where(and(gte(single_class.cancelledAt, y.from), lte(single_class.cancelledAt, y.to)))
      .orderBy(asc(single_class.class_date), asc(single_class.single_class_id)),
    db
      .select({
        class_date: single_class.class_date,
        name: class_type.name,
        capacity: single_class.capacity,
        booked: sql<number>`(count(${class_reservation.class_reservation_id}) + count(${class_reservation.guest}))::int`.mapWith(Number),
      })
      .from(single_class)
      .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
      .leftJoin(class_reservation, and(eq(class_reservation.single_class_id, single_class.single_class_id), isNull(class_reservation.deletedAt)))
      .where(and(isNull(single_class.cancelledAt), gte(single_class.class_date, t.from), lte(single_class.class_date, t.to)))
      .groupBy(single_class.single_class_id, class_type.name)
      .orderBy(asc(single_class.class_date), asc(single_class.single_class_id)),
  ]);

  const sum = (pick: (r: (typeof attendance.by_class_type)[number]) => number) => attendance.by_class_type.reduce((n, r) => n + pick(r), 0);
  const tomorrowClasses = nextDay.map((c) => ({ className: c.name, time: localTimeHHmm(c.class_date, tz), booked: c.booked, capacity: c.capacity }));
  return {
    today,
    yesterday: dayLabel(yesterday, tz),
    tomorrow: dayLabel(tomorrow, tz),
    attendance: { classes: sum((r) => r.classes), booked: sum((r) => r.reservations), checkedIn: sum((r) => r.attended), noShows: sum((r) => r.no_shows) },
    sales: {
      count: sales.count,
      total: formatMXN(toCents(sales.total)),
      byMethod: byMethod.map((m) => ({ method: m.method, count: m.count, total: formatMXN(m.cents) })),
    },
    cancelledClasses: cancelled.map((c) => ({ className: c.name, time: `${localDate(c.class_date, tz) === yesterday ? '' : `${localDate(c.class_date, tz)} `}${localTimeHHmm(c.class_date, tz)}` })),
    tomorrowClasses,
    tomorrowTotal: {
      booked: tomorrowClasses.reduce((n, c) => n + c.booked, 0),
      capacity: tomorrowClasses.reduce((n, c) => n + c.capacity, 0),
    },
  };
}

/**
 * Queues the owner's daily summary e-mail (kind 'owner-daily-summary') to
 * owner_summary_email, or the studio's `email` setting when that is empty;
 * once per studio date (dedupe key 'owner-summary:<date>'), so a run repeated
 * after a crash sends nothing new. Nothing when the summary is switched off
 * or the studio has no address. Returns the messages queued (0 or 1).
 */
export async function queueOwnerSummary(db: Db, ctx: MessageContext, now: Date): Promise<number> {
  const settings = await loadStudioSettings(db);
  if (!isOn(settings.owner_summary_enabled)) return 0;
  const to = settings.owner_summary_email.trim() || settings.email.trim();
  if (!to) return 0;
  const { today, ...summary } = await ownerSummaryOf(db, now);
  return queueEmail(db, ctx, {
    to,
    parts: ownerDailySummary({ businessName: settings.business_name, ...summary }),
    dedupeKey: `owner-summary:${today}`,
  });
}

/** Daily at owner_summary_hour:00 on the studio's clock. */
export const ownerSummaryJob: ClockJob = {
  name: 'owner-summary',
  schedule: {
    daily: (settings) => {
      const hour = Number(settings.owner_summary_hour);
      return { hour: Number.isInteger(hour) && hour >= 0 && hour <= 23 ? hour : 7, minute: 0 };
    },
  },
  async run(ctx, now) {
    const queued = await queueOwnerSummary(ctx.db, ctx.messages, now);
    if (queued === 0) ctx.log.info({ job: 'owner-summary' }, 'owner summary not queued (off, no address, or already sent today)');
    return queued;
  },
};
