import { describe, expect, it } from 'vitest';
import { allocateCashPart, deskAccessDays, productReturnCents, returnTooManyMessage, unitsByProduct } from '../../src/index.ts';

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

describe('a product brought back', () => {
  const none = { quantity: 0, amountCents: 0, cashCents: 0 };
  it('gives back the units at the unit price; the last ones take what is left of the total, to the centavo', () => {
    const line = { quantity: 3, unit_price: '33.33', total: '100.00', paidInCash: true, cash_part: null };
    expect(productReturnCents(line, none, 1)).toEqual({ amountCents: 3_333, cashCents: 3_333 });
    expect(productReturnCents(line, { quantity: 1, amountCents: 3_333, cashCents: 3_333 }, 2)).toEqual({ amountCents: 6_667, cashCents: 6_667 });
  });
  it('a card sale goes back on the card; a split one gives its cash part first, never more cash than was paid in cash', () => {
    expect(productReturnCents({ quantity: 2, unit_price: '100.00', total: '200.00', paidInCash: false, cash_part: null }, none, 1)).toEqual({ amountCents: 10_000, cashCents: 0 });
    const split = { quantity: 2, unit_price: '100.00', total: '200.00', paidInCash: false, cash_part: '150.00' };
    expect(productReturnCents(split, none, 1)).toEqual({ amountCents: 10_000, cashCents: 10_000 });
    expect(productReturnCents(split, { quantity: 1, amountCents: 10_000, cashCents: 10_000 }, 1)).toEqual({ amountCents: 10_000, cashCents: 5_000 });
  });
  it('says how many units are left to return', () => {
    expect(returnTooManyMessage(0)).toBe('Esta venta ya se devolvió completa.');
    expect(returnTooManyMessage(1)).toBe('Solo queda 1 pieza por devolver de esta venta.');
    expect(returnTooManyMessage(4)).toBe('Solo quedan 4 piezas por devolver de esta venta.');
  });
});
