import { describe, expect, it } from 'vitest';
import { isValidSpot, parseSpotMap, seatRows, seatStates, totalSeats } from '../../src/index.ts';

describe('seat map', () => {
  it("numbers '4,6,6' from the back row: the back row is 1-4, the front row next to the coach 11-16", () => {
    expect(seatRows('4,6,6')).toEqual([
      { row: 1, seats: [1, 2, 3, 4] },
      { row: 2, seats: [5, 6, 7, 8, 9, 10] },
      { row: 3, seats: [11, 12, 13, 14, 15, 16] },
    ]);
    expect(totalSeats('4,6,6')).toBe(16);
  });

  it('parses spaces and rejects broken maps', () => {
    expect(parseSpotMap(' 3, 5 ')).toEqual([3, 5]);
    expect(parseSpotMap('3,,5')).toBeNull();
    expect(parseSpotMap('a,b')).toBeNull();
    expect(parseSpotMap('0,0')).toBeNull();
    expect(parseSpotMap('')).toBeNull();
    expect(parseSpotMap(null)).toBeNull();
    expect(seatRows(null)).toEqual([]);
    expect(totalSeats(undefined)).toBe(0);
  });

  it('accepts only seats on the map', () => {
    expect(isValidSpot('4,6,6', 1)).toBe(true);
    expect(isValidSpot('4,6,6', 16)).toBe(true);
    expect(isValidSpot('4,6,6', 17)).toBe(false);
    expect(isValidSpot('4,6,6', 0)).toBe(false);
    expect(isValidSpot('4,6,6', 2.5)).toBe(false);
    expect(isValidSpot(null, 1)).toBe(false);
  });
});

describe('the seats offered for a new place', () => {
  it('are the free ones while places are left, and none once the class is full below its map', () => {
    const states = (taken: number[], left: number) => seatStates('4,4', taken, left).flatMap((r) => r.seats.map((s) => s.state[0]).join(''));
    expect(states([2], 5)).toEqual(['ftff', 'ffff']);
    // A class of 3 on a map of 8: with 3 seats taken, the other five are closed, not free.
    expect(states([1, 2, 7], 0)).toEqual(['ttcc', 'cctc']);
    expect(seatStates(null, [], 3)).toEqual([]);
  });
});
