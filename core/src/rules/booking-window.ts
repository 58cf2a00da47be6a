import type { AppConfigMap } from '../appconfig.ts';
import { toMs, type DateInput } from './time.ts';

export type BookingWindowConfig = Pick<AppConfigMap, 'reservation_timeframe_hours' | 'reservation_timeframe_minutes'> &
  Partial<Pick<AppConfigMap, 'reservation_opens_days'>>;

export type BookingWindowResult =
  | { ok: true }
  | { ok: false; code: 'booking/class-started' | 'booking/outside-window' }
  | { ok: false; code: 'booking/not-open-yet'; opensAt: Date };

function nonNegative(value: string | undefined): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Minimum time between booking and the class start, from the reservation_timeframe settings. */
export function bookingLeadMs(config: BookingWindowConfig): number {
  return nonNegative(config.reservation_timeframe_hours) * 3_600_000 + nonNegative(config.reservation_timeframe_minutes) * 60_000;
}

/** When booking a class opens (reservation_opens_days before it), or null when it is open as soon as it is scheduled. */
export function bookingOpensAt(classDate: DateInput, config: BookingWindowConfig): Date | null {
  const days = Math.floor(nonNegative(config.reservation_opens_days));
  return days > 0 ? new Date(toMs(classDate) - days * 86_400_000) : null;
}

/**
 * May a class starting at classDate be booked now? The time left must be at
 * least reservation_timeframe_hours + reservation_timeframe_minutes; with no
 * limit the class must simply be in the future. With reservation_opens_days,
 * booking opens that many days before the class (exactly then counts as open).
 * Instants are compared, so the studio's time zone does not enter.
 */
export function checkBookingWindow(input: { classDate: DateInput; now: DateInput; config: BookingWindowConfig }): BookingWindowResult {
  const left = toMs(input.classDate) - toMs(input.now);
  if (left <= 0) return { ok: false, code: 'booking/class-started' };
  if (left < bookingLeadMs(input.config)) return { ok: false, code: 'booking/outside-window' };
  const opensAt = bookingOpensAt(input.classDate, input.config);
  if (opensAt && toMs(input.now) < opensAt.getTime()) return { ok: false, code: 'booking/not-open-yet', opensAt };
  return { ok: true };
}
