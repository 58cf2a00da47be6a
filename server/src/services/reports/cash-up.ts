import { fromCents, studioDayRange, studioTimeZone, toCents, type cashUpOutput, type z } from '@estudio/core';
import { and, asc, eq, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { paymentKindOf } from './payment-kind.ts';
import { refundedBetween, soldBetween } from './reports.ts';

/**
 * The day's cash-up (corte de caja, decision 034): the cash that should be in
 * the drawer at the end of a studio day. Cash taken that day (the sales
 * report's rule, kind 'cash': an order never paid took no money, and one paid
 * by bank transfer never was in the drawer) minus the cash refunds made that
 * day, line by line so the owner can match each one. A sale counts on the day
 * its money was taken.
 */
export async function cashUp(db: Db, date: string): Promise<z.infer<typeof cashUpOutput>> {
  const { from, to } = studioDayRange(date, date, studioTimeZone(await loadStudioSettings(db)));
  const cash = sql`${paymentKindOf} = 'cash'`;
  const who = sql<string>`${customer.name} || ' ' || ${customer.last_name}`;
  const [sales, refunds] = await Promise.all([
    db
      .select({ at: purchase.paidAt, purchase_id: purchase.purchase_id, customer: who, title: purchase.title, amount: purchase.total_payment })
      .from(purchase)
      .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
      .where(and(soldBetween(from, to), cash))
      .orderBy(asc(purchase.paidAt), asc(purchase.purchase_id)),
    db
      .select({ at: invoice.paidAt, purchase_id: purchase.purchase_id, customer: who, title: purchase.title, amount: invoice.total_payment })
      .from(invoice)
      .innerJoin(purchase, eq(purchase.purchase_id, invoice.purchase_id))
      .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
      .where(and(refundedBetween(from, to), cash))
      .orderBy(asc(invoice.paidAt), asc(invoice.invoice_id)),
  ]);
  const sum = (rows: { amount: string }[]) => rows.reduce((n, r) => n + toCents(r.amount), 0);
  const lines = [
    ...sales.map((r) => ({ kind: 'sale' as const, ...r, at: (r.at ?? from).toISOString() })),
    ...refunds.map((r) => ({ kind: 'refund' as const, ...r, at: (r.at ?? from).toISOString() })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return {
    date,
    sales: { count: sales.length, total: fromCents(sum(sales)) },
    refunds: { count: refunds.length, total: fromCents(sum(refunds)) },
    expected_cash: fromCents(sum(sales) - sum(refunds)),
    lines,
  };
}
