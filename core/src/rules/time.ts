import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/es.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Anything dayjs reads as an instant: a Date, an ISO string, epoch milliseconds or a Dayjs. */
export type DateInput = Date | string | number | Dayjs;

export const defaultStudioTimeZone = 'America/Mexico_City';

/** The studio's IANA time zone from the app config (the spec's 6-hour offset is Mexico City). */
export function studioTimeZone(config: { timezone?: string | null | undefined }): string {
  return config.timezone?.trim() || defaultStudioTimeZone;
}

/** The instant as seen on the studio's wall clock. */
export function studioDayjs(date: DateInput, tz: string): Dayjs {
  return dayjs(date).tz(tz);
}

/** Local start time 'HH:mm' (what a credit's allowed_times lists). */
export function localTimeHHmm(date: DateInput, tz: string): string {
  return studioDayjs(date, tz).format('HH:mm');
}

/** The local calendar date 'YYYY-MM-DD' of an instant in the studio's zone. */
export function localDate(date: DateInput, tz: string): string {
  return studioDayjs(date, tz).format('YYYY-MM-DD');
}

/**
 * The Monday-to-Sunday week holding the instant, as local dates in the studio's
 * zone. Day arithmetic runs on the calendar date (in UTC) so a time-zone
 * transition can never shift the week by a day.
 */
export function weekOf(date: DateInput, tz: string): { start_date: string; end_date: string } {
  const day = dayjs.utc(localDate(date, tz));
  const sinceMonday = (day.day() + 6) % 7;
  const monday = day.subtract(sinceMonday, 'day');
  return { start_date: monday.format('YYYY-MM-DD'), end_date: monday.add(6, 'day').format('YYYY-MM-DD') };
}

/** 'DD MMM YYYY HH:mm' in Spanish on the studio's clock, e.g. '05 ene 2026 07:00'. */
export function formatDateTime(date: DateInput, tz: string): string {
  return studioDayjs(date, tz).locale('es').format('DD MMM YYYY HH:mm');
}

/** 'DD MMM YYYY' in Spanish on the studio's clock. */
export function formatDate(date: DateInput, tz: string): string {
  return studioDayjs(date, tz).locale('es').format('DD MMM YYYY');
}

/** Epoch milliseconds of any date input. */
export function toMs(date: DateInput): number {
  return dayjs(date).valueOf();
}
