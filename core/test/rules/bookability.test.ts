import { describe, expect, it } from 'vitest';
import {
  cancellationBlockedText,
  cancellationPolicyLines,
  checkBookingWindow,
  classBookability,
  configMap,
  evaluateCancellation,
  guestRuleText,
  pickGuestCredit,
  texts,
} from '../../src/index.ts';

const now = new Date('2026-03-04T16:00:00Z');
const minutesAhead = (m: number) => new Date(now.getTime() + m * 60_000).toISOString();
// Demo: book until 30 minutes before, the waitlist on, bookings open as soon as classes are scheduled.
const demo = configMap([]);
const klass = (over: Partial<Parameters<typeof classBookability>[0]> = {}) => ({
  class_date: minutesAhead(24 * 60),
  capacity: 10,
  reservation_count: 5,
  class_package_id: null,
  class_reservations: [],
  waitlist_id: null,
  package_access: true,
  ...over,
});
const stateOf = (over: Partial<Parameters<typeof classBookability>[0]> = {}, config = demo) => classBookability(klass(over), { now, config }).state;

describe('classBookability: the card tells the truth before the click', () => {
  it('available with its places left', () => {
    expect(classBookability(klass(), { now, config: demo })).toMatchObject({ state: 'available', placesLeft: 5, actionable: true, special: false });
  });

  it('inside the booking lead time it is closed, not "Quedan 5 lugares"; started classes say so', () => {
    expect(stateOf({ class_date: minutesAhead(29) })).toBe('too-late');
    expect(stateOf({ class_date: minutesAhead(30) })).toBe('available');
    expect(stateOf({ class_date: minutesAhead(0) })).toBe('started');
    expect(classBookability(klass({ class_date: minutesAhead(10) }), { now, config: demo }).actionable).toBe(false);
  });

  it('not open yet with reservation_opens_days, with the moment it opens', () => {
    const config = { ...demo, reservation_opens_days: '2' };
    const later = classBookability(klass({ class_date: minutesAhead(3 * 24 * 60) }), { now, config });
    expect(later).toMatchObject({ state: 'not-open', actionable: false });
    expect(later.opensAt?.toISOString()).toBe(minutesAhead(24 * 60));
    expect(stateOf({ class_date: minutesAhead(2 * 24 * 60) }, config)).toBe('available');
  });

  it('full: the waitlist when it is on, plainly closed when it is off', () => {
    expect(stateOf({ reservation_count: 10 })).toBe('full');
    expect(stateOf({ reservation_count: 10 }, { ...demo, waitlist_enabled: 'false' })).toBe('full-closed');
    expect(classBookability(klass({ reservation_count: 10 }), { now, config: { ...demo, waitlist_enabled: 'false' } }).actionable).toBe(false);
  });

  it('package-only: special without the package (the card links to it), bookable with it', () => {
    expect(classBookability(klass({ class_package_id: 7, package_access: false }), { now, config: demo })).toMatchObject({ state: 'special', special: true, actionable: true });
    expect(classBookability(klass({ class_package_id: 7, package_access: true }), { now, config: demo })).toMatchObject({ state: 'available', special: true });
  });

  it("the caller's own booking and waitlist come first", () => {
    expect(stateOf({ class_reservations: [{}], class_date: minutesAhead(10) })).toBe('reserved');
    expect(stateOf({ waitlist_id: 3, reservation_count: 10 })).toBe('waitlist');
  });

  it('a place freed in a class the caller waits for: bookable like for anyone, and the card knows she waited', () => {
    expect(classBookability(klass({ waitlist_id: 3, capacity: 1, reservation_count: 0 }), { now, config: demo })).toMatchObject({
      state: 'available',
      placesLeft: 1,
      waitlisted: true,
      actionable: true,
    });
    expect(classBookability(klass(), { now, config: demo }).waitlisted).toBe(false);
    // Closed to booking or package-only without the package: the entry stays, with the way to leave it.
    expect(stateOf({ waitlist_id: 3, capacity: 1, reservation_count: 0, class_date: minutesAhead(10) })).toBe('waitlist');
    expect(stateOf({ waitlist_id: 3, capacity: 1, reservation_count: 0, class_package_id: 7, package_access: false })).toBe('waitlist');
  });
});

describe('checkBookingWindow: reservation_opens_days', () => {
  const config = { ...demo, reservation_opens_days: '1' };
  it('refuses before the opening, exactly at it is open', () => {
    expect(checkBookingWindow({ classDate: minutesAhead(24 * 60 + 1), now, config })).toMatchObject({ ok: false, code: 'booking/not-open-yet' });
    expect(checkBookingWindow({ classDate: minutesAhead(24 * 60), now, config })).toEqual({ ok: true });
  });
});

describe('cancellation texts', () => {
  it('unlimited members are not told about a per-credit limit', () => {
    expect(cancellationPolicyLines(demo, { unlimited: false })).toEqual([
      'Solo puedes cancelar clases con 12 horas de anticipacion',
      'Solo puedes cancelar hasta 2 veces por cada crédito de clase.',
    ]);
    expect(cancellationPolicyLines(demo, { unlimited: true })).toEqual(['Solo puedes cancelar clases con 12 horas de anticipacion', texts.reservations.unlimitedCancels]);
  });

  it('with cancelling disabled, one text', () => {
    const disabled = { ...demo, allow_cancel_reservations: 'false', allow_cancel_after_treshold: 'false' };
    expect(cancellationPolicyLines(disabled, { unlimited: false })).toEqual(['Tus clases son transferibles y no son cancelables']);
    expect(cancellationPolicyLines({ ...disabled, allow_cancel_after_treshold: 'true' }, { unlimited: false })).toEqual([
      texts.reservations.cancelLateOnly,
      'Solo puedes cancelar hasta 2 veces por cada crédito de clase.',
    ]);
  });

  it('says why there is no Cancelar', () => {
    const at = (cancelsUsed: number, config = demo) => evaluateCancellation({ classDate: minutesAhead(48 * 60), now, config, cancelsUsed, cancelled: false });
    expect(cancellationBlockedText(at(2), demo)).toBe('Ya usaste las 2 cancelaciones de este crédito, por eso esta reservación ya no se puede cancelar.');
    expect(cancellationBlockedText(at(0), demo)).toBeNull();
    const strict = { ...demo, allow_cancel_after_treshold: 'false' };
    const late = evaluateCancellation({ classDate: minutesAhead(60), now, config: strict, cancelsUsed: 0, cancelled: false });
    expect(cancellationBlockedText(late, strict)).toBe('Ya no se puede cancelar: faltan menos de 12 horas para la clase.');
  });
});

describe('guests', () => {
  const target = { classTypeId: 1, classDate: minutesAhead(24 * 60), timeZone: 'America/Mexico_City' };
  const credit = (id: number, n: number, expires: string | null = null) => ({ available_class_id: id, available_classes: n, expiration_date: expires, class_type_id: null, allowed_times: null });

  it('the guest takes the next class of the booker’s credit, or of another one', () => {
    expect(pickGuestCredit([credit(1, 2)], target, credit(1, 2))?.available_class_id).toBe(1);
    expect(pickGuestCredit([credit(1, 1), credit(2, 4)], target, credit(1, 1))?.available_class_id).toBe(2);
    expect(pickGuestCredit([credit(1, 1)], target, credit(1, 1))).toBeNull();
  });

  it('an unlimited membership never pays for a guest', () => {
    expect(pickGuestCredit([credit(1, -1)], target, credit(1, -1))).toBeNull();
  });

  it('the rule as the customer reads it follows the setting', () => {
    expect(guestRuleText(demo)).toBe(texts.booking.guestUsesCredit);
    expect(guestRuleText({ guest_uses_credit: 'false' })).toBe(texts.booking.guestFree);
  });
});
