import { describe, expect, it } from 'vitest';
import { creditsForClass, creditsMatchingPackage, isCreditUsable, pickCredit, type CreditLike } from '../../src/index.ts';

const tz = 'America/Mexico_City';
const yoga = 1;
const cycling = 2;
// Sunday 8 March 2026 at 23:30 in Mexico City.
const lateClass = { classTypeId: yoga, classDate: new Date('2026-03-09T05:30:00Z'), timeZone: tz };

const credit = (over: Partial<CreditLike> & { available_class_id: number }): CreditLike => ({
  available_classes: 5,
  expiration_date: null,
  class_type_id: null,
  allowed_times: null,
  ...over,
});

describe('credits', () => {
  it('picks the credit that expires first, no expiry last', () => {
    const credits = [
      credit({ available_class_id: 1, expiration_date: null }),
      credit({ available_class_id: 2, expiration_date: '2026-05-01T00:00:00Z' }),
      credit({ available_class_id: 3, expiration_date: '2026-04-01T00:00:00Z' }),
    ];
    expect(pickCredit(credits, lateClass)?.available_class_id).toBe(3);
  });

  it('skips an expired credit and one that expires before the class starts', () => {
    const credits = [
      credit({ available_class_id: 1, expiration_date: '2026-02-01T00:00:00Z' }),
      credit({ available_class_id: 2, expiration_date: '2026-03-09T05:30:00Z' }),
      credit({ available_class_id: 3, expiration_date: '2026-03-09T05:31:00Z' }),
    ];
    expect(pickCredit(credits, lateClass)?.available_class_id).toBe(3);
    expect(pickCredit(credits.slice(0, 2), lateClass)).toBeNull();
  });

  it('skips spent and deleted credits', () => {
    expect(pickCredit([credit({ available_class_id: 1, available_classes: 0 })], lateClass)).toBeNull();
    expect(pickCredit([credit({ available_class_id: 1, deletedAt: new Date() })], lateClass)).toBeNull();
  });

  it('an unlimited credit (-1) is usable', () => {
    const unlimited = credit({ available_class_id: 9, available_classes: -1, expiration_date: '2026-04-01T00:00:00Z' });
    expect(isCreditUsable(unlimited, lateClass)).toBe(true);
    expect(pickCredit([unlimited], lateClass)).toBe(unlimited);
  });

  it('respects the class type restriction', () => {
    const cyclingOnly = credit({ available_class_id: 1, class_type_id: cycling });
    expect(pickCredit([cyclingOnly], lateClass)).toBeNull();
    expect(pickCredit([cyclingOnly], { ...lateClass, classTypeId: cycling })).toBe(cyclingOnly);
  });

  it("checks allowed_times against the class's local time (23:30), not UTC (05:30)", () => {
    expect(isCreditUsable(credit({ available_class_id: 1, allowed_times: '07:00, 23:30' }), lateClass)).toBe(true);
    expect(isCreditUsable(credit({ available_class_id: 1, allowed_times: '05:30' }), lateClass)).toBe(false);
    expect(isCreditUsable(credit({ available_class_id: 1, allowed_times: '' }), lateClass)).toBe(true);
  });

  it('breaks ties by the older row', () => {
    const credits = [credit({ available_class_id: 7 }), credit({ available_class_id: 4 })];
    expect(pickCredit(credits, lateClass)?.available_class_id).toBe(4);
  });
});

describe('creditsForClass (what the booking modal says she has to book with)', () => {
  it('adds the classes of the credits usable for this class only: not another type, not expired before it, not at another time', () => {
    const credits = [
      credit({ available_class_id: 1, available_classes: 3 }),
      credit({ available_class_id: 2, available_classes: 2, class_type_id: yoga }),
      credit({ available_class_id: 3, available_classes: 4, class_type_id: cycling }),
      credit({ available_class_id: 4, available_classes: 5, expiration_date: '2026-03-01T00:00:00Z' }),
      credit({ available_class_id: 5, available_classes: 6, allowed_times: '07:00' }),
      credit({ available_class_id: 6, available_classes: 0 }),
    ];
    expect(creditsForClass(credits, lateClass)).toEqual({ unlimited: false, classes: 5 });
  });

  it('an unlimited membership usable for the class says so, and counts no classes', () => {
    expect(creditsForClass([credit({ available_class_id: 1, available_classes: -1 }), credit({ available_class_id: 2, available_classes: 2 })], lateClass)).toEqual({ unlimited: true, classes: 2 });
    // An unlimited membership that ends before the class does not pay for it.
    expect(creditsForClass([credit({ available_class_id: 1, available_classes: -1, expiration_date: '2026-03-01T00:00:00Z' })], lateClass)).toEqual({ unlimited: false, classes: 0 });
  });

  it('none: zero classes', () => {
    expect(creditsForClass([], lateClass)).toEqual({ unlimited: false, classes: 0 });
  });
});

describe('creditsMatchingPackage (which credits may pay for a class)', () => {
  const rows = [
    { credit: 'regular', package_id: 1, special: false },
    { credit: 'gift', package_id: null, special: null },
    { credit: 'taller', package_id: 9, special: true },
  ];
  it('a special class takes only its package’s credits; any other class never takes a special package’s', () => {
    expect(creditsMatchingPackage(rows, 9)).toEqual(['taller']);
    expect(creditsMatchingPackage(rows, null)).toEqual(['regular', 'gift']);
  });
});
