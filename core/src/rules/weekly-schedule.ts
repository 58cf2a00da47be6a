import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The instant of a local date ('YYYY-MM-DD') and time ('HH:mm') on the studio's wall clock. */
export function studioInstant(date: string, time: string, tz: string): Date {
  return dayjs.tz(`${date} ${time}`, tz).toDate();
}

export interface WeeklySlot {
  /** 1 (Monday) to 7 (Sunday), ISO 8601. */
  weekday: number;
  /** 'HH:mm' on the studio's clock. */
  time: string;
}

/**
 * Every start of a weekly template between two local dates (inclusive), in
 * time order, without repeats (two equal slots give one start). Day arithmetic
 * runs on calendar dates, and each start gets its own day's UTC offset.
 */
export function expandWeeklySlots(startDate: string, endDate: string, slots: readonly WeeklySlot[], tz: string): Date[] {
  const starts = new Map<number, Date>();
  const last = dayjs.utc(endDate);
  for (let day = dayjs.utc(startDate); !day.isAfter(last); day = day.add(1, 'day')) {
    const weekday = ((day.day() + 6) % 7) + 1;
    for (const slot of slots) {
      if (slot.weekday !== weekday) continue;
      const at = studioInstant(day.format('YYYY-MM-DD'), slot.time, tz);
      starts.set(at.getTime(), at);
    }
  }
  return [...starts.values()].sort((a, b) => a.getTime() - b.getTime());
}
