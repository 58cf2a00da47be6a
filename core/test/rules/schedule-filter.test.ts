import { describe, expect, it } from 'vitest';
import { dayPartOf, hasScheduleFilters, isDayPart, matchesScheduleFilters } from '../../src/index.ts';

const mexico = 'America/Mexico_City';
const tijuana = 'America/Tijuana';

describe('the calendar filters', () => {
  it('tells the part of the day on the studio clock: morning before 12:00, afternoon before 18:00, evening after', () => {
    // Mexico City is UTC-6 all year.
    expect(dayPartOf('2026-03-04T12:00:00Z', mexico)).toBe('manana'); // 06:00
    expect(dayPartOf('2026-03-04T17:59:00Z', mexico)).toBe('manana'); // 11:59
    expect(dayPartOf('2026-03-04T18:00:00Z', mexico)).toBe('tarde'); // 12:00
    expect(dayPartOf('2026-03-04T23:59:00Z', mexico)).toBe('tarde'); // 17:59
    expect(dayPartOf('2026-03-05T00:00:00Z', mexico)).toBe('noche'); // 18:00
    expect(dayPartOf('2026-03-05T05:30:00Z', mexico)).toBe('noche'); // 23:30, already the next day in UTC
    // The same instant is another part of the day for a studio in Tijuana (UTC-8 until the US change on 8 March).
    expect(dayPartOf('2026-03-04T19:00:00Z', mexico)).toBe('tarde');
    expect(dayPartOf('2026-03-04T19:00:00Z', tijuana)).toBe('manana');
  });

  it('lets through what passes every filter that is set', () => {
    const yoga = { class_date: '2026-03-04T13:00:00Z', class_type_id: 1, class_instructors: [{ instructor_id: 7 }, { instructor_id: 8 }] };
    expect(matchesScheduleFilters(yoga, {}, mexico)).toBe(true);
    expect(matchesScheduleFilters(yoga, { classTypeId: 1 }, mexico)).toBe(true);
    expect(matchesScheduleFilters(yoga, { classTypeId: 2 }, mexico)).toBe(false);
    expect(matchesScheduleFilters(yoga, { instructorId: 8 }, mexico)).toBe(true);
    expect(matchesScheduleFilters(yoga, { instructorId: 9 }, mexico)).toBe(false);
    expect(matchesScheduleFilters(yoga, { dayPart: 'manana', instructorId: 7, classTypeId: 1 }, mexico)).toBe(true);
    expect(matchesScheduleFilters(yoga, { dayPart: 'noche', instructorId: 7, classTypeId: 1 }, mexico)).toBe(false);
    expect(matchesScheduleFilters({ ...yoga, class_instructors: [] }, { instructorId: 7 }, mexico)).toBe(false);
  });

  it('knows its parts of the day and whether any filter is set', () => {
    expect(isDayPart('tarde')).toBe(true);
    expect(isDayPart('madrugada')).toBe(false);
    expect(isDayPart(undefined)).toBe(false);
    expect(hasScheduleFilters({})).toBe(false);
    expect(hasScheduleFilters({ dayPart: 'noche' })).toBe(true);
  });
});
