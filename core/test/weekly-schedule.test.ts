import { describe, expect, it } from 'vitest';
import { expandWeeklySlots, studioInstant } from '../src/rules/weekly-schedule.ts';

describe('weekly schedule', () => {
  it('reads a local date and time on the studio clock', () => {
    expect(studioInstant('2026-11-23', '07:30', 'America/Mexico_City').toISOString()).toBe('2026-11-23T13:30:00.000Z');
    // New York changes its offset on 2026-11-01: each day keeps its own.
    expect(studioInstant('2026-10-31', '09:00', 'America/New_York').toISOString()).toBe('2026-10-31T13:00:00.000Z');
    expect(studioInstant('2026-11-02', '09:00', 'America/New_York').toISOString()).toBe('2026-11-02T14:00:00.000Z');
  });

  it('expands weekday slots over an inclusive range, once each, in time order', () => {
    // 2026-11-23 is a Monday; 2026-11-29 a Sunday (weekday 7).
    const starts = expandWeeklySlots(
      '2026-11-23',
      '2026-12-06',
      [
        { weekday: 7, time: '10:00' },
        { weekday: 1, time: '07:00' },
        { weekday: 1, time: '07:00' },
      ],
      'America/Mexico_City',
    );
    expect(starts.map((d) => d.toISOString())).toEqual([
      '2026-11-23T13:00:00.000Z',
      '2026-11-29T16:00:00.000Z',
      '2026-11-30T13:00:00.000Z',
      '2026-12-06T16:00:00.000Z',
    ]);
    expect(expandWeeklySlots('2026-11-24', '2026-11-28', [{ weekday: 1, time: '07:00' }], 'America/Mexico_City')).toEqual([]);
  });
});
