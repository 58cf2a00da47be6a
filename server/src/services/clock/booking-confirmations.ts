import {
  cancellationRuleText,
  creditBackUntil,
  icsInvitation,
  isOn,
  reservationEventUid,
  studioTimeZone,
  texts,
} from '@estudio/core';
import { bookingConfirmation, classWhen } from '@estudio/core/messages/templates/bookings';
import { asc, gt, max, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { calendarUrlOf, preferencesOf, queueCustomerMessage } from '../messages/queue-message.ts';
import { loadSingleClassOutputs } from '../schedule/single-class-output.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { bookedClassFacts } from './booked-class.ts';
import type { ClockJob } from './job.ts';
import { readJobState, writeJobState } from './state.ts';

export const bookingConfirmationsName = 'booking-confirmations';

/**
 * Reservations read per run; the rest wait for the next run (5 s). One
 * transaction holds them, and on embedded PGlite a transaction holds the
 * whole database, so a run stays short.
 */
const batch = 100;
/**
 * The watermark passes a reservation only once it is this old: a booking
 * transaction that drew a lower id but commits after a higher one is still
 * read by a later run (its createdAt is its transaction's start).
 */
const settleMs = 60_000;

/**
 * Confirms every new booking (decision 021): the class, coach,
 * date and time in the studio's zone, location, access code, the link to Mis
 * Reservaciones (the QR), how to cancel, an .ics invitation and the
 * customer's private calendar feed. Reads class_reservation, so bookings
 * from every path (portal, desk, admin, desk sync) are covered. State: the
 * id below which every reservation was handled (`after`); the first run
 * starts it at the newest booking, so a studio that turns the clock on does
 * not message its old bookings. Idempotent: dedupe key 'booking:<id>'.
 * A booking made by the waitlist's automatic promotion is not confirmed
 * again: its 'waitlist-promoted' message (decision 023) already carries the
 * access code and how to cancel.
 */
export const bookingConfirmationsJob: ClockJob = {
  name: bookingConfirmationsName,
  // As often as the clock ticks (CLOCK_TICK_MS, 5 s): a customer waits for this one; the run reads only rows past its watermark.
  schedule: { everyMs: 5_000 },
  async run(ctx, now) {
    return ctx.db.transaction(async (tx) => {
      const state = await readJobState<{ after: number }>(tx, bookingConfirmationsName);
      const [{ newest } = { newest: null }] = await tx.select({ newest: max(class_reservation.class_reservation_id) }).from(class_reservation);
      const settings = await loadStudioSettings(tx);
      if (typeof state.after !== 'number' || !isOn(settings.booking_confirmations_enabled)) {
        // First run, or confirmations off: nothing booked so far is confirmed later.
        await writeJobState(tx, bookingConfirmationsName, { after: Math.max(state.after ?? 0, newest ?? 0) });
        return 0;
      }
      const rows = await tx
        .select({
          id: class_reservation.class_reservation_id,
          customer_id: class_reservation.customer_id,
          single_class_id: class_reservation.single_class_id,
          access_code: class_reservation.access_code,
          spot: class_reservation.spot,
          guest: class_reservation.guest,
          guest_spot: class_reservation.guest_spot,
          createdAt: class_reservation.createdAt,
          live: sql<boolean>`${class_reservation.deletedAt} is null and ${single_class.cancelledAt} is null and ${single_class.class_date} > ${now.toISOString()}::timestamptz
            and not exists (select 1 from ${outbox_message} where ${outbox_message.dedupe_key} in (
              'booking:' || ${class_reservation.class_reservation_id} || ':email', 'booking:' || ${class_reservation.class_reservation_id} || ':whatsapp',
              'waitlist-promoted:' || ${class_reservation.class_reservation_id} || ':email', 'waitlist-promoted:' || ${class_reservation.class_reservation_id} || ':whatsapp'))`,
          name: customer.name,
        })
        .from(class_reservation)
        .innerJoin(single_class, sql`${single_class.single_class_id} = ${class_reservation.single_class_id}`)
        .innerJoin(customer, sql`${customer.customer_id} = ${class_reservation.customer_id}`)
        .where(gt(class_reservation.class_reservation_id, state.after))
        .orderBy(asc(class_reservation.class_reservation_id))
        .limit(batch);
      const live = rows.filter((r) => r.live);
      const classes = new Map(
        (await loadSingleClassOutputs(tx, [...new Set(live.map((r) => r.single_class_id))])).map((c) => [c.single_class_id, c]),
      );
      const tz = studioTimeZone(settings);
      let queued = 0;
      for (const r of live) {
        const c = classes.get(r.single_class_id);
        if (!c) continue;
        const start = new Date(c.class_date);
        const facts = bookedClassFacts(ctx.messages, c, r, r.name, tz);
        const prefs = await preferencesOf(tx, r.customer_id);
        const invitation = icsInvitation(
          settings.business_name,
          {
            // The feed's UID for the same booking, so a calendar with both shows one event.
            uid: reservationEventUid(r.id, ctx.messages.publicUrl),
            start,
            end: new Date(start.getTime() + c.duration_minutes * 60_000),
            summary: `${facts.className} · ${settings.business_name}`,
            // The feed's words for the same lines (calendar-feed.ts).
            description: [texts.customerMessages.eventAccessCode(facts.accessCode), texts.customerMessages.eventManage(facts.reservationsUrl)].join('\n'),
            location: facts.location,
            url: facts.reservationsUrl,
          },
          now,
        );
        const until = creditBackUntil(start, settings);
        const sent = await queueCustomerMessage(tx, ctx.messages, {
          customerId: r.customer_id,
          dedupeKey: `booking:${r.id}`,
          parts: bookingConfirmation({
            ...facts,
            cancelRule: cancellationRuleText(settings),
            // Booked inside the cancellation notice (Saturday night for Sunday morning): no deadline to give, it passed.
            cancelUntil: !until ? null : until.getTime() <= r.createdAt.getTime() ? 'late' : classWhen(until, tz),
            calendarUrl: calendarUrlOf(ctx.messages, prefs.calendar_token),
            invitation: { filename: 'reservacion.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: invitation },
          }),
        });
        if (sent > 0) queued += 1;
      }
      // Advance past the settled prefix (repeats are harmless: the dedupe key holds them).
      let after = state.after;
      for (const r of rows) {
        if (r.createdAt.getTime() > now.getTime() - settleMs) break;
        after = r.id;
      }
      if (after !== state.after) await writeJobState(tx, bookingConfirmationsName, { after });
      return queued;
    });
  },
};
