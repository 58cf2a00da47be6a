import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/es.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Anything dayjs reads as an instant: a Date, an ISO string, epoch milliseconds or a Dayjs. */
export type DateInput = Date | string | number | Dayjs;

export const defaultStudioTimeZone = 'America/Mexico_City';

const knownZones = new Map<string, boolean>();

/** True for a time zone name the runtime knows (IANA, e.g. 'America/Cancun' or 'Etc/GMT+6'); cached, it is asked on every render. */
export function isTimeZoneName(name: string): boolean {
  let known = knownZones.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('es-MX', { timeZone: name });
      known = name.trim() !== '';
    } catch {
      known = false;
    }
    knownZones.set(name, known);
  }
  return known;
}

/**
 * The spec's `timezone_offset`: whole hours the studio's clock is behind UTC,
 * '6' for Mexico City (UTC−6). From 12 (UTC−12) to -14 (UTC+14), the range of
 * the fixed zones Etc/GMT+12 … Etc/GMT-14.
 */
export const timezoneOffsetRange = { min: -14, max: 12 } as const;

/** Reads a `timezone_offset` value: an integer in range written as digits ('6', '-5', '0'), else null. */
export function parseTimezoneOffset(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^-?\d{1,2}$/.test(value.trim())) return null;
  const hours = Number(value.trim());
  return hours >= timezoneOffsetRange.min && hours <= timezoneOffsetRange.max ? hours : null;
}

/** The fixed zone of an offset: 6 → 'Etc/GMT+6' (IANA's Etc names are POSIX-signed, as the spec's offset: positive is behind UTC). */
export function offsetTimeZone(hoursBehindUtc: number): string {
  if (hoursBehindUtc === 0) return 'Etc/GMT';
  return `Etc/GMT${hoursBehindUtc > 0 ? '+' : '-'}${Math.abs(hoursBehindUtc)}`;
}

/** Minutes a zone's clock is ahead of UTC at an instant (negative behind: Mexico City −360). */
function utcOffsetMinutes(tz: string, at: number): number {
  return zoneOffsetMinutes(tz, at);
}

/**
 * A zone's standard time as the spec's `timezone_offset` (hours behind UTC):
 * the smaller of its January and July offsets, so a zone with daylight saving
 * gives its winter hours (America/Tijuana 8, Mexico City 6). Null when that is
 * not a whole number of hours (Asia/Kolkata, UTC+5:30): the spec's offset is
 * whole hours.
 */
export function standardOffsetHours(tz: string, at: DateInput = new Date()): number | null {
  const year = dayjs(at).utc().year();
  const minutes = Math.min(utcOffsetMinutes(tz, Date.UTC(year, 0, 1)), utcOffsetMinutes(tz, Date.UTC(year, 6, 1)));
  return minutes % 60 === 0 ? -minutes / 60 : null;
}

/**
 * The studio's time zone, the one every screen, message, report and job
 * reads: the IANA `timezone` when it is set (it knows daylight saving);
 * otherwise the spec's `timezone_offset` as a fixed zone ('7' → Etc/GMT+7);
 * otherwise Mexico City, the spec's default 6 hours. Decision 030 keeps the
 * two settings in step when an admin changes one.
 */
export function studioTimeZone(config: { timezone?: string | null | undefined; timezone_offset?: string | null | undefined }): string {
  const zone = config.timezone?.trim();
  if (zone && isTimeZoneName(zone)) return zone;
  const offset = parseTimezoneOffset(config.timezone_offset);
  if (offset !== null) return offsetTimeZone(offset);
  return defaultStudioTimeZone;
}

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
const zoneClocks = new Map<string, Intl.DateTimeFormat>();

/**
 * Minutes the zone's clock is ahead of UTC at the instant `ms`, from the
 * zone's wall clock at that instant (a cached formatter's parts).
 */
function zoneOffsetMinutes(tz: string, ms: number): number {
  let clock = zoneClocks.get(tz);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short' });
    zoneClocks.set(tz, clock);
  }
  const part: Record<string, number> = {};
  let bc = false;
  for (const { type, value } of clock.formatToParts(ms)) {
    if (type === 'era') bc = value === 'BC' || value === 'B';
    else if (type !== 'literal') part[type] = Number(value);
  }
  const year = bc ? 1 - part.year! : part.year!;
  const wall = Date.UTC(year, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  // Date.UTC reads years 0–99 as 1900–1999.
  const wallMs = year >= 0 && year < 100 ? new Date(wall).setUTCFullYear(year) : wall;
  return Math.round((wallMs - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * The instant as seen on the studio's wall clock. The same Dayjs as
 * `dayjs(date).tz(tz)` (its zone is kept for startOf and the 'z' tokens), built
 * without the plugin's `toLocaleString` and string parse per call, which a
 * week's schedule calls hundreds of times as it renders (decision 036).
 */
export function studioDayjs(date: DateInput, tz: string): Dayjs {
  const instant = dayjs(date);
  if (!instant.isValid()) return instant.tz(tz);
  const zoned = instant.utcOffset(zoneOffsetMinutes(tz, instant.valueOf()));
  (zoned as Dayjs & { $x: { $timezone?: string } }).$x.$timezone = tz;
  return zoned;
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

/**
 * A calendar date with no time of day ('1993-09-21', a birthdate) as the
 * spec's 'DD MMM YYYY': '21 sep 1993'. Read in UTC, never moved to a zone,
 * so no studio clock turns it into the day before.
 */
export function formatCalendarDate(date: string): string {
  return dayjs.utc(date.slice(0, 10)).locale('es').format('DD MMM YYYY');
}

/** Epoch milliseconds of any date input. */
export function toMs(date: DateInput): number {
  return dayjs(date).valueOf();
}
