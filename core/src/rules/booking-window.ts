import type { AppConfigMap } from '../appconfig.ts';
import { toMs, type DateInput } from './time.ts';

export type BookingWindowConfig = Pick<AppConfigMap, 'reservation_timeframe_hours' | 'reservation_timeframe_minutes'>;

export type BookingWindowResult = { ok: true } | { ok: false; code: 'booking/class-started' | 'booking/outside-window' };

function nonNegative(value: string | undefined): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Minimum time between booking and the class start, from the reservation_timeframe settings. */
export function bookingLeadMs(config: BookingWindowConfig): number {
  return nonNegative(config.reservation_timeframe_hours) * 3_600_000 + nonNegative(config.reservation_timeframe_minutes) * 60_000;
}

/**
 * May a class starting at classDate be booked now? The time left must be at
 * least reservation_timeframe_hours + reservation_timeframe_minutes; with no
 * limit the class must simply be in the future. Instants are compared, so the
 * studio's time zone does not enter.
 */
export function checkBookingWindow(input: { classDate: DateInput; now: DateInput; config: BookingWindowConfig }): BookingWindowResult {
  const left = toMs(input.classDate) - toMs(input.now);
  if (left <= 0) return { ok: false, code: 'booking/class-started' };
  if (left < bookingLeadMs(input.config)) return { ok: false, code: 'booking/outside-window' };
  return { ok: true };
}
