import { describe, expect, it } from 'vitest';
import { accessCodeLink, checkInTiming, checkInWindow, formatAccessCode, normaliseAccessCode, readScannedCode } from '../../src/index.ts';

describe('access codes', () => {
  it('normalises what staff type: case, spaces, dashes, and O/I/L read as 0/1', () => {
    expect(normaliseAccessCode('k7m2q-9xhpt')).toBe('K7M2Q9XHPT');
    expect(normaliseAccessCode(' K7M2Q 9XHPT ')).toBe('K7M2Q9XHPT');
    expect(normaliseAccessCode('A0B1C-D1E0F')).toBe('A0B1CD1E0F');
    expect(normaliseAccessCode('AOBIC-DLEOF')).toBe('A0B1CD1E0F');
    expect(normaliseAccessCode('K7M2Q9XHP')).toBeNull(); // 9 characters
    expect(normaliseAccessCode('K7M2Q9XHPTT')).toBeNull(); // 11
    expect(normaliseAccessCode('K7M2Q9XHPU')).toBeNull(); // U is not in the alphabet
  });

  it('shows the code in two groups of five and puts it last in the QR link', () => {
    expect(formatAccessCode('K7M2Q9XHPT')).toBe('K7M2Q-9XHPT');
    expect(accessCodeLink('https://estudio.demo/', 17, 'k7m2q-9xhpt')).toBe('https://estudio.demo/admin/reservaciones/17/K7M2Q9XHPT');
  });

  it('reads a QR link, also when the scanner mangles its symbols or sends capitals', () => {
    const expected = { kind: 'code', code: 'K7M2Q9XHPT', reservationId: 17 };
    expect(readScannedCode('https://estudio.demo/admin/reservaciones/17/K7M2Q9XHPT\n')).toEqual(expected);
    expect(readScannedCode('HTTPS>--ESTUDIO.DEMO-ADMIN-RESERVACIONES-17-K7M2Q9XHPT')).toEqual(expected);
    expect(readScannedCode('https:&&estudio.demo&admin&reservaciones&17&k7m2q9xhpt')).toEqual(expected);
  });

  it('reads a typed code', () => {
    expect(readScannedCode('k7m2q-9xhpt')).toEqual({ kind: 'code', code: 'K7M2Q9XHPT', reservationId: null });
    expect(readScannedCode('K7M2Q 9XHPT')).toEqual({ kind: 'code', code: 'K7M2Q9XHPT', reservationId: null });
    expect(readScannedCode("K7M2Q'9XHPT")).toEqual({ kind: 'code', code: 'K7M2Q9XHPT', reservationId: null }); // '-' on a Latin American layout
  });

  it('calls old sequential links and bare folios old codes (they were guessable)', () => {
    for (const old of ['https://estudio.demo/admin/reservaciones/177', 'http://127.0.0.1:3000/admin/reservaciones/7\n', '45', '#45', 'HTTPS>--ESTUDIO.DEMO-ADMIN-RESERVACIONES-88']) {
      expect(readScannedCode(old), old).toEqual({ kind: 'old-code' });
    }
  });

  it('refuses anything else as not a code', () => {
    for (const other of ['', 'hola', 'https://otro-estudio.mx/admin/clases/177', 'https://estudio.demo/mystudio/reservaciones', '7501031311309 7501031311309', 'https://otro.mx/K7M2Q9XHPT']) {
      expect(readScannedCode(other), other).toEqual({ kind: 'not-a-code' });
    }
  });
});

describe('check-in window', () => {
  const start = new Date('2026-11-24T12:00:00.000Z'); // 06:00 in Mexico City
  const window = checkInWindow(start, 50, { check_in_opens_minutes: '60', check_in_closes_minutes: '30' });

  it('opens N minutes before the start and closes M minutes after the end', () => {
    expect(window.opensAt.toISOString()).toBe('2026-11-24T11:00:00.000Z');
    expect(window.closesAt.toISOString()).toBe('2026-11-24T13:20:00.000Z');
  });

  it('admits inside, refuses before and after (both ends included)', () => {
    expect(checkInTiming(new Date('2026-11-24T10:59:59.000Z'), window)).toBe('too-early');
    expect(checkInTiming(window.opensAt, window)).toBeNull();
    expect(checkInTiming(new Date('2026-11-24T12:10:00.000Z'), window)).toBeNull();
    expect(checkInTiming(window.closesAt, window)).toBeNull();
    expect(checkInTiming(new Date('2026-11-24T19:00:00.000Z'), window)).toBe('too-late'); // 7 hours after the class
  });

  it('falls back to the defaults for a value that is not a number of minutes', () => {
    expect(checkInWindow(start, 50, { check_in_opens_minutes: 'x', check_in_closes_minutes: '-3' })).toEqual(window);
  });
});
