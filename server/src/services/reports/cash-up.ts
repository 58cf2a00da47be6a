import { fromCents, splitLineTitle, studioDayRange, studioTimeZone, toCents, type cashUpOutput, type z } from '@estudio/core';
import { and, asc, eq, isNotNull, or, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { product_return, product_sale } from '@estudio/db/schema/products';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { paymentKindOf, productSaleKindOf } from './payment-kind.ts';
import { productLineTitle, productReturnTitle, productsReturnedBetween, productsSoldBetween } from './product-sales.ts';
import { refundedBetween, soldBetween } from './reports.ts';

/**
 * The day's cash-up (corte de caja, decision 034): the cash that should be in
 * the drawer at the end of a studio day. Cash taken that day (the sales
 * report's rule, kind 'cash': an order never paid took no money, and one paid
 * by bank transfer never was in the drawer) minus the cash refunds made that
 * day, line by line so the owner can match each one. A sale counts on the day
 * its money was taken; products sold at the counter for cash are sales too,
 * and of a sale paid partly in cash and partly by card, the cash part; a
 * product brought back for cash is a refund of the day it came back.
 */
export async function cashUp(db: Db, date: string): Promise<z.infer<typeof cashUpOutput>> {
  const { from, to } = studioDayRange(date, date, studioTimeZone(await loadStudioSettings(db)));
  const cash = sql`${paymentKindOf} = 'cash'`;
  const who = sql<string>`${customer.name} || ' ' || ${customer.last_name}`;
  const [packages, products, purchaseRefunds, productReturns] = await Promise.all([
    db
      .select({ at: purchase.paidAt, purchase_id: purchase.purchase_id, product_sale_id: sql<number | null>`null`, customer: who, title: purchase.title, amount: purchase.total_payment, cash_part: purchase.cash_part })
      .from(purchase)
      .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
      .where(and(soldBetween(from, to), or(cash, isNotNull(purchase.cash_part))))
      .orderBy(asc(purchase.paidAt), asc(purchase.purchase_id)),
    db
      .select({ at: product_sale.paidAt, purchase_id: sql<number | null>`null`, product_sale_id: product_sale.product_sale_id, customer: who, title: productLineTitle, amount: product_sale.total, cash_part: product_sale.cash_part })
      .from(product_sale)
      .innerJoin(customer, eq(customer.customer_id, product_sale.customer_id))
      .where(and(productsSoldBetween(from, to), or(sql`${productSaleKindOf} = 'cash'`, isNotNull(product_sale.cash_part))))
      .orderBy(asc(product_sale.paidAt), asc(product_sale.product_sale_id)),
    db
      .select({ at: invoice.paidAt, purchase_id: purchase.purchase_id, product_sale_id: sql<number | null>`null`, customer: who, title: purchase.title, amount: invoice.total_payment })
      .from(invoice)
      .innerJoin(purchase, eq(purchase.purchase_id, invoice.purchase_id))
      .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
      .where(and(refundedBetween(from, to), cash))
      .orderBy(asc(invoice.paidAt), asc(invoice.invoice_id)),
    // Products brought back: the cash handed back from the drawer (what went back on a card never was drawer money).
    db
      .select({ at: product_return.returnedAt, purchase_id: sql<number | null>`null`, product_sale_id: product_sale.product_sale_id, customer: who, title: productReturnTitle, amount: product_return.cash_part })
      .from(product_return)
      .innerJoin(product_sale, eq(product_sale.product_sale_id, product_return.product_sale_id))
      .innerJoin(customer, eq(customer.customer_id, product_sale.customer_id))
      .where(and(productsReturnedBetween(from, to), sql`${product_return.cash_part} > 0`))
      .orderBy(asc(product_return.returnedAt), asc(product_return.product_return_id)),
  ]);
  const refunds = [...purchaseRefunds, ...productReturns];
  // Of a split payment only the cash part was drawer money.
  const sales = [...packages, ...products].flatMap(({ cash_part, ...r }) =>
    cash_part === null ? [r] : toCents(cash_part) > 0 ? [{ ...r, title: splitLineTitle(r.title), amount: cash_part }] : [],
  );
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
