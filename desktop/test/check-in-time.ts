import { defaultStudioTimeZone, localDate } from '@estudio/core';

/**
 * A class start the desk may check in right now, on today's date in the studio: `minutes` from now (negative: the
 * class began that long ago), or the same gap the other way when that would land on another studio day.
 *
 * The check-in window (60 minutes before to 30 after the class) takes either, but a scan on another day is refused as
 * 'wrong-day'; the suite runs across midnight in Mexico City (06:00 UTC) on CI, where "ten minutes from now" is
 * tomorrow from 23:50 and "ten minutes ago" is yesterday until 00:10.
 */
export function checkInStart(minutes: number, now = new Date()): Date {
  const today = localDate(now, defaultStudioTimeZone);
  const preferred = new Date(now.getTime() + minutes * 60_000);
  if (localDate(preferred, defaultStudioTimeZone) === today) return preferred;
  return new Date(now.getTime() - minutes * 60_000);
}
