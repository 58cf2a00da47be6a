import { describe, expect, it } from 'vitest';
import { localDate, localTimeHHmm, studioDayRange } from '../src/index.ts';

describe('studioDayRange', () => {
  it("covers whole local days on the studio's clock (Mexico City, no daylight saving)", () => {
    const { from, to } = studioDayRange('2026-01-05', '2026-01-11', 'America/Mexico_City');
    expect(from.toISOString()).toBe('2026-01-05T06:00:00.000Z');
    expect(to.toISOString()).toBe('2026-01-12T05:59:59.999Z');
  });

  it('keeps a class at 23:30 local inside its local day, though it is the next day in UTC', () => {
    const lateClass = new Date('2026-01-08T05:30:00.000Z');
    expect(localDate(lateClass, 'America/Mexico_City')).toBe('2026-01-07');
    expect(localTimeHHmm(lateClass, 'America/Mexico_City')).toBe('23:30');
    const day = studioDayRange('2026-01-07', '2026-01-07', 'America/Mexico_City');
    expect(lateClass >= day.from && lateClass <= day.to).toBe(true);
    const next = studioDayRange('2026-01-08', '2026-01-08', 'America/Mexico_City');
    expect(lateClass >= next.from).toBe(false);
  });

  it('follows each day’s own offset across a daylight-saving change', () => {
    const { from, to } = studioDayRange('2025-03-09', '2025-03-09', 'America/New_York');
    expect(from.toISOString()).toBe('2025-03-09T05:00:00.000Z');
    expect(to.toISOString()).toBe('2025-03-10T03:59:59.999Z');
  });

  it('answers a range asked again the same, in Date objects of its own that a caller may change', () => {
    const first = studioDayRange('2026-03-02', '2026-03-08', 'America/Mexico_City');
    first.from.setUTCFullYear(1999);
    const again = studioDayRange('2026-03-02', '2026-03-08', 'America/Mexico_City');
    expect(again.from.toISOString()).toBe('2026-03-02T06:00:00.000Z');
    expect(again.to.toISOString()).toBe('2026-03-09T05:59:59.999Z');
    expect(studioDayRange('2026-03-02', '2026-03-08', 'America/Cancun').from.toISOString()).toBe('2026-03-02T05:00:00.000Z');
  });
});
