import { describe, expect, it } from 'vitest';
import {
  bookingRefusal,
  checkInRefusal,
  checkInRefusals,
  checkInWindow,
  classOpenRefusal,
  configMap,
  deskActionTime,
  deskClockToleranceMs,
  deskMovableRefusal,
  deskMoveTargetRefusal,
  deskOverrideRefusal,
  DomainError,
  guestSeatRefusal,
  refuse,
  roomRefusal,
  seatRulesRefusal,
  type BookingFacts,
  type CheckInFacts,
} from '../../src/index.ts';

const tz = 'America/Mexico_City';
// Monday 07:00 in Mexico City, a 50-minute class; the window opens 60 minutes before and closes 30 after it ends.
const classDate = new Date('2026-11-23T13:00:00Z');
const settings = { ...configMap([]), check_in_opens_minutes: '60', check_in_closes_minutes: '30', allow_class_guests: 'true' };
const facts = (over: Partial<CheckInFacts> = {}): CheckInFacts => ({
  reservationCancelled: false,
  classCancelled: false,
  attended: false,
  classDate,
  window: checkInWindow(classDate, 50, settings),
  timeZone: tz,
  ...over,
});
const minutes = (m: number) => new Date(classDate.getTime() + m * 60_000);

describe('the desk clock', () => {
  it('takes the desk’s own time up to five minutes ahead of the server, and refuses a clock further ahead', () => {
    const now = new Date('2026-11-23T13:00:00Z');
    expect(deskActionTime(undefined, now)).toEqual(now);
    expect(deskActionTime(new Date(now.getTime() + deskClockToleranceMs).toISOString(), now).getTime()).toBe(now.getTime() + deskClockToleranceMs);
    expect(() => deskActionTime(new Date(now.getTime() + deskClockToleranceMs + 1).toISOString(), now)).toThrow(DomainError);
    // An offline action of hours ago keeps its time.
    expect(deskActionTime('2026-11-23T08:00:00.000Z', now).toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });
});

describe('the check-in verdict', () => {
  it('admits inside the window, both ends included', () => {
    expect(checkInRefusals(facts(), minutes(-60))).toEqual([]);
    expect(checkInRefusals(facts(), minutes(80))).toEqual([]);
    expect(checkInRefusal(facts(), minutes(0))).toBeNull();
  });

  it('refuses too early and too late on the class’s day', () => {
    expect(checkInRefusals(facts(), minutes(-61))).toEqual(['too-early']);
    expect(checkInRefusals(facts(), minutes(81))).toEqual(['too-late']);
    expect(checkInRefusal(facts(), minutes(81))).toBe('checkin/too-late');
  });

  it('a repeated scan keeps the first check-in: the window no longer matters, the day still does', () => {
    expect(checkInRefusals(facts({ attended: true }), minutes(300))).toEqual([]);
    expect(checkInRefusals(facts({ attended: true }), minutes(24 * 60))).toEqual(['wrong-day']);
  });

  it('judges the day on the studio’s calendar: 19:00 on Sunday in Mexico City is already Monday in UTC', () => {
    const sundayClass = new Date('2026-11-23T01:00:00Z'); // Sunday 19:00 in Mexico City
    const f = facts({ classDate: sundayClass, window: checkInWindow(sundayClass, 50, settings) });
    expect(checkInRefusals(f, new Date('2026-11-23T00:30:00Z'))).toEqual([]);
    expect(checkInRefusals(f, new Date('2026-11-23T07:00:00Z'))).toEqual(['wrong-day']);
  });

  it('lists every reason, most important first; the server answers the first', () => {
    const f = facts({ reservationCancelled: true, classCancelled: true });
    expect(checkInRefusals(f, minutes(-120))).toEqual(['reservation-cancelled', 'class-cancelled', 'too-early']);
    expect(checkInRefusal(f, minutes(-120))).toBe('checkin/reservation-cancelled');
  });
});

const booking = (over: Partial<BookingFacts> = {}): BookingFacts => ({
  klass: { class_date: classDate, duration_minutes: 50, cancelledAt: null, capacity: 2, spot_map: '1,2,3', class_package_id: null },
  byStaff: false,
  now: minutes(-24 * 60),
  settings,
  packageBought: false,
  booked: false,
  change: { spot: null, guest: null },
  taken: { places: 0, spotTaken: false },
  ...over,
});

describe('a booking’s refusals, for the portal and the desk alike', () => {
  it('a cancelled class first; staff book until the class ends, customers within the booking window', () => {
    expect(bookingRefusal(booking({ klass: { ...booking().klass, cancelledAt: classDate } }))).toBe('booking/class-cancelled');
    expect(classOpenRefusal(booking().klass, minutes(49), { byStaff: true, settings })).toBeNull();
    expect(classOpenRefusal(booking().klass, minutes(50), { byStaff: true, settings })).toBe('booking/class-started');
    expect(classOpenRefusal(booking().klass, minutes(10), { byStaff: false, settings })).not.toBeNull();
  });

  it('package-only classes, one booking per class, then the seats and the room', () => {
    const pkgClass = { ...booking().klass, class_package_id: 7 };
    expect(bookingRefusal(booking({ klass: pkgClass }))).toBe('booking/package-only');
    expect(bookingRefusal(booking({ klass: pkgClass, packageBought: true }))).toBeNull();
    expect(bookingRefusal(booking({ booked: true, taken: { places: 2, spotTaken: false } }))).toBe('booking/already-booked');
    expect(bookingRefusal(booking({ change: { spot: 9, guest: null } }))).toBe('booking/spot-invalid');
    expect(bookingRefusal(booking({ change: { spot: 2, guest: null }, taken: { places: 1, spotTaken: true } }))).toBe('booking/spot-taken');
    expect(bookingRefusal(booking({ taken: { places: 2, spotTaken: false } }))).toBe('booking/class-full');
    expect(bookingRefusal(booking({ change: { spot: null, guest: 'Ana' }, taken: { places: 1, spotTaken: false } }))).toBe('booking/class-full');
  });

  it('a guest: allowed by the studio, named, seated by a customer who takes a seat (staff may leave it to the door)', () => {
    expect(seatRulesRefusal({ allow_class_guests: 'false' }, null, { spot: null, guest: 'Ana' })).toBe('booking/guest-not-allowed');
    expect(seatRulesRefusal(settings, null, { spot: null, guest: ' A ' })).toBe('booking/guest-name');
    expect(seatRulesRefusal(settings, '1,2,3', { spot: 1, guest: 'Ana', guestSpot: 1 })).toBe('booking/guest-spot-invalid');
    expect(guestSeatRefusal('1,2,3', { spot: 1, guest: 'Ana', guestSpot: null })).toBe('booking/guest-spot-required');
    expect(guestSeatRefusal('1,2,3', { spot: null, guest: null, guestSpot: 2 })).toBe('booking/guest-spot-invalid');
    const withGuest = booking({ change: { spot: 1, guest: 'Ana' } });
    expect(bookingRefusal(withGuest)).toBe('booking/guest-spot-required');
    expect(bookingRefusal({ ...withGuest, byStaff: true, now: minutes(10) })).toBeNull();
    expect(roomRefusal(2, 'Ana', { places: 0, spotTaken: false })).toBeNull();
  });
});

describe('desk overrides and moves', () => {
  it('an override of the cancellation rules needs a reason of three letters', () => {
    expect(deskOverrideRefusal(null, null)).toBeNull();
    expect(deskOverrideRefusal(true, '  ok ')).toBe('desk/override-reason');
    expect(deskOverrideRefusal(false, 'Llegó enferma')).toBeNull();
  });

  it('a move goes to another class, of a live reservation the customer has not used', () => {
    expect(deskMoveTargetRefusal(4, 4)).toBe('desk/move-same-class');
    expect(deskMoveTargetRefusal(4, 5)).toBeNull();
    expect(deskMovableRefusal({ deletedAt: classDate, attend: false })).toBe('reservation/already-cancelled');
    expect(deskMovableRefusal({ deletedAt: null, attend: true })).toBe('desk/move-attended');
    expect(deskMovableRefusal({ deletedAt: null, attend: false })).toBeNull();
  });

  it('refuse throws the refusal as a DomainError, and nothing without one', () => {
    expect(() => refuse(null)).not.toThrow();
    expect(() => refuse('desk/move-attended')).toThrow(expect.objectContaining({ code: 'desk/move-attended' }));
  });
});
