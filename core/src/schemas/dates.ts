import { monthNames } from '../texts.ts';
import { z } from '../zod.ts';

/**
 * The one home of date inputs. Every calendar date the API takes is
 * AAAA-MM-DD inside bounds that make sense for what it is, refused with a
 * Spanish message naming the field for people ('La fecha de nacimiento…').
 * Without bounds, year 9999 passed validation and became a 500: the studio's
 * end of 9999-12-31 is in year 10000 in UTC, which neither PostgreSQL nor
 * `Date#toISOString` round-trips. Bounds that move with the clock
 * are read at parse time, so a long-running server (or a moved test clock)
 * keeps them current.
 */

/** The earliest date any field accepts. */
export const earliestDate = '1900-01-01';
/** The latest date any field accepts. */
export const latestDate = '2100-12-31';


/** '2026-03-14' → '14 de marzo de 2026'. */
export function longSpanishDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return `${day} de ${monthNames[(month ?? 1) - 1]} de ${year}`;
}

/** Today's calendar date in UTC (at most a day ahead of any studio in the Americas). */
export function todayIso(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The calendar date `years` from today (negative: in the past), clamped to the absolute bounds. */
export function yearsFromToday(years: number, now = new Date()): string {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  const iso = todayIso(d);
  return iso < earliestDate ? earliestDate : iso > latestDate ? latestDate : iso;
}

interface DateBounds {
  /** Inclusive, AAAA-MM-DD; a function is read at parse time. */
  min: string | (() => string);
  max: string | (() => string);
}

const read = (bound: string | (() => string)) => (typeof bound === 'function' ? bound() : bound);

/**
 * A calendar date AAAA-MM-DD between `min` and `max` (inclusive). `label`
 * names the field as people read it, with its article ('La fecha de la clase').
 */
export function calendarDate(label: string, bounds: DateBounds = { min: earliestDate, max: latestDate }) {
  return z.iso.date({ error: `${label} debe tener el formato AAAA-MM-DD.` }).superRefine((value, ctx) => {
    const min = read(bounds.min);
    const max = read(bounds.max);
    if (value < min || value > max) {
      ctx.addIssue({ code: 'custom', message: `${label} debe estar entre el ${longSpanishDate(min)} y el ${longSpanishDate(max)}.` });
    }
  });
}

/** A person's birthdate: from 1900 to today. */
export const birthdate = calendarDate('La fecha de nacimiento', { min: earliestDate, max: () => todayIso() });

/** How far from today a class may be created or moved. */
export const classDateYearsBack = 1;
export const classDateYearsAhead = 3;

/** The date of a class being created or moved: from a year ago to three years ahead. */
export const classDate = (label = 'La fecha de la clase') =>
  calendarDate(label, { min: () => yearsFromToday(-classDateYearsBack), max: () => yearsFromToday(classDateYearsAhead) });

/**
 * A moment with its UTC offset (2026-03-14T08:00:00-06:00) inside the
 * absolute bounds, for the same reason as dates: year 9999 late in the day
 * is year 10000 in UTC.
 */
export function instant(label: string) {
  return z.iso.datetime({ offset: true, error: `${label} no es válida.` }).superRefine((value, ctx) => {
    const year = new Date(value).getUTCFullYear();
    if (!(year >= Number(earliestDate.slice(0, 4)) && year <= Number(latestDate.slice(0, 4)))) {
      ctx.addIssue({ code: 'custom', message: `${label} debe estar entre el ${longSpanishDate(earliestDate)} y el ${longSpanishDate(latestDate)}.` });
    }
  });
}

/**
 * A birthdate as the public site may show it: day and month only, in the
 * ISO 8601 form without a year ('1989-03-14' → '--03-14'). The spec shows a
 * coach's birthday as '14 de marzo'; the year (the age) is for staff only.
 */
export function yearlessBirthdate(date: string | null): string | null {
  const match = date ? /^\d{4}-(\d{2})-(\d{2})/.exec(date) : null;
  return match ? `--${match[1]}-${match[2]}` : null;
}
