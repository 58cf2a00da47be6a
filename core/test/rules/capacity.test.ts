import { describe, expect, it } from 'vitest';
import { hasRoomFor, isClassFull, placesForBooking, placesTaken } from '../../src/index.ts';

describe('capacity', () => {
  it('a guest takes a place of their own', () => {
    expect(placesTaken([{ guest: null }, { guest: 'Ana' }, { guest: null }])).toBe(4);
    expect(placesForBooking('Ana')).toBe(2);
    expect(placesForBooking(null)).toBe(1);
  });

  it('cancelled reservations free their places', () => {
    expect(placesTaken([{ guest: 'Ana', deletedAt: new Date() }, { guest: null, deletedAt: null }])).toBe(1);
  });

  it('is full when the count reaches capacity', () => {
    expect(isClassFull({ capacity: 10, reservation_count: 9 })).toBe(false);
    expect(isClassFull({ capacity: 10, reservation_count: 10 })).toBe(true);
    expect(isClassFull({ capacity: 10, reservation_count: 11 })).toBe(true);
  });

  it('is full when data is missing', () => {
    expect(isClassFull(null)).toBe(true);
    expect(isClassFull(undefined)).toBe(true);
    expect(isClassFull({ capacity: 10 })).toBe(true);
    expect(isClassFull({ reservation_count: 0 })).toBe(true);
  });

  it('a booking with a guest needs two free places', () => {
    expect(hasRoomFor({ capacity: 10, reservation_count: 9 }, 1)).toBe(true);
    expect(hasRoomFor({ capacity: 10, reservation_count: 9 }, 2)).toBe(false);
  });
});
