import { fromCents, globalPeriodKey, globalPeriodOf, invoiceRequestDeadline, studioTimeZone, toCents, type GlobalPeriod, type GlobalPeriodicity } from '@estudio/core';
import { and, asc, count, eq, inArray, like, lte, ne, notExists, or, sql } from 'drizzle-orm';
import { cfdi, cfdi_global_charge, cfdi_global_product_sale } from '@estudio/db/schema/cfdi';
import { product_sale } from '@estudio/db/schema/products';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { paymentKindOf, productSaleKindOf, wasRefunded } from '../reports/payment-kind.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { chunks } from '../chunks.ts';
import { publicoEnGeneral, sumMoney } from './build-documents.ts';
import { cfdiOn, invoiceableCharge, linePaymentForm } from './charges.ts';

/** facturapi's limit of lines a document (global_invoice_too_many_items past it). */
export const globalInvoiceMaxLines = 5_000;

const noPersonalInvoice = (db: Db) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(cfdi)
      .where(and(eq(cfdi.charge_id, invoice.invoice_id), eq(cfdi.kind, 'invoice'), ne(cfdi.status, 'cancelled'))),
  );
const notOnGlobal = (db: Db) => notExists(db.select({ one: sql`1` }).from(cfdi_global_charge).where(eq(cfdi_global_charge.charge_id, invoice.invoice_id)));
const productNotOnGlobal = (db: Db) =>
  notExists(db.select({ one: sql`1` }).from(cfdi_global_product_sale).where(eq(cfdi_global_product_sale.product_sale_id, product_sale.product_sale_id)));

interface Candidate {
  /** A charge (invoice row) of a purchase, or a product sold at the counter. */
  source: 'charge' | 'product';
  id: number;
  amountCents: number;
  paymentForm: string;
  periodKey: string;
  months: string;
  year: number;
}

/**
 * The global invoice (decision 085): every sale of a period that nobody
 * invoiced to a person goes on the studio's global invoice to the public in
 * general, one per period and payment form, in documents of at most 5,000
 * lines. A period is issued once it has ended and the request window of each
 * of its sales has closed (the settings keep the two in step with the SAT's
 * 72 hours). What was refunded before is left out of its line (a fully
 * refunded sale is left out); annulled sales, gifts and unpaid purchases
 * never count. Products sold at the counter (decision 114) go on it too, each
 * sale line once. A line paid partly in cash and partly by card takes the
 * form of its larger part. The documents are kept 'pending' here, each with its lines,
 * in a transaction that locks the charges a personal request locks too; the
 * sender stamps them. Idempotent: a run finds only charges on no invoice yet.
 * Returns the documents made.
 */
export async function issueGlobalInvoices(db: Db, now: Date = new Date()): Promise<number> {
  const settings = await loadStudioSettings(db);
  if (!cfdiOn(settings)) return 0;
  const tz = studioTimeZone(settings);
  const periodicity = settings.cfdi_global_periodicity as GlobalPeriodicity;
  const rows = await db
    .select({
      chargeId: invoice.invoice_id,
      purchaseId: invoice.purchase_id,
      total: invoice.total_payment,
      paidAt: invoice.paidAt,
      createdAt: invoice.createdAt,
      kind: paymentKindOf,
      channel: purchase.payment_channel,
      cashPart: purchase.cash_part,
      refunded: sql<string | null>`(select sum(ri.total_payment) from invoice ri where ri.purchase_id = "purchase"."purchase_id" and ri.status = 'refunded')`,
      latest: sql<number>`(select max(li.invoice_id) from invoice li where li.purchase_id = "purchase"."purchase_id" and li.status = 'completed')`,
    })
    .from(invoice)
    .innerJoin(purchase, eq(purchase.purchase_id, invoice.purchase_id))
    .where(and(invoiceableCharge(), or(ne(purchase.status, 'revoked'), wasRefunded), lte(invoice.paidAt, now), noPersonalInvoice(db), notOnGlobal(db)))
    .orderBy(asc(invoice.paidAt), asc(invoice.invoice_id));
  const products = await db
    .select({
      id: product_sale.product_sale_id,
      total: product_sale.total,
      cashPart: product_sale.cash_part,
      paidAt: product_sale.paidAt,
      kind: productSaleKindOf,
      // Units brought back before the invoice is made are not sold (decision 115).
      returned: sql<string | null>`(select sum(pr.amount) from product_return pr where pr.product_sale_id = "product_sale"."product_sale_id")`,
    })
    .from(product_sale)
    .where(and(sql`${product_sale.total} > 0`, lte(product_sale.paidAt, now), productNotOnGlobal(db)))
    .orderBy(asc(product_sale.paidAt), asc(product_sale.product_sale_id));
  const groups = new Map<string, Candidate[]>();
  // The periods and windows are computed once per period, not once per sale: the studio's calendar arithmetic is
  // about a millisecond a call, 20 seconds for a month of 10,000 sales (bench/mexico-money.ts).
  const periodOf = lastOf((at: Date) => globalPeriodOf(at, periodicity, tz));
  const monthOf = lastOf((at: Date) => globalPeriodOf(at, 'month', tz));
  const keys = new WeakMap<GlobalPeriod, string>();
  const keyOf = (p: GlobalPeriod) => keys.get(p) ?? (keys.set(p, globalPeriodKey(p, tz)), keys.get(p) as string);
  const requestDays = Number(settings.cfdi_request_days);
  const deadlineOf = (at: Date) => (Number.isInteger(requestDays) && requestDays > 0 ? invoiceRequestDeadline(at, settings.cfdi_request_days, tz) : monthOf(at).end);
  const consider = (candidate: Omit<Candidate, 'periodKey' | 'months' | 'year'>, paidAt: Date) => {
    const period = periodOf(paidAt);
    const windowEnd = deadlineOf(paidAt);
    if (period.end.getTime() > now.getTime() || windowEnd.getTime() > now.getTime()) return;
    if (candidate.amountCents <= 0) return;
    const full: Candidate = { ...candidate, periodKey: keyOf(period), months: period.months, year: period.year };
    const key = `${full.periodKey}|${full.paymentForm}`;
    const group = groups.get(key);
    if (group) group.push(full);
    else groups.set(key, [full]);
  };
  for (const r of rows) {
    const refunded = r.chargeId === Number(r.latest) && r.refunded ? toCents(r.refunded) : 0;
    consider(
      { source: 'charge', id: r.chargeId, amountCents: toCents(r.total) - refunded, paymentForm: linePaymentForm(r.kind, r.channel, r.cashPart, r.total) },
      r.paidAt ?? r.createdAt,
    );
  }
  for (const p of products) {
    const amountCents = toCents(p.total) - (p.returned ? toCents(p.returned) : 0);
    consider({ source: 'product', id: p.id, amountCents, paymentForm: linePaymentForm(p.kind, null, p.cashPart, p.total) }, p.paidAt);
  }
  let made = 0;
  for (const group of groups.values()) {
    for (const part of chunks(group, globalInvoiceMaxLines)) made += await storeGlobal(db, part, periodicity, publicoEnGeneral(settings), now);
  }
  return made;
}

/** A period function that answers the last period again while an instant falls in it. */
function lastOf(compute: (at: Date) => GlobalPeriod): (at: Date) => GlobalPeriod {
  let last: GlobalPeriod | null = null;
  return (at) => {
    if (last && at.getTime() >= last.start.getTime() && at.getTime() < last.end.getTime()) return last;
    last = compute(at);
    return last;
  };
}

async function storeGlobal(db: Db, part: Candidate[], periodicity: GlobalPeriodicity, receiver: ReturnType<typeof publicoEnGeneral>, now: Date): Promise<number> {
  const first = part[0] as Candidate;
  return db.transaction(async (tx) => {
    // The charges a personal request would lock: one still free of any invoice goes on this one.
    const free = new Set<number>();
    const charges = part.filter((c) => c.source === 'charge');
    for (const ids of chunks(charges.map((c) => c.id), 1_000)) {
      const locked = await tx
        .select({ id: invoice.invoice_id })
        .from(invoice)
        .where(and(inArray(invoice.invoice_id, ids), noPersonalInvoice(tx), notOnGlobal(tx)))
        .for('update');
      for (const l of locked) free.add(l.id);
    }
    // A product sale only ever goes on a global invoice: locked so two runs cannot both take it.
    const freeProducts = new Set<number>();
    for (const ids of chunks(part.filter((c) => c.source === 'product').map((c) => c.id), 1_000)) {
      const locked = await tx
        .select({ id: product_sale.product_sale_id })
        .from(product_sale)
        .where(and(inArray(product_sale.product_sale_id, ids), productNotOnGlobal(tx)))
        .for('update');
      for (const l of locked) freeProducts.add(l.id);
    }
    const lines = part.filter((c) => (c.source === 'charge' ? free.has(c.id) : freeProducts.has(c.id)));
    if (lines.length === 0) return 0;
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(cfdi)
      .where(and(eq(cfdi.kind, 'global'), eq(cfdi.payment_form, first.paymentForm), like(cfdi.period_key, `${first.periodKey}/%`)));
    const amounts = lines.map((l) => fromCents(l.amountCents));
    const [doc] = await tx
      .insert(cfdi)
      .values({
        kind: 'global',
        status: 'pending',
        receiver,
        total: sumMoney(amounts),
        payment_form: first.paymentForm,
        period_key: `${first.periodKey}/${n + 1}`,
        global_months: first.months,
        global_year: first.year,
        global_periodicity: periodicity,
        next_attempt_at: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: cfdi.cfdi_id });
    if (!doc) return 0;
    for (const batch of chunks(lines.filter((l) => l.source === 'charge'), 1_000)) {
      await tx.insert(cfdi_global_charge).values(batch.map((l) => ({ cfdi_id: doc.id, charge_id: l.id, amount: fromCents(l.amountCents) })));
    }
    for (const batch of chunks(lines.filter((l) => l.source === 'product'), 1_000)) {
      await tx.insert(cfdi_global_product_sale).values(batch.map((l) => ({ cfdi_id: doc.id, product_sale_id: l.id, amount: fromCents(l.amountCents) })));
    }
    return 1;
  });
}
