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

/** Where a class sits across its day's column: its lane and how many lanes its group of overlapping classes needs. */
export interface DayLane {
  lane: number;
  lanes: number;
}

/**
 * Lays a day's classes side by side where they overlap (a 06:30 class beside the 07:00 one it runs into), as a
 * calendar does: each group of classes that overlap one another, directly or through others, shares the column in
 * as many lanes as it needs at once; a class takes the first lane free at its start. Classes that overlap nothing
 * keep the whole width. `start` and `end` are minutes of the day.
 */
export function dayLanes<T>(items: readonly T[], span: (item: T) => { start: number; end: number }): Map<T, DayLane> {
  const sorted = [...items].sort((a, b) => span(a).start - span(b).start || span(b).end - span(a).end);
  const placed = new Map<T, DayLane>();
  let group: { item: T; lane: number }[] = [];
  let laneEnds: number[] = [];
  let groupEnd = 0;
  const close = () => {
    for (const { item, lane } of group) placed.set(item, { lane, lanes: laneEnds.length });
    group = [];
    laneEnds = [];
  };
  for (const item of sorted) {
    const { start, end } = span(item);
    // A class starting once every class of the group has ended begins a group of its own.
    if (group.length > 0 && start >= groupEnd) close();
    groupEnd = group.length === 0 ? end : Math.max(groupEnd, end);
    let lane = laneEnds.findIndex((laneEnd) => laneEnd <= start);
    if (lane < 0) lane = laneEnds.push(end) - 1;
    else laneEnds[lane] = end;
    group.push({ item, lane });
  }
  close();
  return placed;
}
