import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import { usableCredit, type Db } from '@estudio/db';
import { available_classes, class_package, class_reservation, class_type, customer, purchase, single_class, waitlist } from '@estudio/db';
import { cancelUnitLabel, creditsMatchingPackage, DomainError, domainErrors, evaluateCancellation, pickCredit, placesForBooking, texts } from '@estudio/core';
import { loadReplicaSettings } from '@estudio/sync/client/mutators';
import { iso, replicaTimeZone } from '../time.ts';

const t = texts.deskActions;

export interface CancelPreview {
  class_reservation_id: number;
  customer_id: number;
  single_class_id: number;
  name: string;
  last_name: string;
  class_type: string;
  class_date: string;
  /** What the studio's rules say now, read on the replica (the server decides again when the change arrives). */
  allowed: boolean;
  creditReturned: boolean;
  unlimited: boolean;
  /** The rule in words, for staff. */
  ruleText: string;
}

/**
 * What cancelling this reservation now would do by the spec's rules (the
 * same evaluateCancellation the server runs), so the modal says it before
 * staff confirm and offers the override when the rules keep the credit.
 */
export async function cancelPreview(db: Db, reservationId: number, now: Date): Promise<CancelPreview> {
  const [row] = await db
    .select({ r: class_reservation, c: single_class, name: customer.name, last_name: customer.last_name, class_type: class_type.name })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
    .where(eq(class_reservation.class_reservation_id, reservationId));
  if (!row) throw new DomainError('reservation/not-found');
  if (row.r.deletedAt) throw new DomainError('reservation/already-cancelled');
  const settings = await db.transaction((tx) => loadReplicaSettings(tx));
  const [credit] = row.r.available_class_id
    ? await db.select().from(available_classes).where(eq(available_classes.available_class_id, row.r.available_class_id))
    : [];
  const unlimited = credit?.available_classes === -1;
  const verdict = evaluateCancellation({
    classDate: row.c.class_date,
    now,
    config: settings,
    cancelsUsed: credit && !unlimited ? credit.cancels_used : 0,
    cancelled: false,
  });
  const value = Number(settings.cancel_timeframe_value) || 0;
  const ruleText = !verdict.allowed
    ? `${t.cancelRefused} ${verdict.code ? domainErrors[verdict.code].message : ''}`.trim()
    : unlimited
      ? t.cancelUnlimited
      : verdict.creditReturned
        ? t.cancelInTime
        : t.cancelLate(value, cancelUnitLabel(settings.cancel_timeframe_unit, value));
  return {
    class_reservation_id: row.r.class_reservation_id,
    customer_id: row.r.customer_id,
    single_class_id: row.r.single_class_id,
    name: row.name,
    last_name: row.last_name,
    class_type: row.class_type,
    class_date: row.c.class_date.toISOString(),
    allowed: verdict.allowed,
    creditReturned: verdict.creditReturned && !unlimited,
    unlimited,
    ruleText,
  };
}

export interface WaitlistView {
  single_class_id: number;
  class_type: string;
  class_date: string;
  capacity: number;
  /** Places taken: live reservations plus their guests. */
  taken: number;
  free: number;
  cancelled: boolean;
  /** In the order they joined: the first is the next to get a place. */
  entries: {
    waitlist_id: number;
    customer_id: number;
    name: string;
    last_name: string;
    phone: string | null;
    createdAt: string | null;
    /** A class of theirs that can pay for this one (the walk-in's own choice of credit): without one, a place given is refused. */
    has_credit: boolean;
  }[];
}

/** A class's waitlist in order, with its free places, from the replica. */
export async function classWaitlist(db: Db, singleClassId: number): Promise<WaitlistView> {
  const [c] = await db
    .select({ c: single_class, class_type: class_type.name })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(single_class.single_class_id, singleClassId));
  if (!c) throw new DomainError('class/not-found');
  const [live, entries] = await Promise.all([
    db
      .select({ guest: class_reservation.guest })
      .from(class_reservation)
      .where(and(eq(class_reservation.single_class_id, singleClassId), isNull(class_reservation.deletedAt))),
    db
      .select({
        waitlist_id: waitlist.waitlist_id,
        customer_id: waitlist.customer_id,
        name: customer.name,
        last_name: customer.last_name,
        phone: customer.phone,
        createdAt: waitlist.createdAt,
      })
      .from(waitlist)
      .innerJoin(customer, eq(customer.customer_id, waitlist.customer_id))
      .where(eq(waitlist.single_class_id, singleClassId))
      // Entries made on this desk and not yet on the server have negative ids: their time orders them.
      .orderBy(asc(waitlist.createdAt), asc(waitlist.waitlist_id)),
  ]);
  const taken = live.reduce((sum, r) => sum + placesForBooking(r.guest), 0);
  const paying = await customersWithCredit(db, c.c, entries.map((e) => e.customer_id));
  return {
    single_class_id: singleClassId,
    class_type: c.class_type,
    class_date: c.c.class_date.toISOString(),
    capacity: c.c.capacity,
    taken,
    free: Math.max(0, c.c.capacity - taken),
    cancelled: c.c.cancelledAt !== null,
    entries: entries.map((e) => ({ ...e, createdAt: iso(e.createdAt), has_credit: paying.has(e.customer_id) })),
  };
}

/** Of these customers, those with a credit the class takes, chosen as the walk-in chooses it (core's pickCredit). */
async function customersWithCredit(db: Db, c: typeof single_class.$inferSelect, customerIds: number[]): Promise<Set<number>> {
  if (!customerIds.length) return new Set();
  const rows = await db
    .select({ customer_id: available_classes.customer_id, credit: available_classes, package_id: purchase.class_package_id, special: class_package.is_special_event })
    .from(available_classes)
    .leftJoin(purchase, eq(purchase.purchase_id, available_classes.purchase_id))
    .leftJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .where(
      and(
        inArray(available_classes.customer_id, customerIds),
        usableCredit(c.class_date),
      ),
    );
  const target = { classTypeId: c.class_type_id, classDate: c.class_date, timeZone: await replicaTimeZone(db) };
  return new Set(customerIds.filter((id) => pickCredit(creditsMatchingPackage(rows.filter((r) => r.customer_id === id), c.class_package_id), target) !== null));
}

/** True once the replica holds the customer (a customer registered on the server a moment ago). */
export async function hasCustomer(db: Db, customerId: number): Promise<boolean> {
  const [row] = await db.select({ id: customer.customer_id }).from(customer).where(eq(customer.customer_id, customerId));
  return row !== undefined;
}

/** How many people wait for each class that has a waitlist (one read for every class card on the screen). */
export async function waitlistCounts(db: Db): Promise<Record<number, number>> {
  const rows = await db.select({ id: waitlist.single_class_id, n: count() }).from(waitlist).groupBy(waitlist.single_class_id);
  return Object.fromEntries(rows.map((r) => [r.id, Number(r.n)]));
}
