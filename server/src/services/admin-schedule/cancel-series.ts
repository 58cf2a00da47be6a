import { DomainError, formatDateTime, studioDayRange, studioTimeZone, type SeriesCancelInput } from '@estudio/core';
import { and, asc, eq, gt, gte, isNull, lte } from 'drizzle-orm';
import { class_series, single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { cancelSingleClass, previewCancelSingleClass, type CancelPreview } from './cancel-class.ts';
import type { Actor } from './save-class.ts';

/** The far end of an open range: the series' own end bounds it anyway. */
const openEnd = '2999-12-31';

/** The day before a local date (YYYY-MM-DD), as a local date. */
function dayBefore(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

async function seriesOf(db: Db, classSeriesId: number) {
  const [series] = await db.select().from(class_series).where(eq(class_series.class_series_id, classSeriesId));
  if (!series) throw new DomainError('schedule/series-not-found');
  return series;
}

const summaryOf = (s: typeof class_series.$inferSelect) => ({ class_series_id: s.class_series_id, slots: s.slots, start_date: s.start_date, end_date: s.end_date });

/** The series' live classes still to start whose local day is in the range, soonest first. */
async function classesInRange(db: Db, input: SeriesCancelInput, tz: string, now: Date) {
  const { from, to } = studioDayRange(input.start_date, input.end_date ?? openEnd, tz);
  const classes = await db
    .select({ id: single_class.single_class_id, class_date: single_class.class_date })
    .from(single_class)
    .where(
      and(
        eq(single_class.class_series_id, input.class_series_id),
        isNull(single_class.cancelledAt),
        gt(single_class.class_date, now),
        gte(single_class.class_date, from),
        lte(single_class.class_date, to),
      ),
    )
    .orderBy(asc(single_class.class_date), asc(single_class.single_class_id));
  if (classes.length === 0) throw new DomainError('schedule/nothing-to-cancel');
  return classes;
}

/**
 * What cancelling a series' classes between two dates would do (or ending the
 * series, with no end date): each class with its bookings and waitlist, the
 * totals, and the message each group would read, as the first class with
 * someone in that group would send it (each message carries its own class's
 * date), with the studio's note. Nothing is locked.
 */
export async function previewCancelSeries(db: Db, input: SeriesCancelInput, messages: MessageContext, now = new Date()) {
  const series = await seriesOf(db, input.class_series_id);
  const tz = studioTimeZone(await loadStudioSettings(db));
  const classes = await classesInRange(db, input, tz, now);
  const previews: { id: number; class_date: Date; preview: CancelPreview }[] = [];
  for (const c of classes) previews.push({ ...c, preview: await previewCancelSingleClass(db, c.id, messages, input.note) });
  const groups = new Map<CancelPreview['messages'][number]['was'], CancelPreview['messages'][number]>();
  for (const { preview } of previews) {
    for (const m of preview.messages) {
      const seen = groups.get(m.was);
      groups.set(m.was, seen ? { ...seen, customers: seen.customers + m.customers } : m);
    }
  }
  return {
    series: summaryOf(series),
    classes: previews.map((p) => ({ single_class_id: p.id, class_date: p.class_date.toISOString(), reservations: p.preview.reservations, waitlisted: p.preview.waitlisted })),
    reservations: previews.reduce((n, p) => n + p.preview.reservations, 0),
    credits_returned: previews.reduce((n, p) => n + p.preview.creditsReturned, 0),
    waitlisted: previews.reduce((n, p) => n + p.preview.waitlisted, 0),
    messages: (['credit', 'unlimited', 'waitlist'] as const).flatMap((was) => {
      const group = groups.get(was);
      return group ? [group] : [];
    }),
  };
}

/**
 * POST /api/single_class_series/cancel: cancels the series' classes still to
 * start between two local dates, each exactly as a single class is cancelled
 * (its own transaction: credits back, everyone booked and waiting told, with
 * the note; cancel-class.ts), soonest first. With no end date the series
 * ends: its end becomes the day before the start. A class cancelled on the
 * way by someone else is skipped; running it again cancels what is left.
 */
export async function cancelSeries(db: Db, input: SeriesCancelInput, actor: Actor, messages: MessageContext, now = new Date()) {
  await seriesOf(db, input.class_series_id);
  const tz = studioTimeZone(await loadStudioSettings(db));
  const classes = await classesInRange(db, input, tz, now);
  const totals = { single_class_ids: [] as number[], reservations_cancelled: 0, credits_returned: 0, messages_queued: 0, waitlist_removed: 0 };
  for (const c of classes) {
    try {
      const done = await cancelSingleClass(db, c.id, actor, messages, { now, note: input.note });
      totals.single_class_ids.push(c.id);
      totals.reservations_cancelled += done.reservationsCancelled;
      totals.credits_returned += done.creditsReturned;
      totals.messages_queued += done.messagesQueued;
      totals.waitlist_removed += done.waitlistRemoved;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'schedule/class-cancelled')) throw error;
    }
  }
  const series = await db.transaction(async (tx) => {
    const ending = input.end_date === undefined;
    const [row] = ending
      ? await tx
          .update(class_series)
          .set({ end_date: dayBefore(input.start_date), updatedAt: now })
          .where(and(eq(class_series.class_series_id, input.class_series_id), gte(class_series.end_date, input.start_date)))
          .returning()
      : [];
    await recordAudit(tx, {
      actorId: actor.customerId,
      action: ending ? 'end-series' : 'cancel-series',
      entity: 'class_series',
      entityId: input.class_series_id,
      changes: { ...input, first: formatDateTime(classes[0]!.class_date, tz), ...totals },
    });
    if (row) return row;
    const [unchanged] = await tx.select().from(class_series).where(eq(class_series.class_series_id, input.class_series_id));
    if (!unchanged) throw new DomainError('schedule/series-not-found');
    return unchanged;
  });
  return { series: summaryOf(series), ...totals };
}
