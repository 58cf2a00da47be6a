import { describe, expect, it } from 'vitest';
import { configMap, formatDate, formatDateTime, localTimeHHmm, studioTimeZone, weekOf } from '../../src/index.ts';

const tz = 'America/Mexico_City';
// Sunday 8 March 2026, 23:30 in Mexico City (UTC-6) is already Monday 05:30 in UTC.
const sundayLate = new Date('2026-03-09T05:30:00Z');

describe('studio time', () => {
  it('reads the zone from the config, Mexico City by default', () => {
    expect(studioTimeZone(configMap([]))).toBe('America/Mexico_City');
    expect(studioTimeZone({ timezone: 'America/Cancun' })).toBe('America/Cancun');
    expect(studioTimeZone({ timezone: '' })).toBe('America/Mexico_City');
  });

  it('a class at 23:30 local time keeps its local time and day', () => {
    expect(localTimeHHmm(sundayLate, tz)).toBe('23:30');
    expect(formatDateTime(sundayLate, tz)).toBe('08 mar 2026 23:30');
    expect(formatDate(sundayLate, tz)).toBe('08 mar 2026');
  });

  it('groups a Sunday 23:30 class into the week that started on Monday, not the next one', () => {
    expect(weekOf(sundayLate, tz)).toEqual({ start_date: '2026-03-02', end_date: '2026-03-08' });
    // The same instant in UTC is a Monday, which starts the next week.
    expect(weekOf(sundayLate, 'UTC')).toEqual({ start_date: '2026-03-09', end_date: '2026-03-15' });
  });

  it('a Monday belongs to its own week', () => {
    expect(weekOf(new Date('2026-03-02T13:00:00Z'), tz)).toEqual({ start_date: '2026-03-02', end_date: '2026-03-08' });
  });

  it('formats dates in Spanish', () => {
    expect(formatDateTime(new Date('2026-01-05T13:00:00Z'), tz)).toBe('05 ene 2026 07:00');
  });
});
