import { checkInTiming, checkInWindow, formatDate, penaltyDetailText, studioTimeZone } from '@estudio/core';
import { noShowPenalty } from '@estudio/core/messages/templates/bookings';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { unlimitedPenalty } from '../reservations/penalties.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { ClockJob } from './job.ts';

export const noShowsName = 'no-shows';

/**
 * How far back a run looks for classes whose check-in closed: a clock that
 * was off for a long weekend still marks them; a studio turning the clock on
 * does not have its whole history marked (and penalised) at once.
 */
export const noShowLookbackMs = 7 * 86_400_000;

/**
 * After a class's check-in window closes (its end plus the desk's
 * check_in_closes_minutes, decision 016), each live reservation without
 * attendance becomes a no-show (no_show_at = now; conditional: still not
 * attended, still live). Then, under the customer's lock (decision 006), the
 * spec's penalty rule for unlimited members runs at once (unlimitedPenalty,
 * the same rule a booking runs), and a penalty created here is told to the
 * customer with the date booking resumes. A later check-in (the desk's, an
 * offline one synced late, or staff marking attendance) clears no_show_at.
 */
export const noShowsJob: ClockJob = {
  name: noShowsName,
  schedule: { everyMs: 60_000 },
  async run(ctx, now) {
    const settings = await loadStudioSettings(ctx.db);
    // The window's close after the class's end, by the desk's own rule.
    const closesAfterEndMs = checkInWindow(new Date(0), 0, settings).closesAt.getTime();
    const end = sql`${single_class.class_date} + make_interval(mins => ${single_class.duration_minutes})`;
    const candidates = await ctx.db
      .select({
        id: class_reservation.class_reservation_id,
        customer_id: class_reservation.customer_id,
        class_date: single_class.class_date,
        duration_minutes: single_class.duration_minutes,
      })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(
        and(
          isNull(class_reservation.deletedAt),
          isNull(single_class.cancelledAt),
          eq(class_reservation.attend, false),
          isNull(class_reservation.noShowAt),
          sql`${end} + make_interval(secs => ${closesAfterEndMs / 1000}) < ${now.toISOString()}::timestamptz`,
          gt(single_class.class_date, sql`${new Date(now.getTime() - noShowLookbackMs).toISOString()}::timestamptz`),
        ),
      )
      .orderBy(asc(class_reservation.customer_id), asc(class_reservation.class_reservation_id))
      .limit(2000);
    // The desk's rule decides: past the window's close (which itself is included).
    const due = candidates.filter((r) => checkInTiming(now, checkInWindow(r.class_date, r.duration_minutes, settings)) === 'too-late');
    const byCustomer = new Map<number, number[]>();
    for (const r of due) byCustomer.set(r.customer_id, [...(byCustomer.get(r.customer_id) ?? []), r.id]);

    const tz = studioTimeZone(settings);
    let marked = 0;
    for (const [customerId, ids] of byCustomer) {
      marked += await ctx.db.transaction(async (tx) => {
        // The customer first, as every booking locks (decision 006): the penalty rule counts under it.
        const [who] = await tx.select().from(customer).where(eq(customer.customer_id, customerId)).for('update');
        const rows = await tx
          .update(class_reservation)
          .set({ noShowAt: now, updatedAt: now })
          .where(
            and(
              inArray(class_reservation.class_reservation_id, ids),
              eq(class_reservation.attend, false),
              isNull(class_reservation.noShowAt),
              isNull(class_reservation.deletedAt),
            ),
          )
          .returning({ id: class_reservation.class_reservation_id, credit: class_reservation.available_class_id });
        if (rows.length === 0 || !who || who.deletedAt) return rows.length;
        const credits = rows.map((r) => r.credit).filter((c): c is number => c !== null);
        const unlimited =
          credits.length > 0 &&
          (await tx
            .select({ id: available_classes.available_class_id })
            .from(available_classes)
            .where(and(inArray(available_classes.available_class_id, credits), eq(available_classes.available_classes, -1)))
            .limit(1)).length > 0;
        if (!unlimited) return rows.length;
        const penalty = await unlimitedPenalty(tx, who, settings, now);
        if (penalty?.created) {
          await queueCustomerMessage(tx, ctx.messages, {
            customerId,
            dedupeKey: `penalty:${penalty.penalty.class_reservation_penalty_id}`,
            parts: noShowPenalty({
              name: who.name?.trim() || null,
              noShows: penalty.penalty.no_shows,
              detail: penaltyDetailText(penalty.penalty, tz),
              resumes: formatDate(penalty.penalty.end_date, tz),
              scheduleUrl: `${ctx.messages.publicUrl}/calendario`,
            }),
          });
        }
        return rows.length;
      });
    }
    return marked;
  },
};
