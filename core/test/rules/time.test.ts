import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { configMap, formatDate, formatDateTime, localTimeHHmm, studioDayjs, studioTimeZone, weekOf } from '../../src/index.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

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

describe("studioDayjs, the studio's wall clock without the time-zone plugin's per-call cost (decision 036)", () => {
  // Zones with daylight saving both ways, half and quarter hours, a fixed zone and UTC.
  const zones = ['America/Mexico_City', 'America/Tijuana', 'America/Santiago', 'America/New_York', 'Europe/London', 'Asia/Kolkata', 'Pacific/Chatham', 'Australia/Lord_Howe', 'Etc/GMT+6', 'UTC'];

  it('is the same instant, wall clock, offset, start of day and week as dayjs(x).tz(zone), over 35 years and across transitions', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2035, 0, 1) }), (zone, ms) => {
        const plugin = dayjs(ms).tz(zone);
        const ours = studioDayjs(ms, zone);
        expect(ours.valueOf()).toBe(plugin.valueOf());
        expect(ours.format('YYYY-MM-DD HH:mm:ss.SSS Z')).toBe(plugin.format('YYYY-MM-DD HH:mm:ss.SSS Z'));
        expect(ours.startOf('day').valueOf()).toBe(plugin.startOf('day').valueOf());
        expect(ours.startOf('week').add(1, 'day').format()).toBe(plugin.startOf('week').add(1, 'day').format());
      }),
      { numRuns: 2000 },
    );
    // New York's spring-forward night, minute by minute.
    for (let ms = Date.UTC(2026, 2, 8, 5); ms < Date.UTC(2026, 2, 8, 9); ms += 60_000) {
      expect(studioDayjs(ms, 'America/New_York').format()).toBe(dayjs(ms).tz('America/New_York').format());
    }
  });

  it('leaves an invalid date invalid', () => {
    expect(studioDayjs('no es fecha', 'America/Mexico_City').isValid()).toBe(false);
  });
});
