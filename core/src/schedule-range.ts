import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The instants bounding local calendar dates in the studio's zone: `from` is
 * start_date 00:00 on the studio's wall clock, `to` is end_date 23:59:59.999.
 * dayjs resolves each day's own UTC offset, so a range across a daylight-saving
 * change still covers whole local days.
 */
export function studioDayRange(startDate: string, endDate: string, tz: string): { from: Date; to: Date } {
  return {
    from: dayjs.tz(startDate, tz).startOf('day').toDate(),
    to: dayjs.tz(endDate, tz).endOf('day').toDate(),
  };
}
