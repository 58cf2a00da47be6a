import {
  bookingRefusal,
  bookingTermsRefusal,
  DomainError,
  guestUsesCredit,
  heldSeats,
  packageAccessStatuses,
  pickCredit,
  pickGuestCredit,
  refuse,
  roomRefusal,
  seatRulesRefusal,
  studioTimeZone,
  type SeatChoice,
  type AppConfigMap,
  type DomainErrorCode,
} from '@estudio/core';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { isUniqueViolation } from '@estudio/db/errors';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import type { Tx } from '@estudio/db';
import { inOrder, preparedStatement } from '@estudio/db/prepared';
import type { Db } from '../../db.ts';
import { enterClassGate, lockClass, lockCreditsFor, lockCustomer, occupancy, readClass, type ClassWithType } from './booking-locks.ts';
import { firstLook, isFirstLookFor, seatsHeldBy, type FirstLook } from './first-look.ts';
import { unlimitedPenalty, type PenaltyRow } from './penalties.ts';
import type { ReservationRow } from './reservation-output.ts';

export interface CreateReservationInput {
  customerId: number;
  singleClassId: number;
  spot?: number | null | undefined;
  guest?: string | null | undefined;
  /** The guest's seat on a seat-mapped class: required when a customer books a seat with a guest; staff may leave it to the door. */
  guestSpot?: number | null | undefined;
  /** Booked by staff at the desk: the lead time does not apply, only the class end. */
  byStaff?: boolean;
  now?: Date;
  /** The booking's first look when the caller's token check read it (decision 060); used only if read for this very booking. */
  firstLook?: FirstLook | null | undefined;
}

/** booking/penalized, carrying the penalty that blocks the booking (its end_date is when booking resumes). */
export class PenalizedError extends DomainError {
  readonly penalty: PenaltyRow;
  constructor(penalty: PenaltyRow) {
    super('booking/penalized');
    this.penalty = penalty;
  }
}


/**
 * Seat, guest and capacity checks shared by booking and by changing a
 * booking. Run once without the class lock to refuse early (a full class
 * refuses its losers without queueing them on the lock) and again under it,
 * where the answer is final.
 */
export async function checkSeatAndPlaces(tx: Tx, settings: AppConfigMap, c: ClassWithType, change: SeatChange): Promise<void> {
  refuse(seatRulesRefusal(settings, c.spot_map, change));
  const guestSpot = change.guestSpot ?? null;
  const taken = await occupancy(tx, c.single_class_id, heldSeats({ spot: change.spot, guest_spot: guestSpot }), change.reservationId);
  refuse(roomRefusal(c.capacity, change.guest, taken));
}

export interface SeatChange extends SeatChoice {
  reservationId?: number;
}

/** Runs an insert or update that may hit the one-live-reservation-per-seat index. */
export async function guardSpot<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, 'class_reservation_spot_key') || isUniqueViolation(err, 'class_reservation_guest_spot_key')) {
      throw new DomainError('booking/spot-taken');
    }
    throw err;
  }
}

/**
 * Takes one class from a limited credit the caller holds locked. Conditional
 * even under the row lock: a credit is never driven below zero.
 */
export async function spendCredit(tx: Tx, availableClassId: number, now: Date, refusal: 'booking/no-credits' | 'booking/guest-no-credits'): Promise<void> {
  const [spent] = await spendCreditStatement(tx, { availableClassId, now: now.toISOString() });
  if (!spent) throw new DomainError(refusal);
}

/*
 * The booking's statements, built once (db/src/prepared.ts, as in
 * booking-locks.ts): what changes travels as bound parameters, a time as ISO text.
 * The update sets updated_at itself, so its $onUpdate (evaluated when a
 * statement is built) never stamps a stale time.
 */
const spendCreditStatement = preparedStatement((tx) =>
  tx
    .update(available_classes)
    .set({ available_classes: sql`${available_classes.available_classes} - 1`, updatedAt: sql`${sql.placeholder('now')}::timestamptz` })
    .where(and(eq(available_classes.available_class_id, sql.placeholder('availableClassId')), gt(available_classes.available_classes, 0)))
    .returning({ id: available_classes.available_class_id })
    .prepare('booking_spend_credit'),
);

const liveBookingStatement = preparedStatement((tx) =>
  tx
    .select({ id: class_reservation.class_reservation_id })
    .from(class_reservation)
    .where(
      and(
        eq(class_reservation.single_class_id, sql.placeholder('singleClassId')),
        eq(class_reservation.customer_id, sql.placeholder('customerId')),
        isNull(class_reservation.deletedAt),
      ),
    )
    .limit(1)
    .prepare('booking_live_booking'),
);

const packagePurchaseStatement = preparedStatement((tx) =>
  tx
    .select({ id: purchase.purchase_id })
    .from(purchase)
    .where(
      and(
        eq(purchase.customer_id, sql.placeholder('customerId')),
        eq(purchase.class_package_id, sql.placeholder('classPackageId')),
        inArray(purchase.status, packageAccessStatuses),
      ),
    )
    .limit(1)
    .prepare('booking_package_purchase'),
);

const leaveWaitlistStatement = preparedStatement((tx) =>
  tx
    .delete(waitlist)
    .where(and(eq(waitlist.single_class_id, sql.placeholder('singleClassId')), eq(waitlist.customer_id, sql.placeholder('customerId'))))
    .prepare('booking_leave_waitlist'),
);

const insertReservationStatement = preparedStatement((tx) =>
  tx
    .insert(class_reservation)
    .values({
      single_class_id: sql.placeholder('singleClassId'),
      customer_id: sql.placeholder('customerId'),
      available_class_id: sql.placeholder('availableClassId'),
      spot: sql.placeholder('spot'),
      guest: sql.placeholder('guest'),
      guest_spot: sql.placeholder('guestSpot'),
      guest_available_class_id: sql.placeholder('guestAvailableClassId'),
    })
    .returning()
    .prepare('booking_insert_reservation'),
);

/**
 * Gives one class back to a limited credit (an unlimited one, -1, is left
 * alone). `usesCancellation`: a customer's own cancellation also counts one
 * of the credit's cancellations; staff's, an override and a guest's do not.
 */
export async function returnOneClass(tx: Tx, availableClassId: number, now: Date, options: { usesCancellation?: boolean } = {}): Promise<void> {
  await returnOneClassStatement(tx, { availableClassId, now: now.toISOString(), usesCancellation: options.usesCancellation ? 1 : 0 });
}

const returnOneClassStatement = preparedStatement((tx) =>
  tx
    .update(available_classes)
    .set({
      available_classes: sql`${available_classes.available_classes} + 1`,
      cancels_used: sql`${available_classes.cancels_used} + ${sql.placeholder('usesCancellation')}::int`,
      updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
    })
    .where(and(eq(available_classes.available_class_id, sql.placeholder('availableClassId')), sql`${available_classes.available_classes} >= 0`))
    .prepare('return_one_class'),
);

/**
 * The answer the locked path would give, from the first look alone (same
 * checks, same order, up to the count), or null when it would go on to the
 * credits. Only 'booking/class-full' is given from it (see createReservation).
 */
function firstLookRefusal(
  first: FirstLook,
  input: CreateReservationInput,
  now: Date,
  change: { spot: number | null; guest: string | null; guestSpot: number | null },
): DomainErrorCode | null {
  const c = first.klass;
  if (!first.customerLive) return 'customer/not-found';
  if (!c) return 'class/not-found';
  return bookingRefusal({
    klass: c,
    byStaff: input.byStaff === true,
    now,
    settings: first.settings,
    packageBought: first.packageBought,
    booked: first.booked,
    change,
    taken: first,
  });
}

/**
 * Books a class for a customer. First one unlocked statement (firstLook:
 * settings, class, places, the customer's booking and package) refuses a full
 * class at once, before any lock: a rush's losers never queue on the class
 * row. It refuses only with the answer the locked path would give (every
 * earlier check passes on the same read) and only "full", which that read
 * proves: it saw every commit before it, so a place freed before it ran is
 * counted free (decision 042). A customer booking for herself brings it from
 * her token's check, which read it in the same statement (input.firstLook,
 * decision 060); it is used only when read for this very booking.
 *
 * Then one transaction, its statements pipelined in decision 006's lock order
 * (inOrder): the class gate, the customer's lock, their live booking of the
 * class, their package purchase and their usable credits locked; the class
 * is open, the booking window, package-only access, no live booking, the
 * guest and seat rules; the credit that expires first is taken (unlimited
 * credits are not decremented, but an unlimited member's penalty applies);
 * with a guest and guest_uses_credit on, one more class credit pays for the
 * guest (pickGuestCredit). Then, together: the credits spent, the customer
 * leaves the class's waitlist, the class row is locked and its places and
 * seats counted — that count is final — and the reservation is inserted.
 * Everything spent before the class lock is undone by the rollback if the
 * class turns out full.
 *
 * A penalty created here is committed even though the booking is refused,
 * so the refusal is raised after the transaction.
 */
export async function createReservation(db: Db, input: CreateReservationInput): Promise<ReservationRow> {
  const now = input.now ?? new Date();
  const spot = input.spot ?? null;
  const guest = input.guest?.trim() || null;
  const guestSpot = guest === null ? null : (input.guestSpot ?? null);
  if (input.guestSpot != null && guest === null) throw new DomainError('booking/guest-spot-invalid');
  const change = { spot, guest, guestSpot };
  const seats = seatsHeldBy(change);

  const given = input.firstLook;
  const first = given && isFirstLookFor(given, input.customerId, input.singleClassId, seats) ? given : await firstLook(db, input.customerId, input.singleClassId, seats);
  if (firstLookRefusal(first, input, now, change) === 'booking/class-full') throw new DomainError('booking/class-full');
  const { settings } = first;
  const tz = studioTimeZone(settings);

  const outcome = await db.transaction(async (tx): Promise<{ reservation: ReservationRow } | { penalized: PenaltyRow }> => {
    const known = first.klass;
    const [, who, existing, bought, lockedCredits] = await inOrder([
      () => enterClassGate(tx, input.singleClassId),
      () => lockCustomer(tx, input.customerId),
      () => liveBookingStatement(tx, { singleClassId: input.singleClassId, customerId: input.customerId }),
      async () => (known?.class_package_id == null ? null : readPackagePurchase(tx, input.customerId, known.class_package_id)),
      async () => (known ? lockCreditsFor(tx, input.customerId, known) : null),
    ] as const);
    // The class was not there at the first look: read it now, as before the pipelining (class/not-found).
    const c = known ?? (await readClass(tx, input.singleClassId));
    const purchases = c.class_package_id === null ? [] : (bought ?? (await readPackagePurchase(tx, who.customer_id, c.class_package_id)));
    refuse(
      bookingTermsRefusal({
        klass: c,
        byStaff: input.byStaff === true,
        now,
        settings,
        packageBought: purchases.length > 0,
        booked: existing.length > 0,
        change,
      }),
    );

    const eligible = lockedCredits ?? (await lockCreditsFor(tx, who.customer_id, c));
    const target = { classTypeId: c.class_type_id, classDate: c.class_date, timeZone: tz };
    const credit = pickCredit(eligible, target);
    if (!credit) throw new DomainError('booking/no-credits');
    // Chosen before anything is spent, so a missing guest credit refuses the booking whole.
    const guestCredit = guest !== null && guestUsesCredit(settings) ? pickGuestCredit(eligible, target, credit) : null;
    if (guest !== null && guestUsesCredit(settings) && !guestCredit) throw new DomainError('booking/guest-no-credits');
    // Penalties bind the unlimited membership: a booking paid with it is refused while one is
    // active (or the no-shows just reached the threshold); a booking paid with a limited credit is not.
    if (credit.available_classes === -1) {
      const penalty = await unlimitedPenalty(tx, who, settings, now);
      if (penalty?.created) return { penalized: penalty.penalty };
      if (penalty) throw new PenalizedError(penalty.penalty);
    }

    const [, , , locked, taken] = await inOrder([
      async () => (credit.available_classes === -1 ? undefined : spendCredit(tx, credit.available_class_id, now, 'booking/no-credits')),
      async () => (guestCredit ? spendCredit(tx, guestCredit.available_class_id, now, 'booking/guest-no-credits') : undefined),
      () => leaveWaitlistStatement(tx, { singleClassId: c.single_class_id, customerId: who.customer_id }),
      () => lockClass(tx, c.single_class_id),
      // After the class lock (same connection, next statement): counts every booking committed before it.
      () => occupancy(tx, c.single_class_id, seats),
    ] as const);
    if (locked.cancelledAt) throw new DomainError('booking/class-cancelled');
    refuse(seatRulesRefusal(settings, locked.spot_map, change));
    refuse(roomRefusal(locked.capacity, change.guest, taken));
    const [reservation] = await guardSpot(() =>
      insertReservationStatement(tx, {
        singleClassId: c.single_class_id,
        customerId: who.customer_id,
        availableClassId: credit.available_class_id,
        spot,
        guest,
        guestSpot,
        guestAvailableClassId: guestCredit?.available_class_id ?? null,
      }),
    );
    if (!reservation) throw new Error('reservation insert returned no row');
    return { reservation };
  });

  if ('penalized' in outcome) throw new PenalizedError(outcome.penalized);
  return outcome.reservation;
}

/** The customer's purchase that opens a package-only class (none: booking/package-only). */
function readPackagePurchase(tx: Tx, customerId: number, classPackageId: number) {
  return packagePurchaseStatement(tx, { customerId, classPackageId });
}
