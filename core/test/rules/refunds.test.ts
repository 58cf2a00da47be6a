import { describe, expect, it } from 'vitest';
import { purchaseStatusKey, refundableCents, refundedCents, texts } from '../../src/index.ts';

/**
 * How much of a purchase an owner may give back (decision 034), at its
 * edges: what the customer has not used, to the centavo and never more than
 * was paid.
 */
const day = 86_400_000;
const start = new Date('2026-03-01T12:00:00Z');
const pack = { paidCents: 80_000, classAmount: 5, startsAt: start, endsAt: null, now: new Date(start.getTime() + day) };
const month = { paidCents: 100_000, classAmount: -1, startsAt: start, endsAt: new Date(start.getTime() + 30 * day) };

describe('what a refund may give back', () => {
  it('nothing used: everything paid, pack or membership', () => {
    expect(refundableCents({ ...pack, used: 0 })).toBe(80_000);
    expect(refundableCents({ ...month, used: 0, now: new Date(start.getTime() + 29 * day) })).toBe(100_000);
  });

  it('a class pack: the share of the classes left, down to the centavo', () => {
    expect(refundableCents({ ...pack, used: 2 })).toBe(48_000);
    expect(refundableCents({ ...pack, used: 4 })).toBe(16_000);
    // $100.00 for 3 classes, one used: 66.666… is 66.66, never 66.67.
    expect(refundableCents({ ...pack, paidCents: 10_000, classAmount: 3, used: 1 })).toBe(6_666);
  });

  it('a class pack all used (or more, with classes moved): nothing', () => {
    expect(refundableCents({ ...pack, used: 5 })).toBe(0);
    expect(refundableCents({ ...pack, used: 7 })).toBe(0);
  });

  it('an unlimited membership already used: the share of its days left', () => {
    expect(refundableCents({ ...month, used: 3, now: new Date(start.getTime() + 10 * day) })).toBe(66_666);
    expect(refundableCents({ ...month, used: 3, now: new Date(start.getTime() + 15 * day) })).toBe(50_000);
    // Its last day gone: nothing; without an end there is no share to give.
    expect(refundableCents({ ...month, used: 3, now: month.endsAt })).toBe(0);
    expect(refundableCents({ ...month, used: 3, now: new Date(month.endsAt.getTime() + day) })).toBe(0);
    expect(refundableCents({ ...month, endsAt: null, used: 3, now: start })).toBe(0);
  });

  it('never more than was paid, even when asked before its access started', () => {
    expect(refundableCents({ ...month, used: 1, now: new Date(start.getTime() - 5 * day) })).toBe(100_000);
  });

  it('a purchase that charged nothing gives nothing back', () => {
    expect(refundableCents({ ...pack, paidCents: 0, used: 0 })).toBe(0);
    expect(refundableCents({ ...month, paidCents: 0, used: 3, now: start })).toBe(0);
  });
});

describe('what went back of a purchase', () => {
  const invoice = (status: string, total_payment: string) => ({ status, total_payment });

  it('sums its refund invoices, and nothing else', () => {
    expect(refundedCents([])).toBe(0);
    expect(refundedCents([invoice('completed', '800.00')])).toBe(0);
    expect(refundedCents([invoice('completed', '800.00'), invoice('refunded', '640.00')])).toBe(64_000);
  });

  it('names a refunded purchase by what happened to its money', () => {
    expect(purchaseStatusKey({ status: 'revoked', invoices: [invoice('completed', '800.00'), invoice('refunded', '640.00')] })).toBe('refunded');
    expect(purchaseStatusKey({ status: 'revoked', invoices: [invoice('completed', '800.00')] })).toBe('revoked');
    expect(purchaseStatusKey({ status: 'active', invoices: [] })).toBe('active');
    // The desk's replica has the purchase's own mark, not its invoices.
    expect(purchaseStatusKey({ status: 'revoked', refundedAt: '2026-11-20T18:00:00.000Z' })).toBe('refunded');
    expect(purchaseStatusKey({ status: 'revoked', refundedAt: null })).toBe('revoked');
  });

  it('says how many classes were used in good Spanish', () => {
    expect(texts.adminMoney.refundOverLimit(1, '$640.00')).toBe('Ya se usó 1 clase de esta compra: puedes reembolsar hasta $640.00.');
    expect(texts.adminMoney.refundOverLimit(2, '$480.00')).toBe('Ya se usaron 2 clases de esta compra: puedes reembolsar hasta $480.00.');
  });
});
