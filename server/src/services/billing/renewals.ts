import { addPeriod, studioTimeZone, discountedCents, effectivePriceCents, fromCents, PaymentDeclinedError, toCents } from '@estudio/core';
import { and, asc, desc, eq, isNotNull, isNull, like, lte } from 'drizzle-orm';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { payment_source } from '@estudio/db/schema/payments';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { paymentProviders } from '../../providers/payments/index.ts';
import { endAccessNow, recordRenewal, type PurchaseRow } from '../checkout/grant-purchase.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { queuePaymentFailed, queueSubscriptionCancelled } from './notices.ts';
import { chargeDate, cycleAt, nextCycleAfter, retryDays } from './renewal-dates.ts';

export interface RenewalDeps {
  db: Db;
  config: Config;
  messages: MessageContext;
}

export type RenewalOutcome = 'renewed' | 'declined' | 'cancelled' | 'not-due';

/** The invoice id of attempt `n` (0 first) of cycle `k`: unique, so no attempt is recorded twice. */
const attemptId = (purchaseId: number, k: number, n: number) => `sandbox_in_${purchaseId}_${k}_${n}`;

/** What a renewal charges: the recurring price (sale price) less a discount that applies to every invoice. */
async function renewalCents(tx: Tx, p: PurchaseRow): Promise<number> {
  const [d] = p.discount_id ? await tx.select().from(discount).where(eq(discount.discount_id, p.discount_id)) : [];
  const recurringDiscount = d && !d.first_invoice_only ? d : null;
  // The first charge is the recurring one unless it was a free trial or carried a first-invoice-only discount.
  if (toCents(p.total_payment) > 0 && (!d || recurringDiscount)) return toCents(p.total_payment);
  const [pkg] = await tx.select().from(class_package).where(eq(class_package.class_package_id, p.class_package_id));
  const price = pkg ? effectivePriceCents(pkg) : toCents(p.amount);
  return discountedCents(price, recurringDiscount);
}

/**
 * The card a renewal charges: the sandbox card the customer saved last in
 * Métodos de Pago, read at each attempt, so a card added (or the old one
 * removed) after a decline is the one the next retry uses. Nothing in the
 * product marks a default card (the seed's is_default is not shown), so the
 * newest one is the customer's latest choice.
 */
async function cardOf(tx: Tx, customerId: number) {
  const [card] = await tx
    .select()
    .from(payment_source)
    .where(and(eq(payment_source.customer_id, customerId), eq(payment_source.provider, 'sandbox'), isNull(payment_source.deletedAt)))
    .orderBy(desc(payment_source.payment_source_id))
    .limit(1);
  return card ?? null;
}

/**
 * One sandbox subscription's due charge, in one transaction under the
 * customer's lock and then the purchase's (decision 006 order), so two
 * processes or a repeated run find the cycle already paid, or its failed
 * attempt already recorded with the next one ahead, and do nothing:
 * - due when its paid access (expiration_date, a charge date of the spec's
 *   rule) has ended; the cycle is the charge date nearest it;
 * - the first attempt at that date, then one on each day of
 *   subscription_retry_days after the first failure;
 * - paid: recordRenewal (the same invoice, credits and receipt as Stripe's
 *   invoice.paid), the access lasting to the next charge date ahead of now;
 * - declined: a failed invoice for the attempt and 'payment-failed' with the
 *   next attempt; the last one cancels the subscription (its access already
 *   ended with the unpaid period) and sends 'subscription-cancelled'.
 */
export async function renewSubscription(deps: RenewalDeps, purchaseId: number, now: Date): Promise<RenewalOutcome> {
  const { card: provider } = paymentProviders(deps.config);
  const charge = provider.chargeSubscription?.bind(provider);
  if (provider.name !== 'sandbox' || !charge) return 'not-due';
  const [peek] = await deps.db.select({ customer_id: purchase.customer_id }).from(purchase).where(eq(purchase.purchase_id, purchaseId));
  if (!peek) return 'not-due';
  return deps.db.transaction(async (tx) => {
    await lockCustomer(tx, peek.customer_id);
    const [p] = await tx.select().from(purchase).where(eq(purchase.purchase_id, purchaseId)).for('update');
    if (!p || p.status !== 'active' || p.provider !== 'sandbox' || !p.subscription_period || !p.subscription_id || !p.expiration_date) return 'not-due';
    if (p.expiration_date.getTime() > now.getTime()) return 'not-due';

    const settings = await loadStudioSettings(tx);
    const tz = studioTimeZone(settings);
    const k = cycleAt(p, p.expiration_date, tz);
    const attempts = await tx
      .select()
      .from(invoice)
      .where(and(eq(invoice.purchase_id, p.purchase_id), like(invoice.provider_invoice_id, `sandbox_in_${p.purchase_id}_${k}_%`)))
      .orderBy(asc(invoice.createdAt), asc(invoice.invoice_id));
    if (attempts.some((a) => a.status === 'completed')) return 'not-due';
    const failed = attempts.filter((a) => a.status === 'failed');
    const days = retryDays(settings.subscription_retry_days);
    const firstFailure = failed[0]?.createdAt ?? null;
    if (firstFailure && failed.length <= days.length) {
      const retryAt = addPeriod(firstFailure, days[failed.length - 1] as number, 'day');
      if (retryAt.getTime() > now.getTime()) return 'not-due';
    }

    const cents = await renewalCents(tx, p);
    const total = fromCents(cents);
    const id = attemptId(p.purchase_id, k, failed.length);
    const card = await cardOf(tx, p.customer_id);
    let declineCode: string | null = null;
    if (failed.length > days.length) declineCode = 'generic_decline';
    else if (!card) declineCode = 'no_card';
    else {
      try {
        await charge({ subscriptionId: p.subscription_id, paymentMethod: card.source_id, amountCents: cents, idempotencyKey: id });
      } catch (err) {
        if (!(err instanceof PaymentDeclinedError)) throw err;
        declineCode = err.decline_code;
      }
    }

    if (declineCode === null && card) {
      const until = chargeDate(p, nextCycleAfter(p, k, now, tz), tz);
      await recordRenewal(tx, p, {
        providerInvoiceId: id,
        totalPayment: total,
        periodStart: chargeDate(p, k, tz),
        periodEnd: until,
        now,
        messages: deps.messages,
        card,
      });
      return 'renewed';
    }

    if (failed.length <= days.length) {
      await tx
        .insert(invoice)
        .values({ purchase_id: p.purchase_id, customer_id: p.customer_id, total_payment: total, status: 'failed', provider_invoice_id: id, period_start: chargeDate(p, k, tz), createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: invoice.provider_invoice_id });
    }
    const retry = failed.length < days.length ? days[failed.length] : undefined;
    if (retry !== undefined) {
      await queuePaymentFailed(tx, deps.messages, p, {
        total,
        declineCode,
        cardDigits: card?.last_digits ?? null,
        nextAttempt: addPeriod(firstFailure ?? now, retry, 'day'),
        dedupeKey: `payment-failed:${id}`,
      });
      return 'declined';
    }
    // The last attempt failed: the subscription ends (its paid period is over, so is its access).
    const [cancelled] = await tx
      .update(purchase)
      .set({ status: 'cancelled', cancel_reason: 'Pago rechazado', cancelledAt: now, updatedAt: now })
      .where(and(eq(purchase.purchase_id, p.purchase_id), eq(purchase.status, 'active')))
      .returning();
    if (cancelled) {
      await endAccessNow(tx, cancelled, now);
      await queueSubscriptionCancelled(tx, deps.messages, cancelled, 'payment');
    }
    return 'cancelled';
  });
}

/** Every sandbox subscription whose paid period has ended, oldest first: charged, retried or cancelled. Returns how many charges or cancellations happened. */
export async function renewDueSubscriptions(deps: RenewalDeps, now: Date, limit = 100): Promise<number> {
  if (paymentProviders(deps.config).card.name !== 'sandbox') return 0;
  const due = await deps.db
    .select({ id: purchase.purchase_id })
    .from(purchase)
    .where(
      and(
        eq(purchase.provider, 'sandbox'),
        eq(purchase.status, 'active'),
        isNotNull(purchase.subscription_period),
        isNotNull(purchase.subscription_id),
        lte(purchase.expiration_date, now),
      ),
    )
    .orderBy(asc(purchase.expiration_date))
    .limit(limit);
  let done = 0;
  for (const { id } of due) if ((await renewSubscription(deps, id, now)) !== 'not-due') done += 1;
  return done;
}
