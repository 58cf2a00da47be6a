import { describe, expect, it } from 'vitest';
import { addStudioPeriod, chargeDate, formatDate, formatDateTime, nextChargeDate } from '../../src/index.ts';

/** Decision 030: one next charge date, the spec's rule or the provider's own. */
const tz = 'America/Mexico_City';
const monthly = { status: 'active', subscription_interval: 1, subscription_period: 'month' } as const;
const mx = (local: string) => new Date(`${local}-06:00`);

describe('the next charge of a subscription', () => {
  it("created 14 Oct with a 7-day trial and last charged 14 Nov: 14 Dec, the provider's paid-through date (not 21 Dec)", () => {
    const s = { ...monthly, createdAt: mx('2026-10-14T07:30:00'), free_trial_length: 7, free_trial_period: 'day', paid_through: mx('2026-12-14T07:30:00') };
    expect(formatDate(nextChargeDate(s, mx('2026-11-24T12:00:00'), tz)!, tz)).toBe('14 dic 2026');
  });

  it('without a date from the provider: the creation day of the month plus the interval, the first one ahead', () => {
    const s = { ...monthly, createdAt: mx('2026-10-14T07:30:00') };
    expect(formatDateTime(nextChargeDate(s, mx('2026-10-20T00:00:00'), tz)!, tz)).toBe('14 nov 2026 07:30');
    expect(formatDateTime(nextChargeDate(s, mx('2026-11-24T12:00:00'), tz)!, tz)).toBe('14 dic 2026 07:30');
    // A paid-through date already behind (a renewal not yet paid) gives way to the rule.
    expect(formatDate(nextChargeDate({ ...s, paid_through: mx('2026-11-14T07:30:00') }, mx('2026-11-24T12:00:00'), tz)!, tz)).toBe('14 dic 2026');
    expect(formatDate(nextChargeDate({ ...s, subscription_interval: 3 }, mx('2026-11-24T12:00:00'), tz)!, tz)).toBe('14 ene 2027');
    expect(formatDate(nextChargeDate({ ...s, subscription_period: 'year' }, mx('2026-11-24T12:00:00'), tz)!, tz)).toBe('14 oct 2027');
  });

  it('during a free trial: its end', () => {
    const s = { ...monthly, createdAt: mx('2026-10-14T07:30:00'), free_trial_length: 7 };
    expect(formatDate(nextChargeDate(s, mx('2026-10-15T00:00:00'), tz)!, tz)).toBe('21 oct 2026');
  });

  it('only an active subscription has one', () => {
    const s = { ...monthly, createdAt: mx('2026-10-14T07:30:00') };
    expect(nextChargeDate({ ...s, status: 'cancelled' }, mx('2026-11-24T12:00:00'), tz)).toBeNull();
    expect(nextChargeDate({ ...s, status: 'completed' }, mx('2026-11-24T12:00:00'), tz)).toBeNull();
    expect(nextChargeDate({ ...s, subscription_period: null }, mx('2026-11-24T12:00:00'), tz)).toBeNull();
    expect(nextChargeDate({ ...s, is_subscription: false }, mx('2026-11-24T12:00:00'), tz)).toBeNull();
  });

  it('month end: created 31 Jan, charged 28 Feb (29 in a leap year), then 31 Mar, never dragged to the 28th', () => {
    const s = { ...monthly, createdAt: mx('2026-01-31T09:00:00') };
    expect([1, 2, 3].map((k) => formatDate(chargeDate(s, k, tz), tz))).toEqual(['28 feb 2026', '31 mar 2026', '30 abr 2026']);
    const leap = { ...monthly, createdAt: mx('2028-01-31T09:00:00') };
    expect(formatDate(chargeDate(leap, 1, tz), tz)).toBe('29 feb 2028');
    expect(formatDate(nextChargeDate(s, mx('2026-03-01T00:00:00'), tz)!, tz)).toBe('31 mar 2026');
  });

  it("counts the studio's day of the month: 20:00 on 30 Jan in Mexico City (the 31st in UTC) is next charged 28 Feb at 20:00", () => {
    const s = { ...monthly, createdAt: mx('2026-01-30T20:00:00') };
    expect(formatDateTime(chargeDate(s, 1, tz), tz)).toBe('28 feb 2026 20:00');
    // The same instant counted in UTC lands a day early on the studio's calendar.
    expect(formatDateTime(chargeDate(s, 1, 'UTC'), tz)).toBe('27 feb 2026 20:00');
  });

  it("follows the studio's zone through daylight saving: 09:00 in New York stays 09:00 after March", () => {
    const ny = 'America/New_York';
    const s = { ...monthly, createdAt: new Date('2026-01-15T14:00:00Z') };
    expect(formatDateTime(chargeDate(s, 3, ny), ny)).toBe('15 abr 2026 09:00');
    expect(addStudioPeriod(new Date('2026-03-07T14:00:00Z'), 1, 'day', ny).toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(addStudioPeriod(new Date('2026-01-01T06:00:00Z'), 2, 'week', tz).toISOString()).toBe('2026-01-15T06:00:00.000Z');
  });
});
