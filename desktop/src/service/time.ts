import dayjs from 'dayjs';
import { defaultStudioTimeZone, localDate } from '@estudio/core';

/**
 * "Today" at the desk is today in the studio's zone (Mexico City), whatever
 * the zone of the machine's clock.
 */
const TZ = defaultStudioTimeZone;

export interface StudioDay {
  /** YYYY-MM-DD in the studio's zone. */
  date: string;
  start: Date;
  end: Date;
}

/** The studio's calendar day holding `at` (or the given YYYY-MM-DD), as a half-open range of instants. */
export function studioDay(at: Date | string = new Date()): StudioDay {
  const start = (typeof at === 'string' ? dayjs.tz(at, TZ) : dayjs(at).tz(TZ)).startOf('day');
  return { date: start.format('YYYY-MM-DD'), start: start.toDate(), end: start.add(1, 'day').toDate() };
}

/** YYYY-MM-DD of an instant in the studio's zone. */
export const studioDate = (at: Date): string => localDate(at, TZ);

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
