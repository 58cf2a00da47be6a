import { describe, expect, it } from 'vitest';
import { formatCalendarDate } from '../src/index.ts';

describe("formatCalendarDate: a birthdate in the spec's DD MMM YYYY", () => {
  it("reads '21 sep 1993', not '21 de septiembre de 1993'", () => {
    expect(formatCalendarDate('1993-09-21')).toBe('21 sep 1993');
    expect(formatCalendarDate('2000-01-05')).toBe('05 ene 2000');
  });

  it('keeps the day whatever the zone of the process (no UTC midnight turned into the day before)', () => {
    expect(formatCalendarDate('1993-09-01')).toBe('01 sep 1993');
    expect(formatCalendarDate('1993-09-01T00:00:00.000Z')).toBe('01 sep 1993');
  });
});
