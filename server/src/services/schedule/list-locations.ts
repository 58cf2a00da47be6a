import { studioDayRange, studioTimeZone, type z, type locationSummary } from '@estudio/core';
import { and, asc, eq, exists, gte, lte } from 'drizzle-orm';
import { location } from '@estudio/db/schema/catalogue';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from './studio-settings.ts';

type LocationSummary = z.infer<typeof locationSummary>;

/**
 * Locations for the calendar's filter. Without a range: every location the
 * studio shows (available). With a range (local dates in the studio's zone):
 * the locations that hold at least one class in it, whatever their flag, since
 * their classes are on the calendar.
 */
export async function listLocations(
  db: Db,
  range: { start_date?: string | undefined; end_date?: string | undefined },
): Promise<LocationSummary[]> {
  const columns = { location_id: location.location_id, name: location.name, address: location.address };
  const order = [asc(location.order), asc(location.location_id)];
  if (!range.start_date || !range.end_date) {
    return db.select(columns).from(location).where(eq(location.available, true)).orderBy(...order);
  }
  const timeZone = studioTimeZone(await loadStudioSettings(db));
  const { from, to } = studioDayRange(range.start_date, range.end_date, timeZone);
  return db
    .select(columns)
    .from(location)
    .where(
      exists(
        db
          .select({ one: single_class.single_class_id })
          .from(single_class)
          .where(and(eq(single_class.location_id, location.location_id), gte(single_class.class_date, from), lte(single_class.class_date, to))),
      ),
    )
    .orderBy(...order);
}
