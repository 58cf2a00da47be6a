import { studioDayjs } from './time.ts';

/**
 * The calendar's filters (the customer's portal): a coach, a discipline (the
 * class type) and a part of the day, read on the studio's clock. They narrow
 * the week a customer sees; they never change what she may book.
 */
export const dayParts = ['manana', 'tarde', 'noche'] as const;
export type DayPart = (typeof dayParts)[number];

/** Morning until 12:00, afternoon until 18:00, evening from 18:00, in the studio's time zone. */
export function dayPartOf(instant: string | Date, timeZone: string): DayPart {
  const hour = studioDayjs(instant, timeZone).hour();
  if (hour < 12) return 'manana';
  if (hour < 18) return 'tarde';
  return 'noche';
}

export function isDayPart(value: unknown): value is DayPart {
  return typeof value === 'string' && (dayParts as readonly string[]).includes(value);
}

export interface ScheduleFilters {
  instructorId?: number | undefined;
  classTypeId?: number | undefined;
  dayPart?: DayPart | undefined;
}

interface FilterableClass {
  class_date: string;
  class_type_id: number;
  class_instructors: readonly { instructor_id: number }[];
}

/** Whether a class passes every filter that is set (an unset one lets everything through). */
export function matchesScheduleFilters(c: FilterableClass, filters: ScheduleFilters, timeZone: string): boolean {
  if (filters.classTypeId !== undefined && c.class_type_id !== filters.classTypeId) return false;
  if (filters.instructorId !== undefined && !c.class_instructors.some((i) => i.instructor_id === filters.instructorId)) return false;
  if (filters.dayPart !== undefined && dayPartOf(c.class_date, timeZone) !== filters.dayPart) return false;
  return true;
}

export const hasScheduleFilters = (filters: ScheduleFilters): boolean =>
  filters.instructorId !== undefined || filters.classTypeId !== undefined || filters.dayPart !== undefined;
