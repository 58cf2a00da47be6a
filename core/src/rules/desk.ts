import { isOn, type AppConfigMap } from '../appconfig.ts';
import { DomainError, type DomainErrorCode } from '../errors.ts';
import { checkBookingWindow, type BookingWindowConfig } from './booking-window.ts';
import { placesForBooking } from './capacity.ts';
import { checkInTiming, type CheckInWindow } from './check-in-window.ts';
import { heldSeats } from './guests.ts';
import { isValidSpot, parseSpotMap } from './seat-map.ts';
import { localDate, toMs, type DateInput } from './time.ts';

/**
 * The rules a desk action is judged by, in one place: the server's desk
 * services, the desk's optimistic mutators (which apply them to the replica,
 * offline too) and the scan panel all call these, so the desk can never
 * disagree with the server about a check-in, a walk-in or a seat.
 */

/** Throws the refusal, if there is one. */
export function refuse(code: DomainErrorCode | null | undefined): void {
  if (code) throw new DomainError(code);
}

/** A desk's clock may run a little ahead of the server's; more than this is a wrong clock, not an action. */
export const deskClockToleranceMs = 5 * 60_000;

/** When a desk action happened: the desk's own time (`at`) or now; a time well in the future is a wrong desk clock. */
export function deskActionTime(at: string | null | undefined, now: Date): Date {
  const when = at ? new Date(at) : now;
  if (when.getTime() > now.getTime() + deskClockToleranceMs) throw new DomainError('checkin/time-in-future');
  return when;
}

/** Why a check-in is refused, as the scan panel names it. */
export type CheckInRefusal = 'reservation-cancelled' | 'class-cancelled' | 'wrong-day' | 'too-early' | 'too-late';

export interface CheckInFacts {
  reservationCancelled: boolean;
  classCancelled: boolean;
  /** Already checked in: a repeated scan keeps the first time, so the window no longer matters. */
  attended: boolean;
  classDate: DateInput;
  window: CheckInWindow;
  timeZone: string;
}

/**
 * Every reason a check-in at `at` is refused, most important first: a
 * cancelled reservation or class, a class on another calendar day of the
 * studio, then (first check-in only) outside the check-in window. Empty when
 * it is admitted; a repeat of a check-in already made is admitted (it keeps the first time).
 */
export function checkInRefusals(facts: CheckInFacts, at: Date): CheckInRefusal[] {
  const refusals: CheckInRefusal[] = [];
  if (facts.reservationCancelled) refusals.push('reservation-cancelled');
  if (facts.classCancelled) refusals.push('class-cancelled');
  if (localDate(facts.classDate, facts.timeZone) !== localDate(at, facts.timeZone)) refusals.push('wrong-day');
  else if (!facts.attended) {
    const timing = checkInTiming(at, facts.window);
    if (timing) refusals.push(timing);
  }
  return refusals;
}

/** The error a server or a desk answers for a refused check-in (the first reason). */
export function checkInRefusal(facts: CheckInFacts, at: Date): DomainErrorCode | null {
  const [first] = checkInRefusals(facts, at);
  return first ? (`checkin/${first}` as const) : null;
}

/** A booking's seats and guest: the booker's seat, the guest's name and the guest's seat. */
export interface SeatChoice {
  spot: number | null;
  guest: string | null;
  /** The guest's seat; checked like the booker's, and never the booker's own. */
  guestSpot?: number | null;
}

/**
 * A guest on a seat-mapped class sits somewhere: a customer who books a seat
 * with a guest chooses the guest's seat too (staff may leave it to the door).
 */
export function guestSeatRefusal(spotMap: string | null | undefined, change: SeatChoice): DomainErrorCode | null {
  const guestSpot = change.guestSpot ?? null;
  if (change.guest !== null && change.spot !== null && guestSpot === null && parseSpotMap(spotMap)) return 'booking/guest-spot-required';
  if (guestSpot !== null && change.guest === null) return 'booking/guest-spot-invalid';
  return null;
}

/** The guest and seat rules that need no count: guests allowed and named, seats on the class's map, the guest not on the booker's seat. */
export function seatRulesRefusal(settings: Pick<AppConfigMap, 'allow_class_guests'>, spotMap: string | null | undefined, change: SeatChoice): DomainErrorCode | null {
  const guestSpot = change.guestSpot ?? null;
  if (change.guest !== null) {
    if (!isOn(settings.allow_class_guests)) return 'booking/guest-not-allowed';
    if (change.guest.trim().length < 2) return 'booking/guest-name';
  }
  for (const seat of heldSeats({ spot: change.spot, guest_spot: guestSpot })) {
    if (!parseSpotMap(spotMap) || !isValidSpot(spotMap, seat)) return 'booking/spot-invalid';
  }
  if (guestSpot !== null && guestSpot === change.spot) return 'booking/guest-spot-invalid';
  return null;
}

/** Room for the booking: its seat free, and its places (a guest takes one more) within the capacity. */
export function roomRefusal(capacity: number, guest: string | null, taken: { places: number; spotTaken: boolean }): DomainErrorCode | null {
  if (taken.spotTaken) return 'booking/spot-taken';
  if (taken.places + placesForBooking(guest) > capacity) return 'booking/class-full';
  return null;
}

export interface ClassTimes {
  class_date: DateInput;
  duration_minutes: number;
  cancelledAt: DateInput | null;
}

export function classEnd(c: Pick<ClassTimes, 'class_date' | 'duration_minutes'>): Date {
  return new Date(toMs(c.class_date) + c.duration_minutes * 60_000);
}

/**
 * A class open to a new booking: not cancelled, and for a customer inside the
 * booking window; staff at the desk book until the class ends (the person is
 * already in the room).
 */
export function classOpenRefusal(c: ClassTimes, now: Date, who: { byStaff: boolean; settings: BookingWindowConfig }): DomainErrorCode | null {
  if (c.cancelledAt) return 'booking/class-cancelled';
  if (who.byStaff) return classEnd(c).getTime() <= now.getTime() ? 'booking/class-started' : null;
  const window = checkBookingWindow({ classDate: c.class_date, now, config: who.settings });
  return window.ok ? null : window.code;
}

export interface BookingFacts {
  klass: ClassTimes & { capacity: number; spot_map: string | null | undefined; class_package_id: number | null };
  byStaff: boolean;
  now: Date;
  settings: BookingWindowConfig & Pick<AppConfigMap, 'allow_class_guests'>;
  /** The customer holds a live purchase of the class's package (package-only classes). */
  packageBought: boolean;
  /** The customer already holds a live booking of the class. */
  booked: boolean;
  change: SeatChoice;
  taken: { places: number; spotTaken: boolean };
}

/**
 * The terms of a booking, before its credits and the count of places: the
 * class open, package-only access, one booking per class, the guest and seat
 * rules, in the order the server checks them.
 */
export function bookingTermsRefusal(f: Omit<BookingFacts, 'taken'>): DomainErrorCode | null {
  return (
    classOpenRefusal(f.klass, f.now, f) ??
    (f.klass.class_package_id !== null && !f.packageBought ? 'booking/package-only' : null) ??
    (f.booked ? 'booking/already-booked' : null) ??
    (f.byStaff ? null : guestSeatRefusal(f.klass.spot_map, f.change)) ??
    seatRulesRefusal(f.settings, f.klass.spot_map, f.change)
  );
}

/** Every refusal a booking meets before its credits: its terms, then room. Null when it goes on to the credits. */
export function bookingRefusal(f: BookingFacts): DomainErrorCode | null {
  return bookingTermsRefusal(f) ?? roomRefusal(f.klass.capacity, f.change.guest, f.taken);
}

/** Staff who decide a cancellation's credit themselves must say why. */
export function deskOverrideRefusal(returnCredit: boolean | null | undefined, reason: string | null | undefined): DomainErrorCode | null {
  if (returnCredit === null || returnCredit === undefined) return null;
  return (reason?.trim().length ?? 0) < 3 ? 'desk/override-reason' : null;
}

/** A reservation moved at the desk goes to another class (judged before the reservation is read). */
export function deskMoveTargetRefusal(fromClassId: number, toClassId: number): DomainErrorCode | null {
  return toClassId === fromClassId ? 'desk/move-same-class' : null;
}

/** A reservation staff may move: live, and the customer not yet checked in. */
export function deskMovableRefusal(r: { deletedAt: DateInput | null; attend: boolean | null }): DomainErrorCode | null {
  if (r.deletedAt) return 'reservation/already-cancelled';
  if (r.attend) return 'desk/move-attended';
  return null;
}
