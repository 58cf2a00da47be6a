import { fromCents, globalPeriodKey, globalPeriodOf, invoiceRequestDeadline, studioTimeZone, toCents, type GlobalPeriod, type GlobalPeriodicity } from '@estudio/core';
import { and, asc, count, eq, inArray, like, lte, ne, notExists, or, sql } from 'drizzle-orm';
import { cfdi, cfdi_global_charge } from '@estudio/db/schema/cfdi';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { paymentKindOf, wasRefunded } from '../reports/payment-kind.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { publicoEnGeneral, chunks, sumMoney } from './build-documents.ts';
import { cfdiOn, invoiceableCharge, satPaymentFormOf } from './charges.ts';

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

interface Candidate {
  chargeId: number;
  purchaseId: number;
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
 * never count. The documents are kept 'pending' here, each with its lines,
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
      refunded: sql<string | null>`(select sum(ri.total_payment) from invoice ri where ri.purchase_id = "purchase"."purchase_id" and ri.status = 'refunded')`,
      latest: sql<number>`(select max(li.invoice_id) from invoice li where li.purchase_id = "purchase"."purchase_id" and li.status = 'completed')`,
    })
    .from(invoice)
    .innerJoin(purchase, eq(purchase.purchase_id, invoice.purchase_id))
    .where(and(invoiceableCharge(), or(ne(purchase.status, 'revoked'), wasRefunded), lte(invoice.paidAt, now), noPersonalInvoice(db), notOnGlobal(db)))
    .orderBy(asc(invoice.paidAt), asc(invoice.invoice_id));
  const groups = new Map<string, Candidate[]>();
  // The periods and windows are computed once per period, not once per sale: the studio's calendar arithmetic is
  // about a millisecond a call, 20 seconds for a month of 10,000 sales (bench/mexico-money.ts).
  const periodOf = lastOf((at: Date) => globalPeriodOf(at, periodicity, tz));
  const monthOf = lastOf((at: Date) => globalPeriodOf(at, 'month', tz));
  const keys = new WeakMap<GlobalPeriod, string>();
  const keyOf = (p: GlobalPeriod) => keys.get(p) ?? (keys.set(p, globalPeriodKey(p, tz)), keys.get(p) as string);
  const requestDays = Number(settings.cfdi_request_days);
  const deadlineOf = (at: Date) => (Number.isInteger(requestDays) && requestDays > 0 ? invoiceRequestDeadline(at, settings.cfdi_request_days, tz) : monthOf(at).end);
  for (const r of rows) {
    const paidAt = r.paidAt ?? r.createdAt;
    const period = periodOf(paidAt);
    const windowEnd = deadlineOf(paidAt);
    if (period.end.getTime() > now.getTime() || windowEnd.getTime() > now.getTime()) continue;
    const refunded = r.chargeId === Number(r.latest) && r.refunded ? toCents(r.refunded) : 0;
    const amountCents = toCents(r.total) - refunded;
    if (amountCents <= 0) continue;
    const candidate: Candidate = {
      chargeId: r.chargeId,
      purchaseId: r.purchaseId,
      amountCents,
      paymentForm: satPaymentFormOf(r.kind, r.channel),
      periodKey: keyOf(period),
      months: period.months,
      year: period.year,
    };
    const key = `${candidate.periodKey}|${candidate.paymentForm}`;
    const group = groups.get(key);
    if (group) group.push(candidate);
    else groups.set(key, [candidate]);
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
    for (const ids of chunks(part.map((c) => c.chargeId), 1_000)) {
      const locked = await tx
        .select({ id: invoice.invoice_id })
        .from(invoice)
        .where(and(inArray(invoice.invoice_id, ids), noPersonalInvoice(tx), notOnGlobal(tx)))
        .for('update');
      for (const l of locked) free.add(l.id);
    }
    const lines = part.filter((c) => free.has(c.chargeId));
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
    for (const batch of chunks(lines, 1_000)) {
      await tx.insert(cfdi_global_charge).values(batch.map((l) => ({ cfdi_id: doc.id, charge_id: l.chargeId, amount: fromCents(l.amountCents) })));
    }
    return 1;
  });
}
