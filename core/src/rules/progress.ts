import dayjs from 'dayjs';
import { localDate, type DateInput } from './time.ts';

/**
 * A customer's progress (Mi Información): the classes she has taken, month by
 * month, her streak of weeks with a class, and the milestones she reached.
 * A class taken is a booking she kept: not cancelled, its class held and
 * started, and not marked a no-show (a studio that never checks in still
 * counts its customers' classes). The server picks those; these rules count
 * them on the studio's calendar.
 */

/** How many classes make a milestone, smallest first. */
export const classMilestones = [1, 10, 25, 50, 100, 200, 300, 500, 1000] as const;

export interface MonthCount {
  /** 'YYYY-MM' on the studio's calendar. */
  month: string;
  classes: number;
}

export interface ReachedMilestone {
  classes: number;
  /** The studio-local day of the class that reached it, 'YYYY-MM-DD'. */
  reached_on: string;
}

export interface ClassProgress {
  total: number;
  /** The last `months` months, oldest first, this month last; months with no class count 0. */
  by_month: MonthCount[];
  /** Weeks in a row (Monday to Sunday) with at least one class, up to this week; a week still under way without one does not break it. */
  week_streak: number;
  /** The longest such run ever. */
  best_week_streak: number;
  milestones: ReachedMilestone[];
  /** The next milestone and the classes still missing for it; null past the last one. */
  next_milestone: { classes: number; missing: number } | null;
}

const mondayAfter = (monday: string, weeks: number) => dayjs.utc(monday).add(7 * weeks, 'day').format('YYYY-MM-DD');
/** The Monday of a calendar day's week ('YYYY-MM-DD'): day arithmetic on the date itself, no zone to shift it. */
const mondayOf = (day: string) => {
  const date = dayjs.utc(day);
  return date.subtract((date.day() + 6) % 7, 'day').format('YYYY-MM-DD');
};

/** Counts the classes taken (their start instants, any order) as of `now`, on the studio's calendar. */
export function classProgress(taken: readonly DateInput[], options: { now: DateInput; timeZone: string; months?: number }): ClassProgress {
  const { now, timeZone } = options;
  const months = options.months ?? 12;
  const days = taken.map((instant) => localDate(instant, timeZone)).sort();

  const thisMonth = dayjs.utc(`${localDate(now, timeZone).slice(0, 7)}-01`);
  const by_month: MonthCount[] = [];
  for (let back = months - 1; back >= 0; back--) by_month.push({ month: thisMonth.subtract(back, 'month').format('YYYY-MM'), classes: 0 });
  const slot = new Map(by_month.map((m) => [m.month, m]));
  for (const day of days) {
    const entry = slot.get(day.slice(0, 7));
    if (entry) entry.classes += 1;
  }

  // Weeks by their Monday; a run is Mondays seven days apart.
  const weeks = [...new Set(days.map(mondayOf))].sort();
  let best = 0;
  let run = 0;
  for (let i = 0; i < weeks.length; i++) {
    run = i > 0 && mondayAfter(weeks[i - 1]!, 1) === weeks[i] ? run + 1 : 1;
    best = Math.max(best, run);
  }
  const thisWeek = mondayOf(localDate(now, timeZone));
  const lastWeek = mondayAfter(thisWeek, -1);
  const latest = weeks.at(-1);
  const week_streak = latest === thisWeek || latest === lastWeek ? run : 0;

  const milestones = classMilestones.filter((n) => n <= days.length).map((n) => ({ classes: n, reached_on: days[n - 1]! }));
  const next = classMilestones.find((n) => n > days.length);
  return {
    total: days.length,
    by_month,
    week_streak,
    best_week_streak: best,
    milestones,
    next_milestone: next === undefined ? null : { classes: next, missing: next - days.length },
  };
}
