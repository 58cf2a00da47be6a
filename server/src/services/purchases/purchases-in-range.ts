import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { discount } from '@estudio/db/schema/discounts';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { paymentKindOf } from '../reports/payment-kind.ts';
import { matching } from '../customer/admin-customers.ts';

/**
 * Every customer's purchases made between two instants, with the customer,
 * the discount code and the refund: one query for the owner's CSV export
 * (services/reports/export-csv.ts) and the admins' purchase list
 * (list-admin-purchases.ts, the previous panel's /myadmin/orders).
 */
export interface PurchasesRange {
  from: Date;
  to: Date;
  /** Only these statuses (a list's filter). */
  statuses?: readonly (typeof purchase.$inferSelect.status)[] | undefined;
  /** Only the purchases of customers this text finds, as the customer search finds them (name, e-mail, phone). */
  query?: string | undefined;
}

const inRange = (range: PurchasesRange): SQL | undefined =>
  and(
    gte(purchase.createdAt, range.from),
    lte(purchase.createdAt, range.to),
    range.statuses?.length ? inArray(purchase.status, [...range.statuses]) : undefined,
    range.query?.trim() ? matching(range.query) : undefined,
  );

export function purchasesInRange(db: Db, range: PurchasesRange, opts: { tz: string; newestFirst?: boolean; limit?: number; offset?: number }) {
  const local = (column: Parameters<typeof sql>[1]) => sql<string | null>`to_char(${column} at time zone ${opts.tz}, 'YYYY-MM-DD HH24:MI')`;
  const order = opts.newestFirst ? [desc(purchase.createdAt), desc(purchase.purchase_id)] : [asc(purchase.createdAt), asc(purchase.purchase_id)];
  const query = db
    .select({
      id: purchase.purchase_id,
      created_at: purchase.createdAt,
      at: local(purchase.createdAt),
      customer_id: customer.customer_id,
      who: sql<string>`${customer.name} || ' ' || ${customer.last_name}`,
      name: customer.name,
      last_name: customer.last_name,
      email: customer.email,
      class_package_id: purchase.class_package_id,
      title: purchase.title,
      amount: purchase.amount,
      paid: purchase.total_payment,
      method: paymentKindOf,
      installments: purchase.installments,
      status: purchase.status,
      code: discount.code,
      refund: invoice.total_payment,
      refunded_at_instant: invoice.paidAt,
      refunded_at: local(invoice.paidAt),
      reason: purchase.cancel_reason,
    })
    .from(purchase)
    .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
    .leftJoin(discount, eq(discount.discount_id, purchase.discount_id))
    .leftJoin(invoice, and(eq(invoice.purchase_id, purchase.purchase_id), eq(invoice.status, 'refunded')))
    .where(inRange(range))
    .orderBy(...order)
    .$dynamic();
  if (opts.limit !== undefined) query.limit(opts.limit).offset(opts.offset ?? 0);
  return query;
}

/** How many purchases were made in the range (the list's pages). */
export async function countPurchasesInRange(db: Db, range: PurchasesRange): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(purchase)
    .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
    .where(inRange(range));
  return Number(row?.n ?? 0);
}
