import {
  DomainError,
  formatDateTime,
  localDate,
  localTimeHHmm,
  placeLabel,
  studioInstant,
  studioTimeZone,
  weeklySlotOf,
  type SeriesScope,
  type StandingSlot,
  type SingleClassCreateInput,
  type SingleClassOutput,
  type SingleClassUpdateInput,
} from '@estudio/core';
import { classChanged } from '@estudio/core/messages/templates/studio';
import { and, asc, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { pgErrorCode } from '@estudio/db/errors';
import { class_type, instructor, location } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { reservationsUrlOf } from '../clock/booked-class.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessages } from '../messages/queue-message.ts';
import { countPlaces } from '../reservations/booking-locks.ts';
import { getSingleClass } from '../schedule/get-single-class.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { checkClassRoom, roomsReadOnce } from './class-room.ts';
import { refuseScheduleClash } from './schedule-clash.ts';
import { moveStandingPlaces } from '../standing/follow-series.ts';

/** The staff or admin customer making a change (recorded in audit_log). */
export interface Actor {
  customerId: number;
}

/** A missing location, class type or package (foreign key violation) is a 404, not a 500. */
async function referencesExist<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (pgErrorCode(error) === '23503') throw new DomainError('schedule/reference-not-found');
    throw error;
  }
}

const sameIds = (a: readonly number[], b: readonly number[]) => {
  const left = [...new Set(a)].sort((x, y) => x - y);
  const right = [...new Set(b)].sort((x, y) => x - y);
  return left.length === right.length && left.every((v, i) => v === right[i]);
};

/** Replaces the instructors of a class; every id must exist. */
export async function setInstructors(tx: Tx, singleClassId: number, instructorIds: readonly number[]): Promise<void> {
  const ids = [...new Set(instructorIds)];
  if (ids.length > 0) {
    const found = await tx.select({ id: instructor.instructor_id }).from(instructor).where(inArray(instructor.instructor_id, ids));
    if (found.length !== ids.length) throw new DomainError('schedule/instructor-not-found');
  }
  await tx.delete(single_class_instructor).where(eq(single_class_instructor.single_class_id, singleClassId));
  if (ids.length > 0) await tx.insert(single_class_instructor).values(ids.map((instructor_id) => ({ single_class_id: singleClassId, instructor_id })));
}

/**
 * POST /api/single_class: one class at a local date and time of the studio,
 * with its instructors, recorded in audit_log in the same transaction. A
 * class in the way (same place or coach, same time) refuses it unless staff
 * confirmed the overlap.
 */
export async function createSingleClass(db: Db, input: SingleClassCreateInput, actor: Actor): Promise<SingleClassOutput> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const classDate = studioInstant(input.date, input.time, tz);
  const id = await referencesExist(() =>
    db.transaction(async (tx) => {
      const roomId = input.room_id ?? null;
      await checkClassRoom(tx, roomId, input.location_id, input.capacity);
      await refuseScheduleClash(
        tx,
        { starts: [classDate], minutes: input.duration_minutes, locationId: input.location_id, roomId, instructorIds: input.instructor_ids },
        tz,
        input.allow_overlap,
      );
      const [row] = await tx
        .insert(single_class)
        .values({
          class_date: classDate,
          duration_minutes: input.duration_minutes,
          capacity: input.capacity,
          location_id: input.location_id,
          room_id: roomId,
          class_type_id: input.class_type_id,
          class_package_id: input.class_package_id ?? null,
          description: input.description ?? null,
          icon: input.icon ?? null,
        })
        .returning({ id: single_class.single_class_id });
      if (!row) throw new DomainError('internal');
      await setInstructors(tx, row.id, input.instructor_ids);
      await recordAudit(tx, { actorId: actor.customerId, action: 'create', entity: 'single_class', entityId: row.id, changes: input });
      return row.id;
    }),
  );
  return getSingleClass(db, id, null);
}

/**
 * PUT /api/single_class: changes the fields sent, on the class alone or, with
 * `scope`, on it and the following classes of its series, or on every class
 * of the series still to start. Each class keeps its own date; a new time is
 * each one's new time. The classes' rows are locked in date order, so the
 * places counted against a lower capacity cannot change before the update
 * commits, and a capacity below any class's places refuses the whole edit,
 * naming that class. A change of time, length, place or coaches is refused
 * when another class is in the way, unless staff confirmed the overlap.
 * Moving keeps the reservations; the people booked on a class whose time,
 * place or coaches changed are told in the same transaction (unless `notify`
 * is false). A cancelled class cannot be edited; cancelled classes of the
 * series are left as they are. Each class changed is in the activity log.
 */
export async function updateSingleClass(db: Db, input: SingleClassUpdateInput, actor: Actor, messages: MessageContext, now = new Date()): Promise<SingleClassUpdated> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const { single_class_id: id, scope, notify, date, time, instructor_ids, allow_overlap, ...fields } = input;
  const changed = await referencesExist(() =>
    db.transaction(async (tx) => {
      const targets = await lockTargets(tx, id, scope, date, tz, now);
      const series = targets.length > 1;
      const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      const coachesBy = await coachesOf(tx, targets.map((c) => c.single_class_id));
      const told: ClassChange[] = [];
      // A series' classes move to the same place and coaches: their names are read once.
      let placeName: Promise<string> | undefined;
      let newCoaches: Promise<string> | undefined;
      // Each weekly slot of the series (a Tuesday and Thursday series has two) and where it goes.
      const slotMoves = new Map<string, [StandingSlot, StandingSlot]>();
      // A series' classes move to the same room: it is read once.
      const readRoom = roomsReadOnce(tx);
      for (const current of targets) {
        const classId = current.single_class_id;
        if (fields.capacity !== undefined && fields.capacity < current.capacity) {
          const places = await countPlaces(tx, classId);
          if (places > fields.capacity) {
            throw new DomainError(
              'schedule/capacity-below-reservations',
              series ? `La clase del ${formatDateTime(current.class_date, tz)} ya tiene ${places} lugares reservados: el cupo no puede ser menor.` : undefined,
            );
          }
        }
        // Alone, the class may move to another date; in a series each keeps its day and takes the new time.
        const classDate = time === undefined ? undefined : studioInstant(series || date === undefined ? localDate(current.class_date, tz) : date, time, tz);
        const coaches = coachesBy.get(classId) ?? [];
        const planned = {
          starts: [classDate ?? current.class_date],
          minutes: fields.duration_minutes ?? current.duration_minutes,
          locationId: fields.location_id ?? current.location_id,
          roomId: fields.room_id === undefined ? current.room_id : fields.room_id,
          instructorIds: instructor_ids ?? coaches,
          exceptClassId: classId,
        };
        // A class's room is of its location and holds its capacity, whichever of the three the edit changes.
        const inRoom =
          fields.room_id !== undefined || fields.location_id !== undefined || fields.capacity !== undefined
            ? await checkClassRoom(tx, planned.roomId, planned.locationId, fields.capacity ?? current.capacity, readRoom)
            : undefined;
        const from = weeklySlotOf(current, tz);
        const to = weeklySlotOf({ class_date: planned.starts[0] ?? current.class_date, class_type_id: fields.class_type_id ?? current.class_type_id, location_id: planned.locationId }, tz);
        slotMoves.set(JSON.stringify(from), [from, to]);
        const timeMoved = planned.starts[0]?.getTime() !== current.class_date.getTime();
        const placeMoved = planned.locationId !== current.location_id || planned.roomId !== current.room_id;
        const coachesChanged = !sameIds(planned.instructorIds, coaches);
        // The console sends the whole form: only a class that moves, lengthens or changes place or coaches is checked.
        if (timeMoved || placeMoved || coachesChanged || planned.minutes !== current.duration_minutes) await refuseScheduleClash(tx, planned, tz, allow_overlap);
        await tx
          .update(single_class)
          .set({ ...changes, ...(classDate ? { class_date: classDate } : {}), updatedAt: now })
          .where(eq(single_class.single_class_id, classId));
        if (instructor_ids !== undefined && coachesChanged) await setInstructors(tx, classId, instructor_ids);
        await recordAudit(tx, {
          actorId: actor.customerId,
          action: 'update',
          entity: 'single_class',
          entityId: classId,
          changes: {
            ...input,
            ...(series ? { single_class_id: classId, edited_from: id, class_series_id: current.class_series_id } : {}),
            ...(timeMoved ? { from: { date: localDate(current.class_date, tz), time: localTimeHHmm(current.class_date, tz) } } : {}),
          },
        });
        if (timeMoved || placeMoved || coachesChanged) {
          told.push({
            classId,
            was: current.class_date,
            now: {
              ...(timeMoved && planned.starts[0] ? { when: formatDateTime(planned.starts[0], tz) } : {}),
              ...(placeMoved ? { place: placeLabel(await (placeName ??= locationName(tx, planned.locationId)), inRoom?.name) } : {}),
              ...(coachesChanged ? { coaches: await (newCoaches ??= coachNames(tx, planned.instructorIds)) } : {}),
            },
          });
        }
      }
      // A series moved to another weekly slot takes the customers' "Reservar cada semana" places with it.
      if (scope !== undefined && scope !== 'this') for (const [from, to] of slotMoves.values()) await moveStandingPlaces(tx, from, to, now);
      const messagesQueued = notify ? await tellBooked(tx, told, tz, messages) : 0;
      return { ids: targets.map((c) => c.single_class_id), messagesQueued };
    }),
  );
  return { singleClass: await getSingleClass(db, id, null), singleClassIds: changed.ids, messagesQueued: changed.messagesQueued };
}

/** A class whose time, place or coaches changed: when it was, and what it is now (only what changed). */
interface ClassChange {
  classId: number;
  was: Date;
  now: { when?: string; place?: string; coaches?: string };
}

export interface SingleClassUpdated {
  singleClass: SingleClassOutput;
  /** Every class changed, soonest first (the class itself alone, or its series' classes). */
  singleClassIds: number[];
  messagesQueued: number;
}

/**
 * The classes an edit changes, locked in date order: the class alone, or its series' live classes from it on
 * ('following') or still to start ('all', the class itself included).
 */
async function lockTargets(tx: Tx, id: number, scope: SeriesScope, date: string | undefined, tz: string, now: Date) {
  const [anchor] = await tx.select().from(single_class).where(eq(single_class.single_class_id, id));
  if (!anchor) throw new DomainError('class/not-found');
  if (anchor.cancelledAt) throw new DomainError('schedule/class-cancelled');
  if (scope === 'this') {
    const [locked] = await tx.select().from(single_class).where(eq(single_class.single_class_id, id)).for('update');
    if (!locked || locked.cancelledAt) throw new DomainError('schedule/class-cancelled');
    return [locked];
  }
  if (anchor.class_series_id === null) throw new DomainError('schedule/not-in-series');
  if (date !== undefined && date !== localDate(anchor.class_date, tz)) throw new DomainError('schedule/series-date');
  const from = scope === 'following' ? anchor.class_date : now;
  const rows = await tx
    .select()
    .from(single_class)
    .where(
      and(
        eq(single_class.class_series_id, anchor.class_series_id),
        isNull(single_class.cancelledAt),
        or(gte(single_class.class_date, from), eq(single_class.single_class_id, id)),
      ),
    )
    .orderBy(asc(single_class.class_date), asc(single_class.single_class_id))
    .for('update');
  if (!rows.some((r) => r.single_class_id === id)) throw new DomainError('schedule/class-cancelled');
  return rows;
}

async function coachesOf(tx: Tx, classIds: number[]): Promise<Map<number, number[]>> {
  const rows = await tx
    .select({ classId: single_class_instructor.single_class_id, id: single_class_instructor.instructor_id })
    .from(single_class_instructor)
    .where(inArray(single_class_instructor.single_class_id, classIds));
  const by = new Map<number, number[]>();
  for (const r of rows) by.set(r.classId, [...(by.get(r.classId) ?? []), r.id]);
  return by;
}

async function locationName(tx: Tx, locationId: number): Promise<string> {
  const [row] = await tx.select({ name: location.name }).from(location).where(eq(location.location_id, locationId));
  return row?.name ?? '';
}

async function coachNames(tx: Tx, ids: readonly number[]): Promise<string> {
  if (ids.length === 0) return 'coach por confirmar';
  const rows = await tx
    .select({ id: instructor.instructor_id, name: sql<string>`${instructor.name} || ' ' || ${instructor.last_name}` })
    .from(instructor)
    .where(inArray(instructor.instructor_id, [...ids]));
  return ids.map((i) => rows.find((r) => r.id === i)?.name ?? '').filter(Boolean).join(' y ');
}

/** The people booked on each changed class hear what it is now; their place stays. */
async function tellBooked(tx: Tx, told: ClassChange[], tz: string, messages: MessageContext): Promise<number> {
  if (told.length === 0) return 0;
  const ids = told.map((t) => t.classId);
  const booked = await tx
    .select({ classId: class_reservation.single_class_id, customerId: customer.customer_id, name: customer.name, className: class_type.name })
    .from(class_reservation)
    .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(and(inArray(class_reservation.single_class_id, ids), isNull(class_reservation.deletedAt), isNull(customer.deletedAt)))
    .orderBy(asc(class_reservation.single_class_id), asc(customer.customer_id));
  const byId = new Map(told.map((t) => [t.classId, t]));
  return queueCustomerMessages(
    tx,
    messages,
    booked.map((b) => {
      const change = byId.get(b.classId)!;
      const was = formatDateTime(change.was, tz);
      return {
        customerId: b.customerId,
        parts: classChanged({ name: b.name, className: b.className, was, now: change.now, reservationsUrl: reservationsUrlOf(messages) }),
        dedupeKey: `class-changed:${b.classId}:${b.customerId}:${JSON.stringify(change.now)}`,
      };
    }),
  );
}
