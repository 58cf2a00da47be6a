import { isOn, type AppConfigMap } from '../appconfig.ts';
import { checkBookingWindow, type BookingWindowConfig } from './booking-window.ts';
import { isClassFull } from './capacity.ts';

/**
 * What a calendar card says before anyone clicks it:
 * - reserved: the caller booked it (its seat and guest can still change);
 * - waitlist: the caller waits for a place (the class is full, or closed to booking);
 * - started / too-late: it began, or the booking lead time has passed;
 * - not-open: booking opens later (opensAt);
 * - special: a package-only class the caller has no access to (the card links to the package);
 * - full: no places, the waitlist is open; full-closed: no places and no waitlist;
 * - available: it can be booked.
 */
export type ClassCardState = 'reserved' | 'waitlist' | 'started' | 'too-late' | 'not-open' | 'special' | 'full' | 'full-closed' | 'available';

export interface ClassBookabilityInput {
  class_date: string | Date;
  capacity: number;
  reservation_count: number;
  class_package_id: number | null;
  class_reservations: readonly unknown[];
  waitlist_id: number | null;
  /** Whether the caller may book a package-only class (bought its package); a visitor never may. */
  package_access: boolean;
}

export interface ClassBookability {
  state: ClassCardState;
  /**
   * The caller waits on the list of a class that has a place free right now
   * (state available): everyone waiting was told, and the first to book takes it.
   */
  waitlisted: boolean;
  /** Places left (never below 0). */
  placesLeft: number;
  /** A package-only class, whatever the caller's access ('Clase especial'). */
  special: boolean;
  /** When booking opens (state not-open). */
  opensAt: Date | null;
  /** Clicking the card does something (books, changes, offers the waitlist or the package). */
  actionable: boolean;
}

/** Purchase statuses that give access to a package-only class. */
export const packageAccessStatuses = ['active', 'completed'] as const;

const actionable: Record<ClassCardState, boolean> = {
  reserved: true,
  waitlist: true,
  started: false,
  'too-late': false,
  'not-open': false,
  special: true,
  full: true,
  'full-closed': false,
  available: true,
};

/**
 * The one rule behind a calendar card (portal) and the booking it leads to
 * (the server decides with the same checkBookingWindow, package access and
 * capacity): the card tells the truth first, so nobody learns after a click
 * that the class was closed, not open yet, full without a waitlist or for a
 * package's buyers only.
 */
export function classBookability(
  c: ClassBookabilityInput,
  at: { now: Date | string | number; config: BookingWindowConfig & Pick<AppConfigMap, 'waitlist_enabled'> },
): ClassBookability {
  const special = c.class_package_id != null;
  const placesLeft = Math.max(0, c.capacity - c.reservation_count);
  const waitlisted = c.waitlist_id != null;
  const answer = (state: ClassCardState, opensAt: Date | null = null): ClassBookability => ({
    state,
    placesLeft,
    special,
    opensAt,
    actionable: actionable[state],
    waitlisted: waitlisted && state === 'available',
  });
  if (c.class_reservations.length > 0) return answer('reserved');
  const window = checkBookingWindow({ classDate: c.class_date, now: at.now, config: at.config });
  const full = isClassFull(c);
  // The spec's waitlist: everyone waiting is told when a place frees and the first to book takes it, so a
  // customer on the list sees the free place and books it like anyone; a full or closed class keeps the entry
  // (and the way to leave it).
  if (waitlisted && (!window.ok || full || (special && !c.package_access))) return answer('waitlist');
  if (!window.ok) {
    if (window.code === 'booking/not-open-yet') return answer('not-open', window.opensAt);
    return answer(window.code === 'booking/class-started' ? 'started' : 'too-late');
  }
  if (special && !c.package_access) return answer('special');
  if (full) return answer(isOn(at.config.waitlist_enabled) ? 'full' : 'full-closed');
  return answer('available');
}
