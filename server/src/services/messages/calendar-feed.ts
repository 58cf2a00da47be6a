import { icsFeed, reservationEventUid, texts, type CalendarEvent } from '@estudio/core';
import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import { class_type, instructor, location } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { message_preference } from '@estudio/db/schema/outbox';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { MessageContext } from './message-context.ts';

/** How far back the feed goes: last month's classes stay in the calendar; older ones are the calendar's own history. */
export const calendarFeedDaysBack = 30;
/** A feed never lists more than this many reservations (a customer books a few a week). */
const maxEvents = 1000;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * The customer's private calendar feed, or null when no customer
 * holds `token` (a renewed or made-up link). Every reservation from 30 days
 * ago onward, each with its class, coach, location, access code and a link to
 * the portal; cancelled reservations and classes the studio cancelled stay
 * in the feed as STATUS:CANCELLED, so subscribed calendars remove them.
 */
export async function calendarFeedOf(db: Db, ctx: MessageContext, token: string, now: Date = new Date()): Promise<string | null> {
  const [owner] = await db
    .select({ customerId: message_preference.customer_id, deletedAt: customer.deletedAt })
    .from(message_preference)
    .innerJoin(customer, eq(customer.customer_id, message_preference.customer_id))
    .where(eq(message_preference.calendar_token, token));
  if (!owner || owner.deletedAt) return null;

  const rows = await db
    .select({
      id: class_reservation.class_reservation_id,
      accessCode: class_reservation.access_code,
      spot: class_reservation.spot,
      guest: class_reservation.guest,
      cancelledAt: class_reservation.deletedAt,
      updatedAt: class_reservation.updatedAt,
      classId: single_class.single_class_id,
      start: single_class.class_date,
      minutes: single_class.duration_minutes,
      classCancelledAt: single_class.cancelledAt,
      classUpdatedAt: single_class.updatedAt,
      className: class_type.name,
      locationName: location.name,
      locationAddress: location.address,
    })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(location, eq(location.location_id, single_class.location_id))
    .where(and(eq(class_reservation.customer_id, owner.customerId), gte(single_class.class_date, new Date(now.getTime() - calendarFeedDaysBack * 86_400_000))))
    .orderBy(asc(single_class.class_date), asc(class_reservation.class_reservation_id))
    .limit(maxEvents);

  const classIds = [...new Set(rows.map((r) => r.classId))];
  const coaches = new Map<number, string[]>();
  if (classIds.length > 0) {
    const taught = await db
      .select({ classId: single_class_instructor.single_class_id, name: instructor.name, lastName: instructor.last_name, nick: instructor.nick_name })
      .from(single_class_instructor)
      .innerJoin(instructor, eq(instructor.instructor_id, single_class_instructor.instructor_id))
      .where(inArray(single_class_instructor.single_class_id, classIds))
      .orderBy(asc(instructor.name));
    for (const t of taught) coaches.set(t.classId, [...(coaches.get(t.classId) ?? []), t.nick?.trim() || `${t.name} ${t.lastName}`.trim()]);
  }

  const settings = await loadStudioSettings(db);
  const portalLink = `${ctx.publicUrl}/mystudio/reservaciones`;
  const t = texts.customerMessages;
  const events: CalendarEvent[] = rows.map((r) => {
    const cancelled = Boolean(r.cancelledAt || r.classCancelledAt);
    const coach = coaches.get(r.classId);
    const description = [
      r.className,
      ...(coach?.length ? [t.eventCoach(coach.join(', '))] : []),
      ...(cancelled ? [t.eventCancelled] : [t.eventAccessCode(r.accessCode)]),
      ...(r.spot !== null ? [t.eventSpot(r.spot)] : []),
      ...(r.guest ? [t.eventGuest(r.guest)] : []),
      t.eventManage(portalLink),
    ].join('\n');
    return {
      uid: reservationEventUid(r.id, ctx.publicUrl),
      start: r.start,
      end: new Date(r.start.getTime() + r.minutes * 60_000),
      summary: r.className,
      description,
      location: [r.locationName, r.locationAddress].filter((part) => part && part.trim() !== '').join(', '),
      url: portalLink,
      cancelled,
      sequence: Math.max(seconds(r.updatedAt), seconds(r.classUpdatedAt)),
    };
  });
  return icsFeed(t.calendarName(settings.business_name), events, now);
}
