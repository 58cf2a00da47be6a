import { satPaymentForms, toCents, type AppConfigMap } from '@estudio/core';
import { and, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { paymentKindOf } from '../reports/payment-kind.ts';

/**
 * What a CFDI invoices: a charge, the `invoice` row of money received (the
 * first payment of a purchase, each renewal of a subscription), decision 084.
 * Pending and failed purchases took no money, gifts and free ones none to
 * invoice, and a revoked sale was annulled (decision 034): none is invoiced.
 */
export function invoiceableCharge(): SQL {
  return and(
    eq(invoice.status, 'completed'),
    gt(invoice.total_payment, '0'),
    eq(purchase.is_gift, false),
    inArray(purchase.status, ['active', 'completed', 'cancelled', 'revoked']),
  ) as SQL;
}

/** A purchase's paid charges, newest first. */
export async function paidCharges(db: Db, purchaseIds: readonly number[]) {
  if (purchaseIds.length === 0) return [];
  return db
    .select({ charge: invoice, kind: paymentKindOf, channel: purchase.payment_channel })
    .from(invoice)
    .innerJoin(purchase, eq(purchase.purchase_id, invoice.purchase_id))
    .where(and(inArray(invoice.purchase_id, [...purchaseIds]), invoiceableCharge()))
    .orderBy(sql`${invoice.paidAt} desc nulls last`, sql`${invoice.invoice_id} desc`);
}

/**
 * The SAT's c_FormaPago of a payment: cash ('01', also paid at an OXXO store),
 * a SPEI transfer ('03'), a card ('04', credit: the card's bank splits meses
 * sin intereses), PayPal as an intermediary ('31').
 */
export function satPaymentFormOf(kind: string, channel: string | null): string {
  if (channel === 'spei') return satPaymentForms.transfer;
  if (channel === 'oxxo') return satPaymentForms.cash;
  switch (kind) {
    case 'cash':
      return satPaymentForms.cash;
    case 'card':
      return satPaymentForms.creditCard;
    case 'paypal':
      return satPaymentForms.intermediary;
    default:
      return satPaymentForms.toBeDefined;
  }
}

/**
 * The form of a global invoice's line: a sale paid partly in cash at the counter and the rest by card takes the form
 * of its larger part (the SAT's rule for one operation paid several ways); otherwise its payment's form.
 */
export function linePaymentForm(kind: string, channel: string | null, cashPart: string | null, total: string): string {
  if (cashPart !== null && toCents(cashPart) * 2 >= toCents(total)) return satPaymentForms.cash;
  return satPaymentFormOf(kind, channel);
}

/** Invoicing is on (the owner's switch); the PAC may still be missing (then documents wait). */
export const cfdiOn = (settings: AppConfigMap) => settings.cfdi_enabled === 'true' || settings.cfdi_enabled === '1';
