import { isOn, type AppConfigMap } from '../appconfig.ts';
import type { DomainErrorCode } from '../errors.ts';
import { texts } from '../texts.ts';
import { toMs, type DateInput } from './time.ts';

export type CancellationConfig = Pick<
  AppConfigMap,
  | 'allow_cancel_reservations'
  | 'allow_cancel_after_treshold'
  | 'cancel_timeframe_value'
  | 'cancel_timeframe_unit'
  | 'max_cancels_per_available_class'
>;

const unitMs: Record<string, number> = {
  days: 86_400_000,
  day: 86_400_000,
  hours: 3_600_000,
  hour: 3_600_000,
  minutes: 60_000,
  minute: 60_000,
  seconds: 1_000,
  second: 1_000,
};

const unitLabels: Record<string, [singular: string, plural: string]> = {
  days: ['día', 'días'],
  day: ['día', 'días'],
  hours: ['hora', 'horas'],
  hour: ['hora', 'horas'],
  minutes: ['minuto', 'minutos'],
  minute: ['minuto', 'minutos'],
  seconds: ['segundo', 'segundos'],
  second: ['segundo', 'segundos'],
};

function timeframeValue(value: number | string): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function normalUnit(unit: string): string {
  const u = unit.trim().toLowerCase();
  // An unknown unit reads as hours, the setting's default.
  return Object.hasOwn(unitMs, u) ? u : 'hours';
}

/** The cancel threshold in milliseconds (spec units: hours, hour, minute, minutes, second, seconds, days, day). */
export function cancelThresholdMs(value: number | string, unit: string): number {
  return timeframeValue(value) * (unitMs[normalUnit(unit)] ?? 3_600_000);
}

/** The Spanish unit for the rule texts, singular for 1 ('1 hora', '12 horas'). */
export function cancelUnitLabel(unit: string, value: number | string): string {
  const [singular, plural] = unitLabels[normalUnit(unit)] ?? ['hora', 'horas'];
  return Number(value) === 1 ? singular : plural;
}

/** max_cancels_per_available_class as a number; 0 means no limit. */
export function maxCancelsPerCredit(config: Pick<AppConfigMap, 'max_cancels_per_available_class'>): number {
  const n = Number(config.max_cancels_per_available_class);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/**
 * The last instant a cancellation still gives the credit back (exactly at it
 * counts as in time): cancel_timeframe_value units before the class. Null
 * when the studio does not allow cancelling (allow_cancel_reservations off).
 */
export function creditBackUntil(classDate: DateInput, config: Pick<CancellationConfig, 'allow_cancel_reservations' | 'cancel_timeframe_value' | 'cancel_timeframe_unit'>): Date | null {
  if (!isOn(config.allow_cancel_reservations)) return null;
  return new Date(toMs(classDate) - cancelThresholdMs(config.cancel_timeframe_value, config.cancel_timeframe_unit));
}

export type CancellationCode =
  | 'reservation/already-cancelled'
  | 'booking/class-started'
  | 'reservation/cancel-limit'
  | 'reservation/cancel-disabled'
  | 'reservation/cancel-too-late';

export interface CancellationResult {
  allowed: boolean;
  /** True only when cancelled in time: the credit comes back. */
  creditReturned: boolean;
  code?: CancellationCode & DomainErrorCode;
}

/**
 * May this reservation be cancelled now, and does its credit come back?
 *
 * Allowed when not cancelled yet, the class has not started, the credit has
 * cancellations left (cancelsUsed < max_cancels_per_available_class, when that
 * is above 0), and either (a) allow_cancel_reservations is on and at least
 * cancel_timeframe_value units remain — the credit comes back — or
 * (b) allow_cancel_after_treshold is on — the credit is kept by the studio.
 * Exactly at the threshold counts as in time.
 */
export function evaluateCancellation(input: {
  classDate: DateInput;
  now: DateInput;
  config: CancellationConfig;
  cancelsUsed: number;
  cancelled: boolean;
}): CancellationResult {
  const { config } = input;
  const refuse = (code: CancellationCode): CancellationResult => ({ allowed: false, creditReturned: false, code });
  if (input.cancelled) return refuse('reservation/already-cancelled');
  const left = toMs(input.classDate) - toMs(input.now);
  if (left <= 0) return refuse('booking/class-started');
  const max = maxCancelsPerCredit(config);
  if (max > 0 && input.cancelsUsed >= max) return refuse('reservation/cancel-limit');
  const until = creditBackUntil(input.classDate, config);
  if (until && toMs(input.now) <= until.getTime()) return { allowed: true, creditReturned: true };
  if (isOn(config.allow_cancel_after_treshold)) return { allowed: true, creditReturned: false };
  return refuse(until ? 'reservation/cancel-too-late' : 'reservation/cancel-disabled');
}

/**
 * The rule lines of Mis Reservaciones and of the cancel dialog, one policy:
 * with cancelling off and no late cancelling, only that classes cannot be
 * cancelled; with only late cancelling, that the credit does not come back;
 * otherwise the notice period, then the per-credit limit — or, for a member
 * whose reservations are paid with an unlimited membership (which the limit
 * never counts, see cancelReservation), that there is no limit.
 */
export function cancellationPolicyLines(config: CancellationConfig, holder: { unlimited: boolean }): string[] {
  const canCancel = isOn(config.allow_cancel_reservations);
  const late = isOn(config.allow_cancel_after_treshold);
  if (!canCancel && !late) return [texts.reservations.cancelDisabled];
  const first = canCancel ? cancellationRuleText(config) : texts.reservations.cancelLateOnly;
  if (holder.unlimited) return [first, texts.reservations.unlimitedCancels];
  const limit = cancellationLimitText(config);
  return limit ? [first, limit] : [first];
}

/**
 * Why a reservation of a class still ahead offers no 'Cancelar', said to the
 * customer instead of a button that silently disappears; null when it may be
 * cancelled, or when its status already says why (cancelled, started).
 */
export function cancellationBlockedText(result: CancellationResult, config: CancellationConfig): string | null {
  switch (result.code) {
    case 'reservation/cancel-limit':
      return texts.reservations.cancelBlockedLimit(maxCancelsPerCredit(config));
    case 'reservation/cancel-too-late': {
      const value = timeframeValue(config.cancel_timeframe_value);
      return texts.reservations.cancelBlockedLate(value, cancelUnitLabel(config.cancel_timeframe_unit, value));
    }
    case 'reservation/cancel-disabled':
      return texts.reservations.cancelBlockedDisabled;
    default:
      return null;
  }
}

/** The rule line of Mis Reservaciones: the notice period, or that classes cannot be cancelled. */
export function cancellationRuleText(config: CancellationConfig): string {
  if (!isOn(config.allow_cancel_reservations)) return texts.reservations.cancelDisabled;
  const value = timeframeValue(config.cancel_timeframe_value);
  return texts.reservations.cancelRule(value, cancelUnitLabel(config.cancel_timeframe_unit, value));
}

/** 'Solo puedes cancelar hasta N vez/veces...' when a limit is set, else null. */
export function cancellationLimitText(config: Pick<AppConfigMap, 'max_cancels_per_available_class'>): string | null {
  const max = maxCancelsPerCredit(config);
  return max > 0 ? texts.reservations.maxCancels(max) : null;
}

/** The warning shown when cancelling late: the credit will not come back. */
export function cancellationWarning(config: CancellationConfig): string {
  const value = timeframeValue(config.cancel_timeframe_value);
  return texts.reservations.cancelWarning(value, cancelUnitLabel(config.cancel_timeframe_unit, value));
}
