import dayjs from 'dayjs';
import type { Db } from '@estudio/db';
import { localDate, studioTimeZone } from '@estudio/core';
import { replicaSettings } from '@estudio/sync/client/mutators';

// The replica's settings are read once and kept (one cache, the sync client's mutations read it too).
export { forgetReplicaSettings, replicaSettings } from '@estudio/sync/client/mutators';

/**
 * The studio's time zone as the replica's copy of its settings says (core's
 * studioTimeZone: `timezone`, else the spec's `timezone_offset`; Mexico City
 * until the first copy), whatever the zone of the machine's clock.
 */
export async function replicaTimeZone(db: Db): Promise<string> {
  return studioTimeZone(await replicaSettings(db));
}

export interface StudioDay {
  /** YYYY-MM-DD in the studio's zone. */
  date: string;
  start: Date;
  end: Date;
}

/** The studio's calendar day holding `at` (or the given YYYY-MM-DD), as a half-open range of instants. */
export function studioDay(at: Date | string, tz: string): StudioDay {
  const start = (typeof at === 'string' ? dayjs.tz(at, tz) : dayjs(at).tz(tz)).startOf('day');
  return { date: start.format('YYYY-MM-DD'), start: start.toDate(), end: start.add(1, 'day').toDate() };
}

/** YYYY-MM-DD of an instant in the studio's zone. */
export const studioDate = (at: Date, tz: string): string => localDate(at, tz);

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
