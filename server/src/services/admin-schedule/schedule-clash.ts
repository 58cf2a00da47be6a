import { classesOverlap, DomainError, scheduleClashMessage, templateClashMessage } from '@estudio/core';
import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Tx } from '@estudio/db';
import { class_type, location, room } from '@estudio/db/schema/catalogue';
import { single_class } from '@estudio/db/schema/schedule';

/** Namespaces of the advisory locks that serialise schedule changes of one location and of one coach. */
const locationLockNamespace = 8_002;
const coachLockNamespace = 8_003;

/**
 * Takes the advisory lock that serialises the schedule of one location, its rooms included: a class saved there,
 * and a room of it changed or removed (decision 140), wait for each other until the transaction ends.
 */
export async function lockLocationSchedule(tx: Tx, locationId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${locationLockNamespace}, ${locationId})`);
}

export interface PlannedClasses {
  starts: readonly Date[];
  minutes: number;
  locationId: number;
  /** The room of the location; null: the location as one room (decision 140). */
  roomId?: number | null | undefined;
  instructorIds: readonly number[];
  /** The class being edited: it does not clash with itself. */
  exceptClassId?: number;
  /** False when only the coaches change (a substitute): the place was already settled. */
  checkPlace?: boolean;
}

/**
 * Refuses, with a Spanish 409 naming the first class (and its room) in the
 * way, classes that would overlap a live class at the same place or one
 * taught by any of the same coaches. The same place is the same room; when
 * either class has no room, the same location (decisions 135 and 140), so
 * two rooms of one location hold classes at the same time. Refused
 * unless staff confirmed the overlap (`allowed`). The location's and the
 * coaches' advisory locks are taken first, in one order, so two changes at
 * the same moment cannot both miss each other; they end with the transaction.
 * A room is always of one location, so the location's lock covers its rooms.
 */
export async function refuseScheduleClash(tx: Tx, planned: PlannedClasses, tz: string, allowed: boolean | undefined): Promise<void> {
  const coaches = [...new Set(planned.instructorIds)].sort((a, b) => a - b);
  const checkPlace = planned.checkPlace ?? true;
  // The place is locked only when it is checked: a substitute changes no class's place.
  if (checkPlace) await lockLocationSchedule(tx, planned.locationId);
  for (const coach of coaches) await tx.execute(sql`select pg_advisory_xact_lock(${coachLockNamespace}, ${coach})`);
  if (allowed || planned.starts.length === 0) return;
  // A weekly template whose own times run into each other (07:00 and 07:30, an hour each) would stack its classes.
  const sorted = [...planned.starts].sort((a, b) => a.getTime() - b.getTime());
  for (let i = 1; i < sorted.length; i++) {
    const [earlier, later] = [{ start: sorted[i - 1]!, minutes: planned.minutes }, { start: sorted[i]!, minutes: planned.minutes }];
    if (classesOverlap(earlier, later)) throw new DomainError('schedule/overlap', templateClashMessage(earlier.start, later.start, tz));
  }
  const windows = sql.join(
    planned.starts.map((start) => sql`(${start.toISOString()}::timestamptz, ${new Date(start.getTime() + planned.minutes * 60_000).toISOString()}::timestamptz)`),
    sql`, `,
  );
  const roomId = planned.roomId ?? null;
  const samePlace =
    roomId === null
      ? sql`${single_class.location_id} = ${planned.locationId}`
      : sql`(${single_class.room_id} = ${roomId} or (${single_class.location_id} = ${planned.locationId} and ${single_class.room_id} is null))`;
  const coachList = coaches.length ? sql.join(coaches.map((c) => sql`${c}`), sql`, `) : sql`null`;
  const sameCoach = sql`exists (select 1 from single_class_instructor sci where sci.single_class_id = ${single_class.single_class_id} and sci.instructor_id in (${coachList}))`;
  const rows = await tx
    .select({
      start: single_class.class_date,
      minutes: single_class.duration_minutes,
      className: class_type.name,
      locationName: location.name,
      roomName: room.name,
      // The place's clash is said first: a coach is named only when the class is elsewhere.
      coachName: sql<string | null>`case when ${checkPlace} and ${samePlace} then null else (
        select i.name || ' ' || i.last_name from single_class_instructor sci join instructor i on i.instructor_id = sci.instructor_id
        where sci.single_class_id = ${single_class.single_class_id} and sci.instructor_id in (${coachList})
        order by i.instructor_id limit 1) end`,
      clashes: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(location, eq(location.location_id, single_class.location_id))
    .leftJoin(room, eq(room.room_id, single_class.room_id))
    .where(
      and(
        isNull(single_class.cancelledAt),
        ne(single_class.single_class_id, planned.exceptClassId ?? 0),
        sql`exists (select 1 from (values ${windows}) as p(s, e) where ${single_class.class_date} < p.e and ${single_class.class_date} + ${single_class.duration_minutes} * interval '1 minute' > p.s)`,
        checkPlace ? or(samePlace, sameCoach) : sameCoach,
      ),
    )
    .orderBy(single_class.class_date, single_class.single_class_id)
    .limit(1);
  const [first] = rows;
  if (!first) return;
  throw new DomainError('schedule/overlap', scheduleClashMessage(first, tz, first.clashes - 1));
}
