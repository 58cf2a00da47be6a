import { studioDayRange, studioTimeZone, type SingleClassOutput } from '@estudio/core';
import { and, asc, eq, exists, gte, lte, type SQL } from 'drizzle-orm';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadSingleClassOutputs } from './single-class-output.ts';
import { loadStudioSettings } from './studio-settings.ts';

export interface ScheduleFilters {
  start_date: string;
  end_date: string;
  instructor_id?: number | undefined;
  location_id?: number | undefined;
  class_type_id?: number | undefined;
}

/**
 * The classes between start_date 00:00 and end_date 23:59:59.999 on the
 * studio's wall clock, sorted by start. Cancelled classes stay in the list with
 * cancelledAt set, so a customer who had booked one sees why it is gone from
 * their plans; the portal marks them instead of offering them. `customerId`
 * adds the caller's own reservations and waitlist entries (null: a visitor).
 */
export async function listSchedule(db: Db, filters: ScheduleFilters, customerId: number | null): Promise<SingleClassOutput[]> {
  const timeZone = studioTimeZone(await loadStudioSettings(db));
  const { from, to } = studioDayRange(filters.start_date, filters.end_date, timeZone);
  const where: SQL[] = [gte(single_class.class_date, from), lte(single_class.class_date, to)];
  if (filters.location_id !== undefined) where.push(eq(single_class.location_id, filters.location_id));
  if (filters.class_type_id !== undefined) where.push(eq(single_class.class_type_id, filters.class_type_id));
  if (filters.instructor_id !== undefined) {
    where.push(
      exists(
        db
          .select({ one: single_class_instructor.instructor_id })
          .from(single_class_instructor)
          .where(
            and(
              eq(single_class_instructor.single_class_id, single_class.single_class_id),
              eq(single_class_instructor.instructor_id, filters.instructor_id),
            ),
          ),
      ),
    );
  }
  const rows = await db
    .select({ id: single_class.single_class_id })
    .from(single_class)
    .where(and(...where))
    .orderBy(asc(single_class.class_date), asc(single_class.single_class_id));
  return loadSingleClassOutputs(
    db,
    rows.map((r) => r.id),
    customerId,
  );
}
