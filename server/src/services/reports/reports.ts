import {
  fromCents,
  studioDayRange,
  studioTimeZone,
  type attendanceReportOutput,
  type membershipsReportOutput,
  type noShowsReportOutput,
  type ReportRangeInput,
  paymentKinds,
  type PaymentKind,
  type salesWithRefundsOutput,
  type z,
} from '@estudio/core';
import { and, asc, desc, eq, gt, gte, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { class_type, instructor } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { product, product_return, product_sale } from '@estudio/db/schema/products';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { paymentKindOf, productSaleKindOf, wasRefunded } from './payment-kind.ts';
import { productsReturnedBetween, productsSoldBetween } from './product-sales.ts';

/**
 * The admin's reports. Every number is a SQL aggregate: the
 * database groups and sums, the code only renames columns. Date ranges are
 * local dates of the studio, inclusive.
 */

async function range(db: Db, input: ReportRangeInput) {
  const tz = studioTimeZone(await loadStudioSettings(db));
  return { tz, ...studioDayRange(input.start_date, input.end_date, tz) };
}

const int = (expr: ReturnType<typeof sql>) => expr.mapWith(Number);

/**
 * Attendance by class type, by coach, by start time and by month over the
 * live (not cancelled) classes of the range: live reservations, attended,
 * no-shows (live, not attended, of classes that already ended) and occupancy
 * (places taken, a guest taking one, over capacity, in percent with one
 * decimal). A class with two coaches counts for each of them. Start times
 * ('HH:mm') and months ('YYYY-MM') are the studio's wall clock.
 */
export async function attendanceReport(db: Db, input: ReportRangeInput, now: Date = new Date()): Promise<z.infer<typeof attendanceReportOutput>> {
  const { from, to, tz } = await range(db, input);
  const ended = sql`${single_class.class_date} + ${single_class.duration_minutes} * interval '1 minute' <= ${now.toISOString()}::timestamptz`;
  const perClass = db
    .select({
      single_class_id: single_class.single_class_id,
      class_type_id: single_class.class_type_id,
      class_hour: sql<string>`to_char(${single_class.class_date} at time zone ${tz}, 'HH24:MI')`.as('class_hour'),
      class_month: sql<string>`to_char(${single_class.class_date} at time zone ${tz}, 'YYYY-MM')`.as('class_month'),
      capacity: single_class.capacity,
      reservations: sql<number>`count(${class_reservation.class_reservation_id})::int`.as('reservations'),
      places: sql<number>`(count(${class_reservation.class_reservation_id}) + count(${class_reservation.guest}))::int`.as('places'),
      attended: sql<number>`(count(*) filter (where ${class_reservation.attend}))::int`.as('attended'),
      no_shows: sql<number>`(count(${class_reservation.class_reservation_id}) filter (where not ${class_reservation.attend} and ${ended}))::int`.as('no_shows'),
    })
    .from(single_class)
    .leftJoin(class_reservation, and(eq(class_reservation.single_class_id, single_class.single_class_id), isNull(class_reservation.deletedAt)))
    .where(and(isNull(single_class.cancelledAt), gte(single_class.class_date, from), lte(single_class.class_date, to)))
    .groupBy(single_class.single_class_id)
    .as('per_class');

  const totals = {
    classes: int(sql`count(*)::int`),
    capacity: int(sql`coalesce(sum(${perClass.capacity}), 0)::int`),
    reservations: int(sql`coalesce(sum(${perClass.reservations}), 0)::int`),
    attended: int(sql`coalesce(sum(${perClass.attended}), 0)::int`),
    no_shows: int(sql`coalesce(sum(${perClass.no_shows}), 0)::int`),
    occupancy: int(sql`coalesce(round(100.0 * sum(${perClass.places}) / nullif(sum(${perClass.capacity}), 0), 1), 0)::float8`),
  };
  const [byType, byInstructor, byHour, byMonth] = await Promise.all([
    db
      .select({ class_type_id: class_type.class_type_id, name: class_type.name, ...totals })
      .from(perClass)
      .innerJoin(class_type, eq(class_type.class_type_id, perClass.class_type_id))
      .groupBy(class_type.class_type_id)
      .orderBy(asc(class_type.name), asc(class_type.class_type_id)),
    db
      .select({ instructor_id: instructor.instructor_id, name: instructor.name, last_name: instructor.last_name, ...totals })
      .from(perClass)
      .innerJoin(single_class_instructor, eq(single_class_instructor.single_class_id, perClass.single_class_id))
      .innerJoin(instructor, eq(instructor.instructor_id, single_class_instructor.instructor_id))
      .groupBy(instructor.instructor_id)
      .orderBy(asc(instructor.name), asc(instructor.last_name), asc(instructor.instructor_id)),
    db.select({ class_hour: perClass.class_hour, ...totals }).from(perClass).groupBy(perClass.class_hour).orderBy(asc(perClass.class_hour)),
    db.select({ month: perClass.class_month, ...totals }).from(perClass).groupBy(perClass.class_month).orderBy(asc(perClass.class_month)),
  ]);
  return { by_class_type: byType, by_instructor: byInstructor, by_hour: byHour, by_month: byMonth };
}

/**
 * The purchases that count as sales made between two instants: paid (money
 * received or access granted: paidAt; an order cancelled before it was paid
 * never is), on the day it was paid, not a gift, and not revoked, unless the
 * revocation was a refund: a revoked sale is annulled (it never counts), a
 * refunded one counts on its day and its refund on the refund's day (decision 034).
 */
export function soldBetween(from: Date, to: Date): SQL {
  return and(
    isNotNull(purchase.paidAt),
    eq(purchase.is_gift, false),
    or(ne(purchase.status, 'revoked'), wasRefunded),
    gte(purchase.paidAt, from),
    lte(purchase.paidAt, to),
  ) as SQL;
}

/** Refunds made between two instants: the refund invoices, by the time the money went back. */
export function refundedBetween(from: Date, to: Date): SQL {
  return and(eq(invoice.status, 'refunded'), gte(invoice.paidAt, from), lte(invoice.paidAt, to)) as SQL;
}

const centsOf = (column: Parameters<typeof sql>[1]) => sql<number>`coalesce(sum(round(${column} * 100)), 0)::bigint`.mapWith(Number);
const byKind = <T extends { method: PaymentKind; cents: number; count: number }>(rows: T[]) =>
  [...rows].sort((a, b) => paymentKinds.indexOf(a.method) - paymentKinds.indexOf(b.method)).map(({ method, count, cents }) => ({ method, count, total: fromCents(cents) }));

/** Rows of the same key summed (count and cents), the first row's other fields kept. */
function mergeBy<T extends { count: number; cents: number }>(rows: T[], key: (row: T) => string): T[] {
  const merged = new Map<string, T>();
  for (const row of rows) {
    const seen = merged.get(key(row));
    merged.set(key(row), seen ? { ...seen, count: seen.count + row.count, cents: seen.cents + row.cents } : { ...row });
  }
  return [...merged.values()];
}

/**
 * The money of a range by payment method (decision 034): sales by the kind of
 * payment (gifts as a count of their own: they took no money), refunds made in
 * the range by the kind of the purchase refunded, and the net.
 */
export async function salesByMethod(db: Db, from: Date, to: Date, salesCents: number) {
  // A split payment's cash part is cash; the rest of the line is its method's (the card).
  const purchaseCash = sql`coalesce(${purchase.cash_part}, 0)`;
  const productCash = sql`coalesce(${product_sale.cash_part}, 0)`;
  const cashKind = sql<PaymentKind>`'cash'`;
  const [packagesSold, productsSold, splitCash, gifts, purchaseRefunds, productReturns, plans] = await Promise.all([
    db.select({ method: paymentKindOf, count: int(sql`count(*)::int`), cents: centsOf(sql`(${purchase.total_payment} - ${purchaseCash})`) }).from(purchase).where(soldBetween(from, to)).groupBy(sql`1`),
    db.select({ method: productSaleKindOf, count: int(sql`count(*)::int`), cents: centsOf(sql`(${product_sale.total} - ${productCash})`) }).from(product_sale).where(productsSoldBetween(from, to)).groupBy(sql`1`),
    Promise.all([
      db.select({ method: cashKind, count: int(sql`count(*)::int`), cents: centsOf(purchase.cash_part) }).from(purchase).where(and(soldBetween(from, to), isNotNull(purchase.cash_part))),
      db.select({ method: cashKind, count: int(sql`count(*)::int`), cents: centsOf(product_sale.cash_part) }).from(product_sale).where(and(productsSoldBetween(from, to), isNotNull(product_sale.cash_part))),
    ]),
    db
      .select({ count: int(sql`count(*)::int`) })
      .from(purchase)
      .where(and(eq(purchase.is_gift, true), isNotNull(purchase.paidAt), ne(purchase.status, 'revoked'), gte(purchase.paidAt, from), lte(purchase.paidAt, to))),
    db
      .select({ method: paymentKindOf, count: int(sql`count(*)::int`), cents: centsOf(invoice.total_payment) })
      .from(invoice)
      .innerJoin(purchase, eq(purchase.purchase_id, invoice.purchase_id))
      .where(refundedBetween(from, to))
      .groupBy(sql`1`),
    // Products brought back are refunds of their day too: the cash handed back as cash, the rest by the sale's method.
    Promise.all([
      db
        .select({ method: cashKind, count: int(sql`count(*)::int`), cents: centsOf(product_return.cash_part) })
        .from(product_return)
        .where(and(productsReturnedBetween(from, to), sql`${product_return.cash_part} > 0`)),
      db
        .select({ method: productSaleKindOf, count: int(sql`count(*)::int`), cents: centsOf(sql`(${product_return.amount} - ${product_return.cash_part})`) })
        .from(product_return)
        .innerJoin(product_sale, eq(product_sale.product_sale_id, product_return.product_sale_id))
        .where(and(productsReturnedBetween(from, to), sql`${product_return.amount} > ${product_return.cash_part}`))
        .groupBy(sql`1`),
    ]),
    db
      .select({ count: purchase.installments, sales: int(sql`count(*)::int`), cents: centsOf(purchase.total_payment) })
      .from(purchase)
      .where(and(soldBetween(from, to), isNotNull(purchase.installments)))
      .groupBy(purchase.installments)
      .orderBy(asc(purchase.installments)),
  ]);
  // A kind's packages and products are one line of the report.
  const sold = mergeBy([...packagesSold, ...productsSold, ...splitCash.flat().filter((r) => r.count > 0)], (r) => r.method);
  const giftCount = gifts[0]?.count ?? 0;
  const refunds = mergeBy([...purchaseRefunds, ...productReturns.flat().filter((r) => r.count > 0)], (r) => r.method);
  const refundCents = refunds.reduce((n, r) => n + r.cents, 0);
  return {
    by_method: byKind([...sold, ...(giftCount ? [{ method: 'gift' as const, count: giftCount, cents: 0 }] : [])]),
    refunds: { count: refunds.reduce((n, r) => n + r.count, 0), total: fromCents(refundCents), by_method: byKind(refunds) },
    net: fromCents(salesCents - refundCents),
    installments: plans.map((p) => ({ count: p.count as number, sales: p.sales, total: fromCents(p.cents) })),
  };
}

/**
 * Sales over the range: paid purchases (every status but pending and failed;
 * gifts excluded, they took no money; revoked ones annulled, see soldBetween) by package and by month of the studio's
 * calendar, counted and summed in cents by the database, as money strings.
 */
export async function salesReport(db: Db, input: ReportRangeInput): Promise<z.infer<typeof salesWithRefundsOutput>> {
  const { tz, from, to } = await range(db, input);
  const sold = soldBetween(from, to);
  const cents = sql<number>`coalesce(sum(round(${purchase.total_payment} * 100)), 0)::bigint`.mapWith(Number);
  const month = sql<string>`to_char(${purchase.paidAt} at time zone ${tz}, 'YYYY-MM')`;
  const productCents = centsOf(product_sale.total);
  const productMonth = sql<string>`to_char(${product_sale.paidAt} at time zone ${tz}, 'YYYY-MM')`;
  const productsSold = productsSoldBetween(from, to);
  const [byPackage, byMonth, [all], byProduct, productsByMonth, [allProducts]] = await Promise.all([
    db
      .select({ class_package_id: purchase.class_package_id, title: class_package.title, count: int(sql`count(*)::int`), cents })
      .from(purchase)
      .innerJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
      .where(sold)
      .groupBy(purchase.class_package_id, class_package.title)
      .orderBy(desc(cents), asc(class_package.title)),
    db
      .select({ month, count: int(sql`count(*)::int`), cents })
      .from(purchase)
      .where(sold)
      // By position: the month expression carries the zone as a parameter, and a repeated
      // expression with its own parameter would not match the select list's.
      .groupBy(sql`1`)
      .orderBy(sql`1`),
    db.select({ count: int(sql`count(*)::int`), cents }).from(purchase).where(sold),
    db
      .select({ product_id: product_sale.product_id, title: product.name, count: int(sql`count(*)::int`), units: int(sql`sum(${product_sale.quantity})::int`), cents: productCents })
      .from(product_sale)
      .innerJoin(product, eq(product.product_id, product_sale.product_id))
      .where(productsSold)
      .groupBy(product_sale.product_id, product.name)
      .orderBy(desc(productCents), asc(product.name)),
    db.select({ month: productMonth, count: int(sql`count(*)::int`), cents: productCents }).from(product_sale).where(productsSold).groupBy(sql`1`),
    db.select({ count: int(sql`count(*)::int`), cents: productCents }).from(product_sale).where(productsSold),
  ]);
  // Products sold at the counter are sales too: in the month, the count and the total, and by product.
  const totalCents = (all?.cents ?? 0) + (allProducts?.cents ?? 0);
  return {
    by_package: byPackage.map(({ cents: c, ...row }) => ({ ...row, total: fromCents(c) })),
    by_product: byProduct.map(({ cents: c, ...row }) => ({ ...row, total: fromCents(c) })),
    by_month: mergeBy([...byMonth, ...productsByMonth], (r) => r.month)
      .sort((a, b) => a.month.localeCompare(b.month))
      .map(({ cents: c, ...row }) => ({ ...row, total: fromCents(c) })),
    count: (all?.count ?? 0) + (allProducts?.count ?? 0),
    total: fromCents(totalCents),
    ...(await salesByMethod(db, from, to, totalCents)),
  };
}

/**
 * Active memberships now: customers whose unlimited membership has not
 * expired, and subscription purchases still active, also by package.
 */
export async function membershipsReport(db: Db, now: Date = new Date()): Promise<z.infer<typeof membershipsReportOutput>> {
  const activeSubscription = and(eq(purchase.status, 'active'), isNotNull(purchase.subscription_period));
  const [[members], [subs], byPackage] = await Promise.all([
    db
      .select({ n: int(sql`count(*)::int`) })
      .from(customer)
      .where(
        and(
          isNull(customer.deletedAt),
          eq(customer.has_unlimited, true),
          or(isNull(customer.unlimited_membership_expiration), gt(customer.unlimited_membership_expiration, now)),
        ),
      ),
    db.select({ n: int(sql`count(*)::int`) }).from(purchase).where(activeSubscription),
    db
      .select({ class_package_id: purchase.class_package_id, title: class_package.title, count: int(sql`count(*)::int`) })
      .from(purchase)
      .innerJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
      .where(activeSubscription)
      .groupBy(purchase.class_package_id, class_package.title)
      .orderBy(desc(sql`count(*)`), asc(class_package.title)),
  ]);
  return { unlimited_members: members?.n ?? 0, active_subscriptions: subs?.n ?? 0, subscriptions_by_package: byPackage };
}

/**
 * No-shows by customer over the range: live reservations of live classes that
 * already ended, not attended. Customers with at least one, most first (top 100).
 */
export async function noShowsReport(db: Db, input: ReportRangeInput, now: Date = new Date()): Promise<z.infer<typeof noShowsReportOutput>> {
  const { from, to } = await range(db, input);
  const ended = sql`${single_class.class_date} + ${single_class.duration_minutes} * interval '1 minute' <= ${now.toISOString()}::timestamptz`;
  const noShows = sql<number>`(count(*) filter (where not ${class_reservation.attend}))::int`.mapWith(Number);
  const rows = await db
    .select({
      customer_id: customer.customer_id,
      name: customer.name,
      last_name: customer.last_name,
      email: customer.email,
      reservations: int(sql`count(*)::int`),
      no_shows: noShows,
    })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
    .where(
      and(
        isNull(class_reservation.deletedAt),
        isNull(single_class.cancelledAt),
        gte(single_class.class_date, from),
        lte(single_class.class_date, to),
        ended,
      ),
    )
    .groupBy(customer.customer_id)
    .having(sql`count(*) filter (where not ${class_reservation.attend}) > 0`)
    .orderBy(desc(noShows), asc(customer.customer_id))
    .limit(100);
  return { customers: rows };
}

