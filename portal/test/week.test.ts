import { describe, expect, it } from 'vitest';
import { dayLabels, daysOf, monthOfWeek, shiftMonth, shiftWeek, weekLabel, weekOfDate, weeksOfMonth } from '../src/booking/week.ts';

describe('schedule navigation weeks', () => {
  it('a week runs Monday to Sunday around any of its days', () => {
    expect(weekOfDate('2026-11-21')).toEqual({ start_date: '2026-11-16', end_date: '2026-11-22' });
    expect(weekOfDate('2026-11-16')).toEqual({ start_date: '2026-11-16', end_date: '2026-11-22' });
    expect(weekOfDate('2026-11-22')).toEqual({ start_date: '2026-11-16', end_date: '2026-11-22' });
    expect(daysOf(weekOfDate('2026-11-21'))).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22']);
  });

  it('moves by whole weeks across months, years and daylight-saving changes', () => {
    expect(shiftWeek(weekOfDate('2026-11-30'), 1)).toEqual({ start_date: '2026-12-07', end_date: '2026-12-13' });
    expect(shiftWeek(weekOfDate('2027-01-01'), -1)).toEqual({ start_date: '2026-12-21', end_date: '2026-12-27' });
    // The US changes clocks on 2026-03-08 and 2026-11-01: calendar dates do not move.
    expect(shiftWeek(weekOfDate('2026-03-02'), 1).start_date).toBe('2026-03-09');
    expect(shiftWeek(weekOfDate('2026-11-02'), -1).start_date).toBe('2026-10-26');
  });

  it('lists the weeks that show days of a month, and puts a split week in the month of its Thursday', () => {
    const november = weeksOfMonth('2026-11');
    expect(november[0]).toEqual({ start_date: '2026-10-26', end_date: '2026-11-01' });
    expect(november.at(-1)).toEqual({ start_date: '2026-11-30', end_date: '2026-12-06' });
    expect(november).toHaveLength(6);
    expect(monthOfWeek({ start_date: '2026-10-26', end_date: '2026-11-01' })).toBe('2026-10');
    expect(monthOfWeek({ start_date: '2026-11-30', end_date: '2026-12-06' })).toBe('2026-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
  });

  it('labels weeks and days in Spanish', () => {
    expect(weekLabel({ start_date: '2026-11-23', end_date: '2026-11-29' })).toBe('23 – 29 nov');
    expect(weekLabel({ start_date: '2026-11-30', end_date: '2026-12-06' })).toBe('30 nov – 6 dic');
    expect(dayLabels('2026-11-23')).toEqual({ weekday: 'lun', dayOfMonth: '23', long: 'Lunes 23 de noviembre' });
  });
});
