import { creditsMatchingPackage, DomainError } from '@estudio/core';
import { and, asc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { classSpotMapSql, type Tx } from '@estudio/db';
import { preparedStatement } from '@estudio/db/prepared';

/**
 * Row locks of the booking transactions. Every transaction that takes or gives
 * back a place, a seat or a credit locks in one order — the customer, then
 * the customer's credits, then the class, then reservation rows — so two of
 * them can wait for each other but never deadlock. The customer lock
 * serialises one customer's requests (one credit cannot be spent twice, one
 * class cannot be booked twice); the class lock serialises everyone's bookings
 * of one class (places and seats are counted by the lock holder only). The
 * class row is the hot one, so bookings take it last and hold it for as few
 * statements as possible.
 */

/** Key space of the class gate's advisory locks (two-int form: this, then the class id). */
const CLASS_GATE = 61_007;

/**
 * The class gate, taken before any row lock. Every booking enters it shared
 * (bookings of one class never wait for each other here); cancelling the class
 * closes it exclusively, so it waits for the bookings in flight and no new one
 * starts until it commits. Without it, a cancel that must lock the customers of
 * the class before the class row (this file's order) could find a new booker
 * after its class lock and start over, again and again under a rush.
 */
export async function enterClassGate(tx: Tx, singleClassId: number): Promise<void> {
  await enterClassGateStatement(tx, { singleClassId });
}

/*
 * The booking's statements, built once (db/src/prepared.ts): a booking sends
 * them pipelined, and building them was most of its CPU. What
 * changes travels as placeholders; a time as ISO text cast in SQL, since
 * drizzle does not convert a placeholder's value for its column.
 */
const enterClassGateStatement = preparedStatement((tx) =>
  tx
    .select({ entered: sql`pg_advisory_xact_lock_shared(${CLASS_GATE}, ${sql.placeholder('singleClassId')}::int)` })
    .from(sql`(values (1)) as gate (one)`)
    .prepare('booking_class_gate'),
);

/*
 * FOR NO KEY UPDATE, not FOR UPDATE: it still serialises the customer's own
 * requests (it conflicts with itself), but not with the key-share lock that a
 * foreign key check takes. Telling the waitlist inserts a message for each
 * waiting customer (outbox.customer_id) after locking their waitlist rows,
 * while a promotion holds the customer and asks for the waitlist row: with
 * FOR UPDATE the two deadlocked (waitlist-promotion-race, about one run in
 * two on PostgreSQL).
 */
const lockCustomerStatement = preparedStatement((tx) =>
  tx
    .select()
    .from(customer)
    .where(and(eq(customer.customer_id, sql.placeholder('customerId')), isNull(customer.deletedAt)))
    .for('no key update')
    .prepare('booking_lock_customer'),
);

const lockClassStatement = preparedStatement((tx) =>
  tx
    .select({ c: single_class, ct: class_type, spot_map: classSpotMapSql() })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(single_class.single_class_id, sql.placeholder('singleClassId')))
    .for('update', { of: single_class })
    .prepare('booking_lock_class'),
);

/** Seats as one int[] literal ('{3,7}'), so one statement text fits any number of them. */
function intArray(values: readonly number[]): string {
  return `{${values.map((v) => Math.trunc(v)).join(',')}}`;
}

const occupancyStatement = preparedStatement((tx) => {
  const seats = sql`${sql.placeholder('seats')}::int[]`;
  return tx
    .select({
      places: sql<number>`(count(*) + count(${class_reservation.guest}))::int`,
      spotTaken: sql<boolean>`coalesce(bool_or(${class_reservation.spot} = any(${seats}) or ${class_reservation.guest_spot} = any(${seats})), false)`,
    })
    .from(class_reservation)
    .where(
      and(
        eq(class_reservation.single_class_id, sql.placeholder('singleClassId')),
        isNull(class_reservation.deletedAt),
        sql`${class_reservation.class_reservation_id} is distinct from ${sql.placeholder('exceptReservationId')}::int`,
      ),
    )
    .prepare('booking_occupancy');
});

const lockCreditsStatement = preparedStatement((tx) =>
  tx
    .select({ credit: available_classes, package_id: purchase.class_package_id, special: class_package.is_special_event })
    .from(available_classes)
    .leftJoin(purchase, eq(purchase.purchase_id, available_classes.purchase_id))
    .leftJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .where(
      and(
        eq(available_classes.customer_id, sql.placeholder('customerId')),
        isNull(available_classes.deletedAt),
        ne(available_classes.available_classes, 0),
        or(isNull(available_classes.expiration_date), gt(available_classes.expiration_date, sql`${sql.placeholder('classDate')}::timestamptz`)),
      ),
    )
    .for('update', { of: available_classes })
    .prepare('booking_lock_credits'),
);

/** Closes the class gate for this transaction (see enterClassGate). */
export async function closeClassGate(tx: Tx, singleClassId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CLASS_GATE}, ${singleClassId})`);
}

export type CustomerRow = typeof customer.$inferSelect;
/** A class with its class type and its seat map (its room's, else its type's: classSpotMapSql). */
export type ClassWithType = typeof single_class.$inferSelect & { class_type: typeof class_type.$inferSelect; spot_map: string | null };

/** Locks the customer row (FOR UPDATE). Throws customer/not-found. */
export async function lockCustomer(tx: Tx, customerId: number): Promise<CustomerRow> {
  const [row] = await lockCustomerStatement(tx, { customerId });
  if (!row) throw new DomainError('customer/not-found');
  return row;
}

/**
 * Locks many customers' rows as lockCustomer does, in id order (the order every batch takes them, so two batches
 * never wait on each other in a circle): the imports' batches.
 */
export async function lockCustomers(tx: Tx, customerIds: readonly number[]): Promise<void> {
  const ids = [...new Set(customerIds)].sort((a, b) => a - b);
  if (ids.length) await tx.select({ id: customer.customer_id }).from(customer).where(inArray(customer.customer_id, ids)).orderBy(asc(customer.customer_id)).for('no key update');
}

/** Locks the class row (FOR UPDATE, not its class type) and returns it with its class type. Throws class/not-found. */
export async function lockClass(tx: Tx, singleClassId: number): Promise<ClassWithType> {
  const [row] = await lockClassStatement(tx, { singleClassId });
  if (!row) throw new DomainError('class/not-found');
  return { ...row.c, class_type: row.ct, spot_map: row.spot_map };
}

/** The class with its class type, without a lock (for checks that the locked re-read repeats). Throws class/not-found. */
export async function readClass(tx: Tx, singleClassId: number): Promise<ClassWithType> {
  const [row] = await tx
    .select({ c: single_class, ct: class_type, spot_map: classSpotMapSql() })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(single_class.single_class_id, singleClassId));
  if (!row) throw new DomainError('class/not-found');
  return { ...row.c, class_type: row.ct, spot_map: row.spot_map };
}

/**
 * Places taken (live reservations plus their guests) and whether any of
 * `seats` is held — as someone's own seat or their guest's — in one
 * statement; a reservation being changed does not count against itself.
 * Authoritative only under the class lock.
 */
export async function occupancy(
  tx: Tx,
  singleClassId: number,
  seats: readonly number[],
  exceptReservationId?: number,
): Promise<{ places: number; spotTaken: boolean }> {
  const [row] = await occupancyStatement(tx, { singleClassId, seats: intArray(seats), exceptReservationId: exceptReservationId ?? null });
  return { places: Number(row?.places ?? 0), spotTaken: row?.spotTaken === true };
}

/**
 * Places taken in a class: live reservations plus their guests. Only
 * meaningful under the class lock (otherwise another booking may commit between
 * this count and the caller's insert).
 */
export async function countPlaces(tx: Tx, singleClassId: number, exceptReservationId?: number): Promise<number> {
  return (await occupancy(tx, singleClassId, [], exceptReservationId)).places;
}

/**
 * A live reservation of a live class, locked for a change of seat, guest,
 * attendance or payment in the booking order: the customer, the class, then
 * the reservation row. With `ownerId`, someone else's reservation is
 * reservation/not-found. Throws reservation/already-cancelled and
 * booking/class-cancelled.
 */
export async function lockReservationForChange(
  tx: Tx,
  reservationId: number,
  ownerId?: number,
  /** Runs between the customer's lock and the class's: where a change locks the customer's credits. */
  afterCustomer?: (customerId: number) => Promise<void>,
): Promise<{ reservation: typeof class_reservation.$inferSelect; klass: ClassWithType }> {
  const [found] = await tx
    .select({ customer_id: class_reservation.customer_id, single_class_id: class_reservation.single_class_id })
    .from(class_reservation)
    .where(eq(class_reservation.class_reservation_id, reservationId));
  if (!found || (ownerId !== undefined && found.customer_id !== ownerId)) throw new DomainError('reservation/not-found');
  await lockCustomer(tx, found.customer_id);
  await afterCustomer?.(found.customer_id);
  const klass = await lockClass(tx, found.single_class_id);
  const [reservation] = await tx.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, reservationId)).for('update');
  if (!reservation) throw new DomainError('reservation/not-found');
  if (reservation.deletedAt) throw new DomainError('reservation/already-cancelled');
  if (klass.cancelledAt) throw new DomainError('booking/class-cancelled');
  return { reservation, klass };
}

/**
 * The customer's credits that can pay for this class, locked (the second step
 * of the lock order): live, not used up, not expired by the class's start; a
 * special class takes only its package's credits, other classes never take them.
 */
export async function lockCreditsFor(tx: Tx, customerId: number, c: ClassWithType): Promise<(typeof available_classes.$inferSelect)[]> {
  const rows = await lockCreditsStatement(tx, { customerId, classDate: c.class_date.toISOString() });
  return creditsMatchingPackage(rows, c.class_package_id);
}
