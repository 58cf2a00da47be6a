import { describe, expect, it } from 'vitest';
import { allocateCashPart, deskAccessDays, unitsByProduct } from '../../src/index.ts';

describe('the counter sale rules', () => {
  it('a split payment covers the lines in order; the line where the cash runs out is paid partly in each', () => {
    expect(allocateCashPart([80_000, 5_000, 18_000], 85_000 + 5_000)).toEqual([80_000, 5_000, 5_000]);
    expect(allocateCashPart([80_000, 18_000], 10_000)).toEqual([10_000, 0]);
  });

  it('counts a product named twice in a cart as its units together, in the order first named', () => {
    expect([...unitsByProduct([{ product_id: 7, quantity: 2 }, { product_id: 3, quantity: 1 }, { product_id: 7, quantity: 1 }])]).toEqual([
      [7, 3],
      [3, 1],
    ]);
  });

  it('gives the days typed, else the package’s, else one period of a subscription, else no end', () => {
    const now = new Date('2026-01-31T12:00:00Z');
    const pack = { expiration_days: 30, is_subscription: false, subscription_interval: null, subscription_period: null };
    expect(deskAccessDays(pack, 10, now)).toBe(10);
    expect(deskAccessDays(pack, null, now)).toBe(30);
    expect(deskAccessDays({ expiration_days: null, is_subscription: true, subscription_interval: 1, subscription_period: 'week' }, null, now)).toBe(7);
    expect(deskAccessDays({ ...pack, expiration_days: null }, null, now)).toBeNull();
  });
});
