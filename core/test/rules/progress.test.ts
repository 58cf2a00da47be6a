import { describe, expect, it } from 'vitest';
import { classProgress } from '../../src/index.ts';

const tz = 'America/Mexico_City';
// Wednesday 18 November 2026, 10:00 in Mexico City.
const now = '2026-11-18T16:00:00Z';
/** A class at 07:00 studio time on that day. */
const at7 = (day: string) => `${day}T13:00:00Z`;

describe("a customer's progress", () => {
  it('counts nothing for a new customer: twelve empty months, no streak, the first class as the next milestone', () => {
    const progress = classProgress([], { now, timeZone: tz });
    expect(progress.total).toBe(0);
    expect(progress.by_month).toHaveLength(12);
    expect(progress.by_month[0]).toEqual({ month: '2025-12', classes: 0 });
    expect(progress.by_month.at(-1)).toEqual({ month: '2026-11', classes: 0 });
    expect(progress).toMatchObject({ week_streak: 0, best_week_streak: 0, milestones: [], next_milestone: { classes: 1, missing: 1 } });
  });

  it('counts by month on the studio calendar: a class at 23:30 on 31 October is October, though it is November in UTC', () => {
    const progress = classProgress(['2026-11-01T05:30:00Z', at7('2026-11-02'), at7('2026-11-03'), at7('2025-06-01')], { now, timeZone: tz, months: 3 });
    expect(progress.by_month).toEqual([
      { month: '2026-09', classes: 0 },
      { month: '2026-10', classes: 1 },
      { month: '2026-11', classes: 2 },
    ]);
    // A class older than the months shown still counts in the total and the milestones.
    expect(progress.total).toBe(4);
  });

  it('keeps a streak of weeks with a class; this week, still under way, does not break it until it ends', () => {
    // Weeks of 26 Oct, 2 Nov and 9 Nov (Mondays), none yet this week (16 Nov): three in a row, alive.
    const three = [at7('2026-10-27'), at7('2026-11-02'), at7('2026-11-08'), at7('2026-11-12')];
    expect(classProgress(three, { now, timeZone: tz })).toMatchObject({ week_streak: 3, best_week_streak: 3 });
    // A class this week makes four.
    expect(classProgress([...three, at7('2026-11-16')], { now, timeZone: tz }).week_streak).toBe(4);
    // Sunday 8 November 23:30 belongs to the week of 2 November, not to the next.
    expect(classProgress([at7('2026-11-02'), '2026-11-09T05:30:00Z'], { now, timeZone: tz })).toMatchObject({ week_streak: 0, best_week_streak: 1 });
    // A week missed before last week ends it; the best run is remembered.
    const broken = [at7('2026-09-07'), at7('2026-09-14'), at7('2026-09-21'), at7('2026-11-02')];
    expect(classProgress(broken, { now, timeZone: tz })).toMatchObject({ week_streak: 0, best_week_streak: 3 });
  });

  it('names each milestone with the day of the class that reached it, and what is missing for the next', () => {
    const days = Array.from({ length: 26 }, (_, i) => at7(`2026-10-${String(i + 1).padStart(2, '0')}`));
    const progress = classProgress(days.reverse(), { now, timeZone: tz });
    expect(progress.milestones).toEqual([
      { classes: 1, reached_on: '2026-10-01' },
      { classes: 10, reached_on: '2026-10-10' },
      { classes: 25, reached_on: '2026-10-25' },
    ]);
    expect(progress.next_milestone).toEqual({ classes: 50, missing: 24 });
  });
});
