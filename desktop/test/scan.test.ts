import { describe, expect, it } from 'vitest';
import { checkInWindow } from '@estudio/core';
import { openReplica } from '@estudio/sync/client/replica';
import { blocksCheckIn, findReservation, prepareScanPath, scanNotices, scanOutcome, scanWarnings, type ReservationView } from '../src/service/queries/scan.ts';

// 19:00 in Mexico City on 21 Nov (UTC-6), 50 minutes: check-in from 18:00 to 20:20.
const classDate = '2026-11-22T01:00:00.000Z';
const window = checkInWindow(new Date(classDate), 50, { check_in_opens_minutes: '60', check_in_closes_minutes: '30' });
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
  class_date: classDate,
  duration_minutes: 50,
  class_type: 'Yoga',
  location_id: 1,
  location: 'Roma Norte',
  classCancelledAt: null,
  checkInOpensAt: window.opensAt.toISOString(),
  checkInClosesAt: window.closesAt.toISOString(),
  timeZone: 'America/Mexico_City',
};
// 18:50 in Mexico City on 21 Nov: already the 22nd in UTC, as the class is; the studio's calendar says the 21st for both.
const arrival = new Date('2026-11-22T00:50:00.000Z');

describe('scan warnings', () => {
  it("judges the day on the studio's calendar, not UTC's", () => {
    expect(scanWarnings(base, arrival)).toEqual([]);
    expect(scanWarnings(base, new Date('2026-11-23T00:50:00.000Z'))).toEqual(['wrong-day']);
  });

  it('refuses outside the check-in window: before it opens and 7 hours after the class', () => {
    expect(scanWarnings(base, new Date('2026-11-21T14:00:00.000Z'))).toEqual(['too-early']); // 08:00
    expect(scanWarnings(base, new Date(window.opensAt.getTime() - 1000))).toEqual(['too-early']);
    expect(scanWarnings(base, window.opensAt)).toEqual([]);
    const morningClass = { ...base, class_date: '2026-11-21T14:00:00.000Z', ...windowOf('2026-11-21T14:00:00.000Z') }; // 08:00 class
    expect(scanWarnings(morningClass, new Date('2026-11-21T21:00:00.000Z'))).toEqual(['too-late']); // 15:00, 7 hours after
    expect(blocksCheckIn(['too-late'])).toBe(true);
    expect(scanNotices(morningClass, ['too-late'])[0]).toEqual({
      code: 'too-late',
      text: 'Ya cerró el registro de asistencia de esta clase (cerró a las 09:20).',
      blocks: true,
      tone: 'red',
    });
    expect(scanNotices(base, ['too-early'])[0]?.text).toBe('Todavía no abre el registro de asistencia de esta clase: abre a las 18:00.');
  });

  it('warns, most serious first; cancellations, the wrong day and the window stop the check-in, unpaid cash does not', () => {
    const unpaid = { ...base, is_cash: true, is_paid: false };
    expect(scanWarnings(unpaid, arrival)).toEqual(['unpaid-cash']);
    expect(blocksCheckIn(scanWarnings(unpaid, arrival))).toBe(false);
    const cancelled = { ...unpaid, deletedAt: '2026-11-20T10:00:00.000Z', classCancelledAt: '2026-11-20T11:00:00.000Z' };
    expect(scanWarnings(cancelled, arrival)).toEqual(['reservation-cancelled', 'class-cancelled', 'unpaid-cash']);
    expect(blocksCheckIn(scanWarnings(cancelled, arrival))).toBe(true);
  });
});

function windowOf(date: string) {
  const w = checkInWindow(new Date(date), 50, { check_in_opens_minutes: '60', check_in_closes_minutes: '30' });
  return { checkInOpensAt: w.opensAt.toISOString(), checkInClosesAt: w.closesAt.toISOString() };
}

describe('scan outcome: a green screen means "let them in"', () => {
  it('green only when checked in now', () => {
    expect(scanOutcome(base, [], true)).toBe('admitted');
  });

  it('a code already used today is amber and says at what time (studio time), not green', () => {
    const used = { ...base, attend: true, attendedAt: '2026-11-22T00:47:00.000Z' };
    const warnings = scanWarnings(used, arrival);
    expect(warnings).toEqual(['already-attended']);
    expect(scanOutcome(used, warnings, false)).toBe('already');
    expect(scanNotices(used, warnings)[0]?.text).toBe('Ya entró: su asistencia se registró a las 18:47.');
  });

  it("last week's used code is red (another day), and so is a cancelled reservation", () => {
    const used = { ...base, attend: true, attendedAt: '2026-11-22T00:47:00.000Z' };
    const nextWeek = new Date('2026-11-29T00:50:00.000Z');
    const warnings = scanWarnings(used, nextWeek);
    expect(warnings).toEqual(['wrong-day', 'already-attended']);
    expect(scanOutcome(used, warnings, false)).toBe('refused');
    expect(scanOutcome({ ...base, deletedAt: '2026-11-20T10:00:00.000Z' }, ['reservation-cancelled'], false)).toBe('refused');
  });
});

describe('the scan path on a desk just opened', () => {
  it('prepares its statements once when a scan, a roster click and the start ask at the same moment', async () => {
    const replica = await openReplica({ dataDir: 'memory://' });
    try {
      const answers = await Promise.all([findReservation(replica.db, 1), findReservation(replica.db, 2), prepareScanPath(replica.db)]);
      expect(answers).toEqual([null, null, undefined]);
    } finally {
      await replica.close();
    }
  });
});
