import { describe, expect, it } from 'vitest';
import {
  cancellationLimitText,
  cancellationRuleText,
  cancellationWarning,
  cancelThresholdMs,
  cancelUnitLabel,
  configMap,
  creditBackUntil,
  evaluateCancellation,
} from '../../src/index.ts';

const now = new Date('2026-03-02T12:00:00Z');
const hoursAhead = (h: number) => new Date(now.getTime() + h * 3_600_000);
// Demo: 12 hours' notice, late cancels allowed without the credit, 2 cancels per credit.
const demo = configMap([]);
const strict = { ...demo, allow_cancel_after_treshold: 'false' };
const disabled = { ...demo, allow_cancel_reservations: 'false', allow_cancel_after_treshold: 'false' };
const evaluate = (classDate: Date, config = demo, cancelsUsed = 0, cancelled = false) =>
  evaluateCancellation({ classDate, now, config, cancelsUsed, cancelled });

describe('cancellation', () => {
  it('converts every unit the spec accepts', () => {
    expect(cancelThresholdMs(12, 'hours')).toBe(12 * 3_600_000);
    expect(cancelThresholdMs('1', 'hour')).toBe(3_600_000);
    expect(cancelThresholdMs(30, 'minutes')).toBe(1_800_000);
    expect(cancelThresholdMs(30, 'minute')).toBe(1_800_000);
    expect(cancelThresholdMs(90, 'seconds')).toBe(90_000);
    expect(cancelThresholdMs(1, 'second')).toBe(1_000);
    expect(cancelThresholdMs(2, 'days')).toBe(172_800_000);
    expect(cancelThresholdMs(1, 'day')).toBe(86_400_000);
  });

  it('the credit comes back until the notice period before the class, that instant included; never when cancelling is off', () => {
    // Demo: 12 hours' notice.
    expect(creditBackUntil(hoursAhead(20), demo)).toEqual(hoursAhead(8));
    expect(evaluate(hoursAhead(12))).toMatchObject({ allowed: true, creditReturned: true });
    expect(creditBackUntil(hoursAhead(20), disabled)).toBeNull();
  });

  it('labels units in Spanish, singular for one', () => {
    expect(cancelUnitLabel('hours', 12)).toBe('horas');
    expect(cancelUnitLabel('hours', 1)).toBe('hora');
    expect(cancelUnitLabel('minute', 30)).toBe('minutos');
    expect(cancelUnitLabel('days', 1)).toBe('día');
    expect(cancelUnitLabel('seconds', 2)).toBe('segundos');
  });

  it('exactly at the threshold the credit comes back; a millisecond later it does not', () => {
    expect(evaluate(hoursAhead(12))).toEqual({ allowed: true, creditReturned: true });
    const justLate = new Date(hoursAhead(12).getTime() - 1);
    expect(evaluate(justLate)).toEqual({ allowed: true, creditReturned: false });
  });

  it('without late cancels, a late cancel is refused', () => {
    expect(evaluate(hoursAhead(13), strict)).toEqual({ allowed: true, creditReturned: true });
    expect(evaluate(hoursAhead(11), strict)).toEqual({ allowed: false, creditReturned: false, code: 'reservation/cancel-too-late' });
  });

  it('with cancelling disabled, classes are transferable, not cancellable', () => {
    expect(evaluate(hoursAhead(48), disabled)).toMatchObject({ allowed: false, code: 'reservation/cancel-disabled' });
  });

  it('with cancelling disabled but late cancels on, cancels keep the credit', () => {
    expect(evaluate(hoursAhead(48), { ...demo, allow_cancel_reservations: 'false' })).toEqual({
      allowed: true,
      creditReturned: false,
    });
  });

  it('stops at max_cancels_per_available_class; 0 means no limit', () => {
    expect(evaluate(hoursAhead(48), demo, 1).allowed).toBe(true);
    expect(evaluate(hoursAhead(48), demo, 2)).toMatchObject({ allowed: false, code: 'reservation/cancel-limit' });
    expect(evaluate(hoursAhead(48), { ...demo, max_cancels_per_available_class: '0' }, 40).allowed).toBe(true);
  });

  it('refuses a cancelled reservation and a started class', () => {
    expect(evaluate(hoursAhead(48), demo, 0, true)).toMatchObject({ code: 'reservation/already-cancelled' });
    expect(evaluate(now)).toMatchObject({ allowed: false, code: 'booking/class-started' });
  });

  it('writes the rule, limit and warning texts of the spec', () => {
    expect(cancellationRuleText(demo)).toBe('Solo puedes cancelar clases con 12 horas de anticipacion');
    expect(cancellationRuleText(disabled)).toBe('Tus clases son transferibles y no son cancelables');
    expect(cancellationLimitText(demo)).toBe('Solo puedes cancelar hasta 2 veces por cada crédito de clase.');
    expect(cancellationLimitText({ max_cancels_per_available_class: '1' })).toBe(
      'Solo puedes cancelar hasta 1 vez por cada crédito de clase.',
    );
    expect(cancellationLimitText({ max_cancels_per_available_class: '0' })).toBeNull();
    expect(cancellationWarning(demo)).toBe(
      'Debido a que faltan menos de 12 horas para tu clase, tu crédito para reservar clase no se te regresará.',
    );
    expect(cancellationWarning({ ...demo, cancel_timeframe_value: '1', cancel_timeframe_unit: 'day' })).toBe(
      'Debido a que faltan menos de 1 día para tu clase, tu crédito para reservar clase no se te regresará.',
    );
  });
});
