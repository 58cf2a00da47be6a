import dayjs, { type Dayjs } from 'dayjs';
import isoWeek from 'dayjs/plugin/isoWeek.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { studioZone } from '../../format.ts';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(isoWeek);

/** The grid shows the studio's wall clock (its settings' zone, format.ts), whatever the zone of the desk's computer. */
export { studioZone };
export const firstHour = 6;
export const lastHour = 23;
export const slotMinutes = 30;
export const slotPx = 22;
export const slotsPerDay = ((lastHour - firstHour) * 60) / slotMinutes;

/** Monday (YYYY-MM-DD) of the studio's week holding `date`. */
export function mondayOf(date: Dayjs): string {
  return date.tz(studioZone()).startOf('isoWeek').format('YYYY-MM-DD');
}

export function todayMonday(): string {
  return mondayOf(dayjs());
}

/** The seven local dates of the week starting on `monday`. */
export function weekDays(monday: string): string[] {
  return Array.from({ length: 7 }, (_, i) => dayjs(monday).add(i, 'day').format('YYYY-MM-DD'));
}

export function addWeeks(monday: string, n: number): string {
  return dayjs(monday).add(n * 7, 'day').format('YYYY-MM-DD');
}

/** Local date and minutes after midnight of an instant, on the studio's clock. */
export function studioSlot(iso: string): { date: string; minutes: number; time: string } {
  const local = dayjs(iso).tz(studioZone());
  return { date: local.format('YYYY-MM-DD'), minutes: local.hour() * 60 + local.minute(), time: local.format('HH:mm') };
}

export const slotTime = (slot: number) => {
  const minutes = firstHour * 60 + slot * slotMinutes;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
};

export const dayLabel = (date: string) => dayjs(date).format('ddd D');
export const weekLabel = (monday: string) => `${dayjs(monday).format('D MMM')} – ${dayjs(monday).add(6, 'day').format('D MMM YYYY')}`;

/** A week's classes by their day on the studio's clock (YYYY-MM-DD), in the order given. */
export function classesByStudioDay<T extends { class_date: string }>(classes: readonly T[]): Map<string, T[]> {
  const byDay = new Map<string, T[]>();
  for (const c of classes) {
    const { date } = studioSlot(c.class_date);
    byDay.set(date, [...(byDay.get(date) ?? []), c]);
  }
  return byDay;
}
