import { describe, expect, it } from 'vitest';
import { reservationDisplayStatus, reservationDisplayStatuses, reservationStatusText } from '../../src/index.ts';

const now = new Date('2026-03-02T12:00:00Z');
const past = new Date('2026-03-01T12:00:00Z');
const future = new Date('2026-03-03T12:00:00Z');
const base = { deletedAt: null, is_cash: false, is_paid: true, attend: false, class_date: future };

describe('reservation display status', () => {
  it("lists the five statuses in the spec's order with their texts", () => {
    expect(reservationDisplayStatuses.map(reservationStatusText)).toEqual([
      'Cancelada',
      'Pago en Efectivo Incompleto',
      'No Asistí',
      'Exitosa',
      'Próxima',
    ]);
  });

  it('cancelled wins over everything', () => {
    expect(reservationDisplayStatus({ ...base, deletedAt: past, is_cash: true, is_paid: false, attend: true }, now)).toBe('cancelled');
  });

  it('unpaid cash comes before attendance', () => {
    expect(reservationDisplayStatus({ ...base, is_cash: true, is_paid: false, attend: true, class_date: past }, now)).toBe('cashUnpaid');
    expect(reservationDisplayStatus({ ...base, is_cash: true, is_paid: true }, now)).toBe('upcoming');
  });

  it('a past class not attended is a no-show', () => {
    expect(reservationDisplayStatus({ ...base, class_date: past }, now)).toBe('noShow');
  });

  it('attended is Exitosa, past or not', () => {
    expect(reservationDisplayStatus({ ...base, attend: true, class_date: past }, now)).toBe('attended');
    expect(reservationDisplayStatus({ ...base, attend: true }, now)).toBe('attended');
  });

  it('otherwise upcoming', () => {
    expect(reservationDisplayStatus(base, now)).toBe('upcoming');
  });
});
