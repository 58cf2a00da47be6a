import { describe, expect, it } from 'vitest';
import { blocksCheckIn, parseReservationCode, scanWarnings, type ReservationView } from '../src/service/queries/scan.ts';

describe('what a scanner types', () => {
  it("reads the portal's Código de Acceso link and a bare folio", () => {
    expect(parseReservationCode('https://estudio.demo/admin/reservaciones/1234')).toBe(1234);
    expect(parseReservationCode('  http://127.0.0.1:3000/admin/reservaciones/7\n')).toBe(7);
    expect(parseReservationCode('45')).toBe(45);
    expect(parseReservationCode('#45')).toBe(45);
  });

  it('survives a scanner set to another keyboard layout (slashes and colons come out as other characters)', () => {
    expect(parseReservationCode('HTTPS>--ESTUDIO.DEMO-ADMIN-RESERVACIONES-88')).toBe(88);
    expect(parseReservationCode('https:&&estudio.demo&admin&reservaciones&88')).toBe(88);
  });

  it('refuses anything else in Spanish', () => {
    for (const code of ['', 'hola', 'https://estudio.demo/mystudio/reservaciones', '0', 'https://estudio.demo/admin/clases/12']) {
      expect(() => parseReservationCode(code)).toThrow('El código no es de una reservación');
    }
  });
});

describe('scan warnings', () => {
  const base: ReservationView = {
    class_reservation_id: 1,
    customer_id: 1,
    name: 'Mariana',
    last_name: 'López',
    email: 'cliente@estudio.demo',
    guest: null,
    spot: null,
    is_cash: false,
    is_paid: true,
    attend: false,
    attendedAt: null,
    deletedAt: null,
    single_class_id: 1,
    // 19:00 in Mexico City on 21 Nov (UTC-6)
    class_date: '2026-11-22T01:00:00.000Z',
    class_type: 'Yoga',
    location_id: 1,
    location: 'Roma Norte',
    classCancelledAt: null,
  };
  // 08:00 in Mexico City on 21 Nov: already the 21st there, as the class is, though UTC says the class is on the 22nd.
  const morning = new Date('2026-11-21T14:00:00.000Z');

  it("judges the day on the studio's calendar, not UTC's", () => {
    expect(scanWarnings(base, morning)).toEqual([]);
    expect(scanWarnings(base, new Date('2026-11-22T14:00:00.000Z'))).toEqual(['wrong-day']);
  });

  it('warns, most serious first, and only cancellations and the wrong day stop the check-in', () => {
    const unpaid = { ...base, is_cash: true, is_paid: false };
    expect(scanWarnings(unpaid, morning)).toEqual(['unpaid-cash']);
    expect(blocksCheckIn(scanWarnings(unpaid, morning))).toBe(false);
    const cancelled = { ...unpaid, deletedAt: '2026-11-20T10:00:00.000Z', classCancelledAt: '2026-11-20T11:00:00.000Z' };
    expect(scanWarnings(cancelled, morning)).toEqual(['reservation-cancelled', 'class-cancelled', 'unpaid-cash']);
    expect(blocksCheckIn(scanWarnings(cancelled, morning))).toBe(true);
    expect(scanWarnings({ ...base, attend: true }, morning)).toEqual(['already-attended']);
  });
});
