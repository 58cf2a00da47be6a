import { describe, expect, it } from 'vitest';
import { addBusinessDays, businessDaysLeft, isBusinessDay, mexicanRestDays, privacyRequestDueDay } from '../../src/rules/privacy-requests.ts';

describe('the law’s deadline for a privacy request', () => {
  it('knows the official days of rest, the movable Mondays and the six-yearly 1 October', () => {
    expect([...mexicanRestDays(2026)].sort()).toEqual(['2026-01-01', '2026-02-02', '2026-03-16', '2026-05-01', '2026-09-16', '2026-11-16', '2026-12-25']);
    expect(mexicanRestDays(2030).has('2030-10-01')).toBe(true);
    expect(mexicanRestDays(2027).has('2027-10-01')).toBe(false);
    expect(isBusinessDay('2026-12-04')).toBe(true); // a Friday
    expect(isBusinessDay('2026-12-05')).toBe(false); // Saturday
    expect(isBusinessDay('2026-11-16')).toBe(false); // Revolution day, third Monday of November
  });

  it('counts 20 business days from the day after receipt, skipping weekends and days of rest', () => {
    // Friday 4 December 2026: 20 business days skip 25 December and 1 January.
    expect(privacyRequestDueDay('2026-12-04')).toBe('2027-01-05');
    // Received on a Saturday: the count starts on Monday.
    expect(privacyRequestDueDay('2026-12-05')).toBe(privacyRequestDueDay('2026-12-04'));
    expect(addBusinessDays('2026-11-13', 1)).toBe('2026-11-17');
    expect(addBusinessDays('2026-11-13', 0)).toBe('2026-11-13');
  });

  it('says how many business days are left, and how many have passed once late', () => {
    expect(businessDaysLeft('2026-12-04', '2027-01-05')).toBe(20);
    expect(businessDaysLeft('2027-01-05', '2027-01-05')).toBe(0);
    expect(businessDaysLeft('2027-01-06', '2027-01-05')).toBe(-1);
    expect(businessDaysLeft('2027-01-11', '2027-01-05')).toBe(-4);
  });
});
