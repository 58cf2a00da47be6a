import { fromCents, isTrialPackage, nextChargeDate, studioTimeZone, type PurchaseOutput } from '@estudio/core';
import { asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { file } from '@estudio/db/schema/content';
import { customer } from '@estudio/db/schema/customer';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method, payment_source } from '@estudio/db/schema/payments';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { purchaseCfdiStates } from '../cfdi/state.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Purchases matching `where`, newest first, with package, method, discount, customer email, invoices and next charge date. */
export async function loadPurchases(db: Db, where: SQL, now: Date = new Date()): Promise<PurchaseOutput[]> {
  const rows = await db
    .select({
      p: purchase,
      pkg: class_package,
      receipt: file.src,
      method: { payment_method_id: payment_method.payment_method_id, name: payment_method.name },
      d: { discount_id: discount.discount_id, code: discount.code },
      card: { card_type: payment_source.card_type, last_digits: payment_source.last_digits },
      email: customer.email,
    })
    .from(purchase)
    .innerJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
    .leftJoin(file, eq(file.file_id, class_package.receipt_file_id))
    .leftJoin(payment_method, eq(payment_method.payment_method_id, purchase.payment_method_id))
    .leftJoin(discount, eq(discount.discount_id, purchase.discount_id))
    .leftJoin(payment_source, eq(payment_source.payment_source_id, purchase.payment_source_id))
    .where(where)
    .orderBy(desc(purchase.createdAt), desc(purchase.purchase_id));
  const tz = studioTimeZone(await loadStudioSettings(db));
  const ids = rows.map((r) => r.p.purchase_id);
  const invoices = ids.length
    ? await db.select().from(invoice).where(inArray(invoice.purchase_id, ids)).orderBy(asc(invoice.createdAt), asc(invoice.invoice_id))
    : [];
  const cfdis = await purchaseCfdiStates(db, rows.map((r) => r.p), now);
  return rows.map(({ p, pkg, receipt, method, d, card, email }) => {
    const next = nextChargeDate({ ...p, paid_through: p.expiration_date }, now, tz);
    return {
      purchase_id: p.purchase_id,
      customer_id: p.customer_id,
      class_package_id: p.class_package_id,
      title: p.title,
      amount: p.amount,
      total_payment: p.total_payment,
      class_amount: p.class_amount,
      expiration_days: p.expiration_days,
      status: p.status,
      subscription_id: p.subscription_id,
      subscription_period: p.subscription_period,
      subscription_interval: p.subscription_interval,
      free_trial_length: p.free_trial_length,
      free_trial_period: p.free_trial_period,
      is_gift: p.is_gift,
      provider: p.provider,
      payment_method_id: p.payment_method_id,
      payment_method: method?.payment_method_id ? { payment_method_id: method.payment_method_id, name: method.name } : null,
      card: card?.last_digits ? { card_type: card.card_type, last_digits: card.last_digits } : null,
      discount: d?.discount_id ? { discount_id: d.discount_id, code: d.code } : null,
      customer: { customer_id: p.customer_id, email },
      class_package: {
        class_package_id: pkg.class_package_id,
        title: pkg.title,
        description: pkg.description,
        short_description: pkg.short_description,
        price: pkg.price,
        sale_price: pkg.sale_price,
        image: pkg.image,
        is_subscription: pkg.is_subscription,
        is_trial: isTrialPackage(pkg),
        subscription_period: pkg.subscription_period,
        subscription_interval: pkg.subscription_interval,
        receipt_file: receipt ? { src: receipt } : null,
        is_online: pkg.is_online,
        is_presencial: pkg.is_presencial,
      },
      cancel_reason: p.cancel_reason,
      expiration_date: iso(p.expiration_date),
      next_charge_date: iso(next),
      invoices: invoices
        .filter((i) => i.purchase_id === p.purchase_id)
        .map((i) => ({
          invoice_id: i.invoice_id,
          purchase_id: i.purchase_id,
          total_payment: i.total_payment,
          status: i.status,
          period_start: iso(i.period_start),
          period_end: iso(i.period_end),
          paidAt: iso(i.paidAt),
          createdAt: i.createdAt.toISOString(),
        })),
      created_at: p.createdAt.toISOString(),
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
      cancelledAt: iso(p.cancelledAt),
      payment_channel: p.payment_channel,
      payment_instructions: instructionsOf(p),
      installments: p.installments ? { count: p.installments, monthly: fromCents(Math.round(Number(p.total_payment) * 100 / p.installments)) } : null,
      cfdi: cfdis.get(p.purchase_id) ?? { state: 'none', cfdi_id: null, uuid: null, waiting_for_pac: false, failure_reason: null, can_request: false, request_until: null, credit_notes: [] },
    };
  });
}

/** The voucher or transfer details while they matter: an unpaid order, or a transfer that left money over. */
function instructionsOf(p: typeof purchase.$inferSelect): PurchaseOutput['payment_instructions'] {
  const i = p.payment_instructions;
  if (!i || !p.payment_channel) return null;
  if (p.status !== 'pending' && !(i.overpaid_cents ?? 0)) return null;
  return {
    channel: i.channel,
    reference: i.reference,
    expires_at: i.expires_at ?? null,
    hosted_url: i.hosted_url ?? null,
    clabe: i.clabe ?? null,
    bank_name: i.bank_name ?? null,
    amount: fromCents(i.amount_cents),
    received: fromCents(i.received_cents ?? 0),
    remaining: fromCents(i.remaining_cents ?? i.amount_cents),
    overpaid: fromCents(i.overpaid_cents ?? 0),
  };
}
