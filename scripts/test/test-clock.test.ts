import { describe, expect, it } from 'vitest';
import { currentClockOffsetSeconds, namedInstant, testClockEnv } from '../test-clock.mjs';

const library = { LD_PRELOAD: '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1' };

describe('the test clock (decision 010)', () => {
  it("names the next Sunday 31 December at 23:30 in Mexico City 'fin-de-año', always ahead", () => {
    expect(namedInstant('fin-de-año', new Date('2026-11-23T12:00:00Z'))).toBe('2028-12-31T23:30:00-06:00');
    // Once that night has come, the next one: 2034.
    expect(namedInstant('fin-de-año', new Date('2029-01-01T05:00:00Z'))).toBe('2034-12-31T23:30:00-06:00');
    const instant = namedInstant('fin-de-año') as string;
    expect(new Date(instant).getUTCDay()).toBe(1); // already Monday in UTC
    expect(new Date(instant).toISOString().slice(5, 10)).toBe('01-01');
    expect(namedInstant('2027-02-28T23:50:00-06:00')).toBeNull();
  });

  it('moves a clock forward by whole seconds from the real time, also from inside a moved run', () => {
    const target = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const fromReal = Number(testClockEnv(target, {}).FAKETIME);
    expect(fromReal).toBeGreaterThan(3 * 86_400 - 5);
    expect(fromReal).toBeLessThanOrEqual(3 * 86_400);
    // A process already 100 s ahead still gets the offset from the real clock, which libfaketime adds to.
    const inside = { ...library, FAKETIME: '+100' };
    expect(currentClockOffsetSeconds(inside)).toBe(100);
    expect(Math.abs(Number(testClockEnv(target, inside).FAKETIME) - (fromReal + 100))).toBeLessThanOrEqual(1);
  });

  it('refuses an instant in the past and one without its zone, in Spanish', () => {
    expect(() => testClockEnv('2020-01-01T00:00:00-06:00', {})).toThrow(/solo avanza/);
    expect(() => testClockEnv('2030-01-01T00:00:00', {})).toThrow(/Reloj inválido/);
  });
});
