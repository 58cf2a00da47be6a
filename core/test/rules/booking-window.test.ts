import { describe, expect, it } from 'vitest';
import { checkBookingWindow, configMap } from '../../src/index.ts';

const now = new Date('2026-03-02T12:00:00Z');
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const window = (hours: string, minutes: string) => ({
  ...configMap([]),
  reservation_timeframe_hours: hours,
  reservation_timeframe_minutes: minutes,
});

describe('booking window', () => {
  it('with the demo 30 minutes, a class exactly 30 minutes away may be booked, 29 may not', () => {
    const config = window('0', '30');
    expect(checkBookingWindow({ classDate: at(30), now, config })).toEqual({ ok: true });
    expect(checkBookingWindow({ classDate: at(29), now, config })).toEqual({ ok: false, code: 'booking/outside-window' });
  });

  it('adds hours and minutes', () => {
    const config = window('1', '30');
    expect(checkBookingWindow({ classDate: at(90), now, config }).ok).toBe(true);
    expect(checkBookingWindow({ classDate: at(89), now, config }).ok).toBe(false);
  });

  it('with no limit, only the future counts', () => {
    const config = window('0', '0');
    expect(checkBookingWindow({ classDate: at(1), now, config }).ok).toBe(true);
    expect(checkBookingWindow({ classDate: now, now, config })).toEqual({ ok: false, code: 'booking/class-started' });
    expect(checkBookingWindow({ classDate: at(-5), now, config: window('', '') })).toEqual({
      ok: false,
      code: 'booking/class-started',
    });
  });

  it('a started class says so even inside the window', () => {
    expect(checkBookingWindow({ classDate: at(-1), now, config: window('0', '30') })).toEqual({
      ok: false,
      code: 'booking/class-started',
    });
  });
});
