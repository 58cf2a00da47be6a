import { isOn, studioTimeZone } from '@estudio/core';
import { classReminder, startsIn } from '@estudio/core/messages/templates/bookings';
import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { queueCustomerMessages, type CustomerMessage } from '../messages/queue-message.ts';
import { loadSingleClassOutputs } from '../schedule/single-class-output.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { bookedClassFacts } from './booked-class.ts';
import type { ClockJob } from './job.ts';

export const classRemindersName = 'class-reminders';

/** reminder_hours_before as milliseconds (2 h when unset or not a positive number). */
export function reminderLeadMs(settings: { reminder_hours_before?: string }): number {
  const n = Number(settings.reminder_hours_before);
  return (Number.isFinite(n) && n > 0 ? n : 2) * 3_600_000;
}

/**
 * Reminds each booking N hours before its class (decision 021;
 * reminders_enabled, reminder_hours_before, default 2). Who: live
 * reservations of classes (not cancelled) starting within the next N hours
 * that were booked before that window opened — a booking made inside it got
 * its confirmation moments ago. Stateless: a reservation whose reminder is
 * already in the outbox is skipped, so a restart, a missed minute or a
 * changed N neither repeats nor loses one (dedupe key 'reminder:<id>').
 * Optional message: customers can turn it off (stop link).
 */
export const classRemindersJob: ClockJob = {
  name: classRemindersName,
  schedule: { everyMs: 60_000 },
  async run(ctx, now) {
    const settings = await loadStudioSettings(ctx.db);
    if (!isOn(settings.reminders_enabled)) return 0;
    const lead = reminderLeadMs(settings);
    const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
    const rows = await ctx.db
      .select({
        id: class_reservation.class_reservation_id,
        customer_id: class_reservation.customer_id,
        single_class_id: class_reservation.single_class_id,
        access_code: class_reservation.access_code,
        spot: class_reservation.spot,
        guest: class_reservation.guest,
        guest_spot: class_reservation.guest_spot,
        name: customer.name,
      })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
      .where(
        and(
          isNull(class_reservation.deletedAt),
          isNull(single_class.cancelledAt),
          gt(single_class.class_date, at(now)),
          lte(single_class.class_date, at(new Date(now.getTime() + lead))),
          // Booked before the window opened (class start minus the lead).
          sql`${class_reservation.createdAt} < ${single_class.class_date} - make_interval(secs => ${lead / 1000})`,
          sql`not exists (select 1 from ${outbox_message} where ${outbox_message.dedupe_key} in ('reminder:' || ${class_reservation.class_reservation_id} || ':email', 'reminder:' || ${class_reservation.class_reservation_id} || ':whatsapp'))`,
        ),
      )
      .orderBy(asc(single_class.class_date), asc(class_reservation.class_reservation_id))
      .limit(500);
    if (rows.length === 0) return 0;
    const classes = new Map((await loadSingleClassOutputs(ctx.db, [...new Set(rows.map((r) => r.single_class_id))])).map((c) => [c.single_class_id, c]));
    const tz = studioTimeZone(settings);
    const reminders: CustomerMessage[] = [];
    for (const r of rows) {
      const c = classes.get(r.single_class_id);
      if (!c) continue;
      reminders.push({
        customerId: r.customer_id,
        dedupeKey: `reminder:${r.id}`,
        parts: classReminder({ ...bookedClassFacts(ctx.messages, c, r, r.name, tz), startsIn: startsIn(new Date(c.class_date).getTime() - now.getTime()) }),
      });
    }
    // One statement for the run's reminders; a reminder already queued (its dedupe key) is skipped.
    return ctx.db.transaction((tx) => queueCustomerMessages(tx, ctx.messages, reminders));
  },
};
