import {
  DomainError,
  localDate,
  localTimeHHmm,
  studioInstant,
  studioTimeZone,
  type SingleClassCreateInput,
  type SingleClassOutput,
  type SingleClassUpdateInput,
} from '@estudio/core';
import { eq, inArray } from 'drizzle-orm';
import { pgErrorCode } from '@estudio/db/errors';
import { instructor } from '@estudio/db/schema/catalogue';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { countPlaces } from '../reservations/booking-locks.ts';
import { getSingleClass } from '../schedule/get-single-class.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { refuseScheduleClash } from './schedule-clash.ts';

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
      await refuseScheduleClash(
        tx,
        { starts: [classDate], minutes: input.duration_minutes, locationId: input.location_id, instructorIds: input.instructor_ids },
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
 * PUT /api/single_class: changes the fields sent. The class row is locked
 * (the last lock of the booking order, taken alone) so the places counted
 * against a lower capacity cannot change before the update commits. Moving
 * the class keeps its reservations; a cancelled class cannot be edited. A
 * change of its time, length, place or coaches is refused when another class
 * is in the way, unless staff confirmed the overlap.
 */
export async function updateSingleClass(db: Db, input: SingleClassUpdateInput, actor: Actor): Promise<SingleClassOutput> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const { single_class_id: id, date, time, instructor_ids, allow_overlap, ...fields } = input;
  await referencesExist(() =>
    db.transaction(async (tx) => {
      const [current] = await tx.select().from(single_class).where(eq(single_class.single_class_id, id)).for('update');
      if (!current) throw new DomainError('class/not-found');
      if (current.cancelledAt) throw new DomainError('schedule/class-cancelled');
      if (fields.capacity !== undefined && fields.capacity < current.capacity) {
        if ((await countPlaces(tx, id)) > fields.capacity) throw new DomainError('schedule/capacity-below-reservations');
      }
      const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      const classDate = date !== undefined && time !== undefined ? studioInstant(date, time, tz) : undefined;
      const coaches = (await tx.select({ id: single_class_instructor.instructor_id }).from(single_class_instructor).where(eq(single_class_instructor.single_class_id, id))).map((r) => r.id);
      const planned = {
        starts: [classDate ?? current.class_date],
        minutes: fields.duration_minutes ?? current.duration_minutes,
        locationId: fields.location_id ?? current.location_id,
        instructorIds: instructor_ids ?? coaches,
        exceptClassId: id,
      };
      // The console sends the whole form: only a class that moves, lengthens or changes place or coaches is checked.
      const moved =
        planned.starts[0]?.getTime() !== current.class_date.getTime() ||
        planned.minutes !== current.duration_minutes ||
        planned.locationId !== current.location_id ||
        !sameIds(planned.instructorIds, coaches);
      if (moved) await refuseScheduleClash(tx, planned, tz, allow_overlap);
      await tx
        .update(single_class)
        .set({ ...changes, ...(classDate ? { class_date: classDate } : {}), updatedAt: new Date() })
        .where(eq(single_class.single_class_id, id));
      if (instructor_ids !== undefined) await setInstructors(tx, id, instructor_ids);
      await recordAudit(tx, {
        actorId: actor.customerId,
        action: 'update',
        entity: 'single_class',
        entityId: id,
        changes: {
          ...input,
          ...(classDate ? { from: { date: localDate(current.class_date, tz), time: localTimeHHmm(current.class_date, tz) } } : {}),
        },
      });
    }),
  );
  return getSingleClass(db, id, null);
}
