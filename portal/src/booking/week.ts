import dayjs from 'dayjs';
import 'dayjs/locale/es.js';
import utc from 'dayjs/plugin/utc.js';
import { weekOf } from '@estudio/core';

dayjs.extend(utc);

/**
 * Calendar arithmetic for the schedule's navigation. Weeks and months are
 * local calendar dates ('YYYY-MM-DD') in the studio's zone, as core's
 * weekOf gives them; they are shifted as plain dates (in UTC) so a daylight
 * saving change never moves a week by a day.
 */
const day = (date: string) => dayjs.utc(date).locale('es');

export interface Week {
  start_date: string;
  end_date: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_MONTH = /^\d{4}-\d{2}$/;

export const isIsoDate = (value: string | null | undefined): value is string => !!value && ISO_DATE.test(value) && day(value).isValid();
export const isIsoMonth = (value: string | null | undefined): value is string => !!value && ISO_MONTH.test(value) && day(`${value}-01`).isValid();

/** The Monday-to-Sunday week that holds a local calendar date. */
export function weekOfDate(date: string): Week {
  // Noon UTC keeps the date itself whatever zone weekOf reads it in.
  return weekOf(`${date}T12:00:00Z`, 'UTC');
}

export function shiftWeek(week: Week, weeks: number): Week {
  return weekOfDate(day(week.start_date).add(weeks * 7, 'day').format('YYYY-MM-DD'));
}

/** The seven dates of a week, Monday first. */
export function daysOf(week: Week): string[] {
  return Array.from({ length: 7 }, (_, i) => day(week.start_date).add(i, 'day').format('YYYY-MM-DD'));
}

/** The weeks that show days of a month ('YYYY-MM'), in order. */
export function weeksOfMonth(month: string): Week[] {
  const first = day(`${month}-01`);
  const last = first.endOf('month').format('YYYY-MM-DD');
  const weeks: Week[] = [];
  for (let week = weekOfDate(first.format('YYYY-MM-DD')); week.start_date <= last; week = shiftWeek(week, 1)) weeks.push(week);
  return weeks;
}

/** The month a week belongs to: the month of its Thursday (the ISO rule), so a week spanning two months sits in the one with most of its days. */
export const monthOfWeek = (week: Week): string => day(week.start_date).add(3, 'day').format('YYYY-MM');

export const shiftMonth = (month: string, months: number): string => day(`${month}-01`).add(months, 'month').format('YYYY-MM');

/** 'junio 2026' */
export const monthLabel = (month: string): string => day(`${month}-01`).format('MMMM YYYY');

/** '1 – 7 jun' or '29 jun – 5 jul' */
export function weekLabel(week: Week): string {
  const start = day(week.start_date);
  const end = day(week.end_date);
  return start.month() === end.month() ? `${start.format('D')} – ${end.format('D MMM')}` : `${start.format('D MMM')} – ${end.format('D MMM')}`;
}

/** 'lun', '2' and 'lunes 2 de junio' for a day header. */
export function dayLabels(date: string): { weekday: string; dayOfMonth: string; long: string } {
  const d = day(date);
  const long = d.format('dddd D [de] MMMM');
  return { weekday: d.format('ddd').replace('.', ''), dayOfMonth: d.format('D'), long: long.charAt(0).toUpperCase() + long.slice(1) };
}
