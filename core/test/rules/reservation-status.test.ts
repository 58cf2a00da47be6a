import { describe, expect, it } from 'vitest';
import { reservationDisplayStatus, reservationDisplayStatuses, reservationStatusText, type ReservationDisplayStatus } from '../../src/index.ts';

const now = new Date('2026-03-02T12:00:00Z');
const past = new Date('2026-03-01T12:00:00Z');
const future = new Date('2026-03-03T12:00:00Z');
const base = { deletedAt: null, is_cash: false, is_paid: true, attend: false, class_date: future };

/**
 * The spec's order (account area, "Reservation display status"):
 *   1. deletedAt set: Cancelada.
 *   2. Cash payment and not paid: Pago en Efectivo Incompleto.
 *   3. Not attended and class date already past: No Asistí.
 *   4. Attended: Exitosa.
 *   5. Otherwise: Próxima.
 * Every combination of the four facts, each with the label a customer reads,
 * written out by hand: swapping any two rules, or dropping a condition from
 * one, changes at least one row.
 */
type Row = { cancelled: boolean; cashUnpaid: boolean; pastClass: boolean; attended: boolean; reads: string };
const rows: Row[] = [
  // Cancelled wins over everything.
  { cancelled: true, cashUnpaid: true, pastClass: true, attended: true, reads: 'Cancelada' },
  { cancelled: true, cashUnpaid: true, pastClass: true, attended: false, reads: 'Cancelada' },
  { cancelled: true, cashUnpaid: true, pastClass: false, attended: true, reads: 'Cancelada' },
  { cancelled: true, cashUnpaid: true, pastClass: false, attended: false, reads: 'Cancelada' },
  { cancelled: true, cashUnpaid: false, pastClass: true, attended: true, reads: 'Cancelada' },
  { cancelled: true, cashUnpaid: false, pastClass: true, attended: false, reads: 'Cancelada' },
  { cancelled: true, cashUnpaid: false, pastClass: false, attended: true, reads: 'Cancelada' },
  { cancelled: true, cashUnpaid: false, pastClass: false, attended: false, reads: 'Cancelada' },
  // Unpaid cash comes next, before a no-show and before attendance: a past class she missed still reads as unpaid.
  { cancelled: false, cashUnpaid: true, pastClass: true, attended: true, reads: 'Pago en Efectivo Incompleto' },
  { cancelled: false, cashUnpaid: true, pastClass: true, attended: false, reads: 'Pago en Efectivo Incompleto' },
  { cancelled: false, cashUnpaid: true, pastClass: false, attended: true, reads: 'Pago en Efectivo Incompleto' },
  { cancelled: false, cashUnpaid: true, pastClass: false, attended: false, reads: 'Pago en Efectivo Incompleto' },
  // Then a past class not attended.
  { cancelled: false, cashUnpaid: false, pastClass: true, attended: false, reads: 'No Asistí' },
  // Then attended, past or ahead (checked in before the start).
  { cancelled: false, cashUnpaid: false, pastClass: true, attended: true, reads: 'Exitosa' },
  { cancelled: false, cashUnpaid: false, pastClass: false, attended: true, reads: 'Exitosa' },
  // Otherwise upcoming.
  { cancelled: false, cashUnpaid: false, pastClass: false, attended: false, reads: 'Próxima' },
];

const statusOf = (row: Omit<Row, 'reads'>, cash: { is_cash: boolean; is_paid: boolean }) =>
  reservationStatusText(
    reservationDisplayStatus({ deletedAt: row.cancelled ? past : null, ...cash, attend: row.attended, class_date: row.pastClass ? past : future }, now),
  );

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

  it('the rows cover every combination of the four facts once', () => {
    expect(new Set(rows.map((r) => `${r.cancelled}${r.cashUnpaid}${r.pastClass}${r.attended}`)).size).toBe(16);
  });

  it.each(rows)(
    'cancelled $cancelled, unpaid cash $cashUnpaid, past class $pastClass, attended $attended: $reads',
    ({ reads, ...row }) => {
      const cash = row.cashUnpaid ? { is_cash: true, is_paid: false } : { is_cash: false, is_paid: true };
      expect(statusOf(row, cash)).toBe(reads);
    },
  );

  it.each(rows.filter((r) => !r.cashUnpaid))('cash already paid reads as card: $reads', ({ reads, ...row }) => {
    expect(statusOf(row, { is_cash: true, is_paid: true })).toBe(reads);
  });

  it('a past, unpaid cash reservation she did not attend reads Pago en Efectivo Incompleto, not No Asistí', () => {
    expect(reservationDisplayStatus({ ...base, is_cash: true, is_paid: false, attend: false, class_date: past }, now)).toBe<ReservationDisplayStatus>('cashUnpaid');
  });

  it('the class starting exactly now is not past yet: Próxima until it has begun', () => {
    expect(reservationDisplayStatus({ ...base, class_date: now }, now)).toBe('upcoming');
    expect(reservationDisplayStatus({ ...base, class_date: new Date(now.getTime() - 1) }, now)).toBe('noShow');
  });
});
