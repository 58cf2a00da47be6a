import { cardBrandLabel, effectivePriceCents, formatMXN, fromCents, mxTexts, nextChargeDate, paymentKindText, studioTimeZone, texts, toCents } from '@estudio/core';
import { purchaseReceipt, subscriptionRenewed, type ReceiptFacts } from '@estudio/core/messages/templates/billing';
import { eq } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method, payment_source } from '@estudio/db/schema/payments';
import type { purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

type PurchaseRow = typeof purchase.$inferSelect;

/** How the customer paid, as the receipt says it: 'Tarjeta Visa terminación 4242', 'Efectivo', 'Transferencia', 'PayPal'. */
export async function paymentMethodText(db: Db, p: PurchaseRow, cardDigits?: { card_type: string; last_digits: string } | null): Promise<string> {
  let card = cardDigits ?? null;
  if (!card && p.payment_source_id) {
    const [source] = await db.select().from(payment_source).where(eq(payment_source.payment_source_id, p.payment_source_id));
    card = source ?? null;
  }
  if (p.payment_channel) return p.payment_channel === 'oxxo' ? mxTexts.checkout.oxxo : mxTexts.checkout.spei;
  if (p.provider === 'stripe' || p.provider === 'sandbox') {
    // The checkout's words for a saved card: 'Tarjeta Visa terminación 4242'; with its meses sin intereses (decision 082).
    const base = card ? `${texts.checkout.card} ${texts.checkout.savedCard(cardBrandLabel(card.card_type), card.last_digits)}` : texts.checkout.card;
    return p.installments ? `${base} · ${mxTexts.thanks.installmentsPlan(p.installments, texts.thanks.mxn(formatMXN(Math.round(toCents(p.total_payment) / p.installments))))}` : base;
  }
  if (p.provider === 'paypal') return texts.checkout.paypal;
  if (p.paid_with === 'transfer') return paymentKindText.transfer;
  if (p.payment_method_id) {
    const [method] = await db.select({ name: payment_method.name }).from(payment_method).where(eq(payment_method.payment_method_id, p.payment_method_id));
    if (method) return method.name;
  }
  return p.provider === 'cash' ? texts.checkout.cash : 'En recepción';
}

export interface ReceiptCharge {
  /** The invoice of this charge, or null when none is recorded (a desk grant without a bill). */
  invoiceId: number | null;
  total: string;
  paidAt: Date;
  /** End of the access this charge bought. */
  until: Date | null;
  /** A renewal of a subscription ('subscription-renewed') rather than its first payment. */
  renewal: boolean;
  card?: { card_type: string; last_digits: string } | null;
}

async function receiptFacts(db: Db, ctx: MessageContext, p: PurchaseRow, charge: ReceiptCharge): Promise<ReceiptFacts | null> {
  const [who] = await db.select({ name: customer.name }).from(customer).where(eq(customer.customer_id, p.customer_id));
  if (!who) return null;
  const [pkg] = await db.select().from(class_package).where(eq(class_package.class_package_id, p.class_package_id));
  const settings = await loadStudioSettings(db);
  const free = toCents(charge.total) === 0;
  let off: ReceiptFacts['discount'] = null;
  if (p.discount_id && !free && pkg) {
    const [d] = await db.select({ code: discount.code, first: discount.first_invoice_only }).from(discount).where(eq(discount.discount_id, p.discount_id));
    const price = effectivePriceCents(pkg);
    if (d && !(charge.renewal && d.first) && price > toCents(charge.total)) off = { code: d.code, off: fromCents(price - toCents(charge.total)) };
  }
  const tz = studioTimeZone(settings);
  return {
    name: who.name || null,
    purchaseId: p.purchase_id,
    title: p.title,
    amount: off ? fromCents(toCents(charge.total) + toCents(off.off)) : p.amount,
    total: charge.total,
    discount: off,
    paymentMethod: await paymentMethodText(db, p, charge.card),
    paidAt: charge.paidAt,
    classes: p.class_amount,
    expiresAt: charge.until,
    // The date Mis Compras shows (core's nextChargeDate): this charge paid through `until`.
    nextCharge: nextChargeDate({ ...p, paid_through: charge.until }, charge.paidAt, tz),
    free,
    gift: p.is_gift,
    orderUrl: `${ctx.publicUrl}/gracias/${p.purchase_id}`,
    tz,
  };
}

/**
 * Queues the receipt of a payment in the caller's transaction, the one that
 * made the purchase paid or recorded the renewal: the first payment of any
 * purchase ('purchase-receipt'; a confirmation without amounts when nothing
 * was paid) and each renewal of a subscription ('subscription-renewed', which
 * is that charge's receipt). dedupeKey 'receipt:invoice-<id>' (or
 * 'receipt:purchase-<id>' when no invoice is recorded): one receipt per charge.
 */
export async function queueReceipt(db: Db, ctx: MessageContext, p: PurchaseRow, charge: ReceiptCharge): Promise<number> {
  const facts = await receiptFacts(db, ctx, p, charge);
  if (!facts) return 0;
  return queueCustomerMessage(db, ctx, {
    customerId: p.customer_id,
    parts: charge.renewal ? subscriptionRenewed(facts) : purchaseReceipt(facts),
    dedupeKey: charge.invoiceId ? `receipt:invoice-${charge.invoiceId}` : `receipt:purchase-${p.purchase_id}`,
  });
}
