import { describe, expect, it } from 'vitest';
import { passesLuhn } from '../../src/rules/sandbox-cards.ts';

describe('passesLuhn', () => {
  it.each(['4242 4242 4242 4242', '4000 0000 0000 9995', '5555 5555 5555 4444', '3782 822463 10005', '4000000000000002'])('accepts %s (Stripe test numbers are real-looking)', (n) => {
    expect(passesLuhn(n)).toBe(true);
  });
  it.each(['4242 4242 4242 4241', '1234 5678 9012 3456', '4242', ''])('refuses %s', (n) => {
    expect(passesLuhn(n)).toBe(false);
  });
});
