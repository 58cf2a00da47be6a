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
  const key = `${startDate}|${endDate}|${tz}`;
  let range = knownRanges.get(key);
  if (!range) {
    range = { from: dayjs.tz(startDate, tz).startOf('day').valueOf(), to: dayjs.tz(endDate, tz).endOf('day').valueOf() };
    if (knownRanges.size >= knownRangesKept) knownRanges.delete(knownRanges.keys().next().value as string);
    knownRanges.set(key, range);
  }
  // New Date objects each time: a caller may change the ones it gets.
  return { from: new Date(range.from), to: new Date(range.to) };
}

/**
 * Ranges already worked out, as instants: the answer depends only on the
 * dates and the zone, and dayjs's zone arithmetic was the largest cost of a
 * week's read after the database under the load mix. Every visitor
 * asks for the same few weeks. The oldest goes first when full.
 */
const knownRanges = new Map<string, { from: number; to: number }>();
const knownRangesKept = 2_000;
