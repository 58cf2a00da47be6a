import { appConfigDefaults } from '@estudio/core';
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * What every part of the demo seed shares: the studio's zone, its days
 * relative to the seed's `now`, and the rows each insert returned.
 */
export const TZ = appConfigDefaults.timezone;

/** Hour at which an interval (day, time in Mexico City) becomes an instant. */
export const at = (date: string, time: string): Dayjs => dayjs.tz(`${date} ${time}`, TZ);

/** The seed's calendar: `date(n)` is n days from its today (YYYY-MM-DD), `ago(n, time)` an instant n days before. */
export interface SeedDays {
  date: (offsetDays: number) => string;
  ago: (days: number, time?: string) => Dayjs;
}

export function idAt(rows: readonly { id: number }[], index: number): number {
  const row = rows[index];
  if (!row) throw new Error(`seed: no row at index ${index}`);
  return row.id;
}

/** The first date on or after `from` (YYYY-MM-DD) that falls on `weekday` (0 Sunday). */
export function nextWeekday(from: string, weekday: number): string {
  const d = dayjs.utc(from);
  return d.add((weekday - d.day() + 7) % 7, 'day').format('YYYY-MM-DD');
}
