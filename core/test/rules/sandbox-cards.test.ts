import { describe, expect, it } from 'vitest';
import { formatCardExpiry, parseCardExpiry, passesLuhn } from '../../src/rules/sandbox-cards.ts';

describe('passesLuhn', () => {
  it.each(['4242 4242 4242 4242', '4000 0000 0000 9995', '5555 5555 5555 4444', '3782 822463 10005', '4000000000000002'])('accepts %s (Stripe test numbers are real-looking)', (n) => {
    expect(passesLuhn(n)).toBe(true);
  });
  it.each(['4242 4242 4242 4241', '1234 5678 9012 3456', '4242', ''])('refuses %s', (n) => {
    expect(passesLuhn(n)).toBe(false);
  });
});

describe('the card expiry as people type it (decision 090)', () => {
  const now = new Date(2026, 10, 29); // 29 November 2026, local time

  it.each([
    ['12/30', 12, 2030],
    ['1230', 12, 2030],
    ['12/2030', 12, 2030],
    ['122030', 12, 2030],
    ['11/26', 11, 2026],
  ])('takes %s as MM/AA or MM/AAAA', (typed, month, year) => {
    expect(parseCardExpiry(typed, now)).toEqual({ ok: true, month, year });
  });

  it('names what to fix: the format, the month, a date already past', () => {
    expect(parseCardExpiry('1/30', now)).toEqual({ ok: false, reason: 'format' });
    expect(parseCardExpiry('12/203', now)).toEqual({ ok: false, reason: 'format' });
    expect(parseCardExpiry('13/30', now)).toEqual({ ok: false, reason: 'month' });
    expect(parseCardExpiry('00/30', now)).toEqual({ ok: false, reason: 'month' });
    expect(parseCardExpiry('10/26', now)).toEqual({ ok: false, reason: 'past' });
  });

  it('writes the slash after the month as it is typed, and nothing else', () => {
    expect(formatCardExpiry('1')).toBe('1');
    expect(formatCardExpiry('12')).toBe('12');
    expect(formatCardExpiry('123')).toBe('12/3');
    expect(formatCardExpiry('1230')).toBe('12/30');
    expect(formatCardExpiry('12/2030')).toBe('12/2030');
    expect(formatCardExpiry('12/20301')).toBe('12/2030');
  });
});
