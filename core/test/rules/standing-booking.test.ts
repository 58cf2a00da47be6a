import { describe, expect, it } from 'vitest';
import { describeWeeklySlot, isInWeeklySlot, standingHorizonMs, weeklySlotOf } from '../../src/index.ts';

const tz = 'America/Mexico_City';
const yoga = { class_type_id: 1, location_id: 2 };

describe('a weekly slot ("Reservar cada semana")', () => {
  it("is read on the studio's clock: Sunday 23:30 in Mexico City is Sunday, though Monday in UTC", () => {
    expect(weeklySlotOf({ ...yoga, class_date: '2026-11-30T05:30:00Z' }, tz)).toEqual({ ...yoga, weekday: 7, start_minute: 23 * 60 + 30 });
  });

  it('holds the same class a week later, not another hour, discipline or location', () => {
    const slot = weeklySlotOf({ ...yoga, class_date: '2026-12-01T13:00:00Z' }, tz);
    expect(isInWeeklySlot(slot, { ...yoga, class_date: '2026-12-08T13:00:00Z' }, tz)).toBe(true);
    expect(isInWeeklySlot(slot, { ...yoga, class_date: '2026-12-08T13:30:00Z' }, tz)).toBe(false);
    expect(isInWeeklySlot(slot, { ...yoga, class_date: '2026-12-09T13:00:00Z' }, tz)).toBe(false);
    expect(isInWeeklySlot(slot, { ...yoga, class_type_id: 9, class_date: '2026-12-08T13:00:00Z' }, tz)).toBe(false);
    expect(isInWeeklySlot(slot, { ...yoga, location_id: 9, class_date: '2026-12-08T13:00:00Z' }, tz)).toBe(false);
  });

  it('keeps its wall-clock hour across a change of UTC offset (a zone with summer time)', () => {
    const ny = 'America/New_York';
    const slot = weeklySlotOf({ ...yoga, class_date: '2026-10-27T11:00:00Z' }, ny); // 07:00 EDT
    expect(isInWeeklySlot(slot, { ...yoga, class_date: '2026-11-03T12:00:00Z' }, ny)).toBe(true); // 07:00 EST
  });

  it('reads as a customer says it', () => {
    expect(describeWeeklySlot({ weekday: 2, start_minute: 420 })).toBe('martes 07:00');
    expect(describeWeeklySlot({ weekday: 7, start_minute: 19 * 60 + 5 })).toBe('domingo 19:05');
  });

  it("books as far ahead as the studio opens booking, or a week when booking opens as soon as a class exists", () => {
    const day = 86_400_000;
    expect(standingHorizonMs({ reservation_timeframe_hours: '0', reservation_timeframe_minutes: '0', reservation_opens_days: '3' })).toBe(3 * day);
    expect(standingHorizonMs({ reservation_timeframe_hours: '0', reservation_timeframe_minutes: '0', reservation_opens_days: '0' })).toBe(7 * day);
    expect(standingHorizonMs({ reservation_timeframe_hours: '0', reservation_timeframe_minutes: '0' })).toBe(7 * day);
  });
});
