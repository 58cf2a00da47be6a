import { and, asc, desc, eq, gt, gte, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@estudio/db';
import {
  available_classes,
  class_package,
  class_reservation,
  class_reservation_penalty,
  class_type,
  customer,
  location,
  payment_method,
  purchase,
  single_class,
} from '@estudio/db';
import { DomainError } from '@estudio/core';
import { iso, studioDay } from '../time.ts';

export interface CustomerHit {
  customer_id: number;
  name: string;
  last_name: string;
  email: string;
  phone: string | null;
  role: string;
  has_unlimited: boolean;
}

/**
 * Indexes the desk adds to its own replica (the server does not need them).
 * PGlite's database collation is C, so a plain btree on lower(name) serves
 * both `lower(name) like 'fer%'` (a range scan) and `order by lower(name)`.
 * Idempotent; run when the replica opens.
 */
export async function ensureSearchIndexes(db: Db): Promise<void> {
  await db.execute(sql`create index if not exists desk_customer_name_idx on customer (lower(name), lower(last_name), customer_id)`);
  await db.execute(sql`create index if not exists desk_customer_last_name_idx on customer (lower(last_name), lower(name), customer_id)`);
  await db.execute(sql`create index if not exists desk_customer_full_name_idx on customer (lower(name || ' ' || last_name), customer_id)`);
  await db.execute(sql`create index if not exists desk_customer_email_idx on customer (email, customer_id)`);
  await db.execute(sql`create index if not exists desk_customer_phone_idx on customer (phone, customer_id)`);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Customers whose name, last name, full name, e-mail or phone starts with
 * what staff typed (case-insensitive; digits search the phone), by name.
 * Each way of matching takes its first `limit` rows from its own index (a
 * short range scan however many customers match), and the union is sorted:
 * a few milliseconds over 20,000 customers for 'a' as for 'persona1234'.
 */
export async function searchCustomers(db: Db, q: string, limit = 20): Promise<CustomerHit[]> {
  const text = q.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!text) return [];
  const digits = text.replace(/[\s()+-]/g, '');
  const live = isNull(customer.deletedAt);
  const branch = (match: SQL, order: SQL) => sql`(select ${customer.customer_id} from ${customer} where ${live} and ${match} order by ${order} limit ${limit})`;
  let candidates: SQL;
  if (/^\d{2,}$/.test(digits)) {
    const prefix = `${escapeLike(digits.slice(-10))}%`;
    candidates = branch(sql`${customer.phone} like ${prefix}`, sql`${customer.phone}, ${customer.customer_id}`);
  } else {
    const prefix = `${escapeLike(text)}%`;
    const name = sql`lower(${customer.name})`;
    const lastName = sql`lower(${customer.last_name})`;
    const fullName = sql`lower(${customer.name} || ' ' || ${customer.last_name})`;
    candidates = sql.join(
      [
        branch(sql`${name} like ${prefix}`, sql`${name}, ${lastName}, ${customer.customer_id}`),
        branch(sql`${lastName} like ${prefix}`, sql`${lastName}, ${name}, ${customer.customer_id}`),
        branch(sql`${fullName} like ${prefix}`, sql`${fullName}, ${customer.customer_id}`),
        branch(sql`${customer.email} like ${prefix}`, sql`${customer.email}, ${customer.customer_id}`),
      ],
      sql` union `,
    );
  }
  return db
    .select({
      customer_id: customer.customer_id,
      name: customer.name,
      last_name: customer.last_name,
      email: customer.email,
      phone: customer.phone,
      role: customer.role,
      has_unlimited: customer.has_unlimited,
    })
    .from(customer)
    .where(sql`${customer.customer_id} in (${candidates})`)
    .orderBy(sql`lower(${customer.name})`, sql`lower(${customer.last_name})`, asc(customer.customer_id))
    .limit(limit);
}

export interface CustomerCard {
  customer: CustomerHit & { instagram: string | null; birthdate: string | null; createdAt: string };
  unlimited: { active: boolean; expiresAt: string | null };
  credits: { available_class_id: number; available_classes: number; class_type: string | null; expiration_date: string | null; purchase_id: number | null }[];
  /** Classes usable now (an unlimited row counts as -1: 'Ilimitadas'). */
  totalCredits: number;
  upcoming: CardReservation[];
  past: CardReservation[];
  purchases: {
    purchase_id: number;
    title: string;
    total_payment: string;
    status: string;
    provider: string | null;
    is_gift: boolean;
    payment_method: string | null;
    class_amount: number;
    expiration_date: string | null;
    createdAt: string;
  }[];
  penalties: { class_reservation_penalty_id: number; start_date: string; end_date: string; no_shows: number; reason: string | null; active: boolean }[];
}

export interface CardReservation {
  class_reservation_id: number;
  single_class_id: number;
  class_date: string;
  class_type: string;
  location: string;
  spot: number | null;
  guest: string | null;
  attend: boolean;
  is_cash: boolean;
  is_paid: boolean;
  deletedAt: string | null;
  classCancelledAt: string | null;
}

/** Everything the customer card shows, read from the replica. */
export async function customerCard(db: Db, customerId: number, now = new Date()): Promise<CustomerCard> {
  const [person] = await db.select().from(customer).where(eq(customer.customer_id, customerId)).limit(1);
  if (!person) throw new DomainError('customer/not-found', 'No encontramos a este cliente.');
  const today = studioDay(now);
  const reservationColumns = {
    class_reservation_id: class_reservation.class_reservation_id,
    single_class_id: class_reservation.single_class_id,
    class_date: single_class.class_date,
    class_type: class_type.name,
    location: location.name,
    spot: class_reservation.spot,
    guest: class_reservation.guest,
    attend: class_reservation.attend,
    is_cash: class_reservation.is_cash,
    is_paid: class_reservation.is_paid,
    deletedAt: class_reservation.deletedAt,
    classCancelledAt: single_class.cancelledAt,
  };
  const reservationsOf = () =>
    db
      .select(reservationColumns)
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
      .innerJoin(location, eq(location.location_id, single_class.location_id))
      .$dynamic();
  const [credits, upcoming, past, purchases, penalties] = await Promise.all([
    db
      .select({
        available_class_id: available_classes.available_class_id,
        available_classes: available_classes.available_classes,
        class_type: class_type.name,
        expiration_date: available_classes.expiration_date,
        purchase_id: available_classes.purchase_id,
      })
      .from(available_classes)
      .leftJoin(class_type, eq(class_type.class_type_id, available_classes.class_type_id))
      .where(
        and(
          eq(available_classes.customer_id, customerId),
          isNull(available_classes.deletedAt),
          ne(available_classes.available_classes, 0),
          or(isNull(available_classes.expiration_date), gt(available_classes.expiration_date, now)),
        ),
      )
      .orderBy(sql`${available_classes.expiration_date} asc nulls last`),
    reservationsOf()
      .where(and(eq(class_reservation.customer_id, customerId), gte(single_class.class_date, today.start)))
      .orderBy(asc(single_class.class_date))
      .limit(30),
    reservationsOf()
      .where(and(eq(class_reservation.customer_id, customerId), lt(single_class.class_date, today.start)))
      .orderBy(desc(single_class.class_date))
      .limit(30),
    db
      .select({
        purchase_id: purchase.purchase_id,
        title: purchase.title,
        total_payment: purchase.total_payment,
        status: purchase.status,
        provider: purchase.provider,
        is_gift: purchase.is_gift,
        payment_method: payment_method.name,
        class_amount: purchase.class_amount,
        expiration_date: purchase.expiration_date,
        createdAt: purchase.createdAt,
      })
      .from(purchase)
      .leftJoin(payment_method, eq(payment_method.payment_method_id, purchase.payment_method_id))
      .where(eq(purchase.customer_id, customerId))
      .orderBy(desc(purchase.createdAt), desc(purchase.purchase_id))
      .limit(50),
    db
      .select()
      .from(class_reservation_penalty)
      .where(and(eq(class_reservation_penalty.customer_id, customerId), isNull(class_reservation_penalty.deletedAt)))
      .orderBy(desc(class_reservation_penalty.end_date)),
  ]);
  const reservation = (r: (typeof upcoming)[number]): CardReservation => ({
    ...r,
    class_date: r.class_date.toISOString(),
    deletedAt: iso(r.deletedAt),
    classCancelledAt: iso(r.classCancelledAt),
  });
  const unlimitedActive = person.has_unlimited && (!person.unlimited_membership_expiration || person.unlimited_membership_expiration > now);
  const counted = credits.filter((c) => c.available_classes > 0).reduce((sum, c) => sum + c.available_classes, 0);
  return {
    customer: {
      customer_id: person.customer_id,
      name: person.name,
      last_name: person.last_name,
      email: person.email,
      phone: person.phone,
      role: person.role,
      has_unlimited: person.has_unlimited,
      instagram: person.instagram,
      birthdate: person.birthdate,
      createdAt: person.createdAt.toISOString(),
    },
    unlimited: { active: unlimitedActive, expiresAt: iso(person.unlimited_membership_expiration) },
    credits: credits.map((c) => ({ ...c, expiration_date: iso(c.expiration_date) })),
    totalCredits: unlimitedActive || credits.some((c) => c.available_classes === -1) ? -1 : counted,
    upcoming: upcoming.map(reservation),
    past: past.map(reservation),
    purchases: purchases.map((p) => ({ ...p, expiration_date: iso(p.expiration_date), createdAt: p.createdAt.toISOString() })),
    penalties: penalties.map((p) => ({
      class_reservation_penalty_id: p.class_reservation_penalty_id,
      start_date: p.start_date.toISOString(),
      end_date: p.end_date.toISOString(),
      no_shows: p.no_shows,
      reason: p.reason,
      active: p.end_date > now && p.start_date <= now,
    })),
  };
}

/** What the grant-access form offers: packages on sale and the payment methods the studio takes. */
export async function accessOptions(db: Db) {
  const [packages, methods] = await Promise.all([
    db
      .select({
        class_package_id: class_package.class_package_id,
        title: class_package.title,
        price: class_package.price,
        class_amount: class_package.class_amount,
        expiration_days: class_package.expiration_days,
        is_subscription: class_package.is_subscription,
      })
      .from(class_package)
      .where(and(isNull(class_package.deletedAt), eq(class_package.is_signup_fee, false)))
      .orderBy(asc(class_package.order), asc(class_package.class_package_id)),
    db
      .select({ payment_method_id: payment_method.payment_method_id, name: payment_method.name, provider: payment_method.provider })
      .from(payment_method)
      .where(eq(payment_method.available, true))
      .orderBy(asc(payment_method.payment_method_id)),
  ]);
  return { packages, paymentMethods: methods };
}
