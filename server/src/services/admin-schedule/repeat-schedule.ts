import { DomainError, expandWeeklySlots, studioDayRange, studioTimeZone, type SingleClassRepeatInput } from '@estudio/core';
import { and, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import { pgErrorCode } from '@estudio/db/errors';
import { instructor } from '@estudio/db/schema/catalogue';
import { class_series, single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { Actor } from './save-class.ts';
import { checkClassRoom } from './class-room.ts';
import { refuseScheduleClash } from './schedule-clash.ts';

export interface RepeatResult {
  /** The series made for the new classes; null when nothing was made. */
  classSeriesId: number | null;
  singleClassIds: number[];
  created: number;
  skipped: number;
}

/** Namespace of the advisory locks that serialise repeats of one location (any constant works; it names this use). */
const repeatLockNamespace = 8_001;

/**
 * POST /api/single_class/repeat: creates the classes of a weekly template
 * (weekday and local time slots) between two local dates, once. A start that
 * already has a live class of the same class type at the same location is
 * skipped, so running the same range again creates nothing new. Two repeats
 * of one location at the same moment are serialised by a transaction-scoped
 * advisory lock on the location, so neither can miss the other's classes.
 * Classes of other types in the way (same place or coach, same time) refuse
 * the whole repeat, naming the first, unless staff confirmed the overlap.
 */
export async function repeatSchedule(db: Db, input: SingleClassRepeatInput, actor: Actor): Promise<RepeatResult> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const starts = expandWeeklySlots(input.start_date, input.end_date, input.slots, tz);
  const { from, to } = studioDayRange(input.start_date, input.end_date, tz);
  const instructorIds = [...new Set(input.instructor_ids)];
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${repeatLockNamespace}, ${input.location_id})`);
      if (instructorIds.length > 0) {
        const found = await tx.select({ id: instructor.instructor_id }).from(instructor).where(inArray(instructor.instructor_id, instructorIds));
        if (found.length !== instructorIds.length) throw new DomainError('schedule/instructor-not-found');
      }
      const existing = await tx
        .select({ class_date: single_class.class_date })
        .from(single_class)
        .where(
          and(
            eq(single_class.location_id, input.location_id),
            eq(single_class.class_type_id, input.class_type_id),
            isNull(single_class.cancelledAt),
            gte(single_class.class_date, from),
            lte(single_class.class_date, to),
          ),
        );
      const taken = new Set(existing.map((e) => e.class_date.getTime()));
      const missing = starts.filter((s) => !taken.has(s.getTime()));
      const roomId = input.room_id ?? null;
      await checkClassRoom(tx, roomId, input.location_id, input.capacity);
      await refuseScheduleClash(tx, { starts: missing, minutes: input.duration_minutes, locationId: input.location_id, roomId, instructorIds }, tz, input.allow_overlap);
      // The new classes are one series: edited together, ended or cancelled by dates (cancel-series.ts).
      const [series] =
        missing.length === 0
          ? []
          : await tx
              .insert(class_series)
              .values({ slots: input.slots.map((s) => ({ weekday: s.weekday, time: s.time })), start_date: input.start_date, end_date: input.end_date })
              .returning({ id: class_series.class_series_id });
      const created =
        missing.length === 0
          ? []
          : await tx
              .insert(single_class)
              .values(
                missing.map((class_date) => ({
                  class_date,
                  duration_minutes: input.duration_minutes,
                  capacity: input.capacity,
                  location_id: input.location_id,
                  room_id: roomId,
                  class_type_id: input.class_type_id,
                  class_package_id: input.class_package_id ?? null,
                  description: input.description ?? null,
                  icon: input.icon ?? null,
                  class_series_id: series?.id ?? null,
                })),
              )
              .returning({ id: single_class.single_class_id, class_date: single_class.class_date });
      created.sort((a, b) => a.class_date.getTime() - b.class_date.getTime() || a.id - b.id);
      const links = created.flatMap((c) => instructorIds.map((instructor_id) => ({ single_class_id: c.id, instructor_id })));
      if (links.length > 0) await tx.insert(single_class_instructor).values(links);
      const result = { classSeriesId: series?.id ?? null, singleClassIds: created.map((c) => c.id), created: created.length, skipped: starts.length - created.length };
      await recordAudit(tx, {
        actorId: actor.customerId,
        action: 'repeat',
        entity: 'single_class',
        entityId: null,
        changes: { ...input, created: result.created, skipped: result.skipped, single_class_ids: result.singleClassIds },
      });
      return result;
    });
  } catch (error) {
    if (pgErrorCode(error) === '23503') throw new DomainError('schedule/reference-not-found');
    throw error;
  }
}
