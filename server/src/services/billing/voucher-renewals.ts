import { addPeriod, cycleAt, effectivePriceCents, fromCents, studioTimeZone, toCents } from '@estudio/core';
import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { purchase, renewal_payment } from '@estudio/db/schema/purchases';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { paymentProviders } from '../../providers/payments/index.ts';
import { endAccessNow } from '../checkout/grant-purchase.ts';
import { queueInstructions, storedInstructions } from '../checkout/start-voucher.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { queueSubscriptionCancelled } from './notices.ts';

export interface VoucherRenewalDeps {
  db: Db;
  config: Config;
  messages: MessageContext;
  log?: { warn: (obj: object, msg: string) => void } | undefined;
}

/**
 * Subscriptions paid by OXXO voucher or SPEI transfer renew without a card
 * (decision 083): Stripe does not charge these methods again, so `renewal_notice_days`
 * before each charge date the clock makes the cycle's voucher (valid until the
 * charge date plus the grace days, at most Stripe's 7) or transfer and sends
 * it by e-mail and WhatsApp; on the charge date an unpaid one is sent again as
 * a reminder; `renewal_grace_days` after it the subscription lapses with the
 * dunning message cards get ('Tu suscripción se canceló'). Stripe's webhook
 * pays a cycle through recordRenewal, once. Returns how many things it did.
 */
export async function renewVoucherSubscriptions(deps: VoucherRenewalDeps, now: Date): Promise<number> {
  const { card } = paymentProviders(deps.config);
  if (!card.createVoucher) return 0;
  const settings = await loadStudioSettings(deps.db);
  const tz = studioTimeZone(settings);
  const notice = Number(settings.renewal_notice_days) || 5;
  const grace = Number(settings.renewal_grace_days);
  const due = await deps.db
    .select()
    .from(purchase)
    .where(
      and(
        eq(purchase.status, 'active'),
        isNotNull(purchase.payment_channel),
        isNotNull(purchase.subscription_period),
        isNotNull(purchase.expiration_date),
        lte(purchase.expiration_date, new Date(now.getTime() + notice * 86_400_000)),
      ),
    )
    .orderBy(asc(purchase.expiration_date))
    .limit(100);
  let done = 0;
  for (const p of due) {
    const dueAt = p.expiration_date as Date;
    const k = cycleAt(p, dueAt, tz);
    const [existing] = await deps.db.select().from(renewal_payment).where(and(eq(renewal_payment.purchase_id, p.purchase_id), eq(renewal_payment.cycle, k)));
    const lapseAt = addPeriod(dueAt, Number.isFinite(grace) ? grace : 3, 'day');
    if (existing?.status === 'paid') continue;
    if (now.getTime() >= lapseAt.getTime()) {
      if (await lapse(deps, p.purchase_id, k, now)) {
        done += 1;
        if (existing?.provider_payment_id && card.cancelPayment) await card.cancelPayment(existing.provider_payment_id).catch(() => undefined);
      }
      continue;
    }
    if (!existing) {
      if (await issue(deps, p, k, dueAt, lapseAt, settings.oxxo_expires_days, now)) done += 1;
      continue;
    }
    // The charge date came and it is unpaid: the details again, as a reminder (once).
    if (now.getTime() >= dueAt.getTime() && existing.payment_instructions) {
      await deps.db.transaction((tx) => queueInstructions(tx, deps.messages, p, existing.payment_instructions!, { dueAt, key: `${existing.renewal_payment_id}-reminder` }));
    }
  }
  return done;
}

/** What a renewal costs: the package's price now, less a discount that applies to every invoice (as card renewals). */
async function renewalAmount(db: Db, p: typeof purchase.$inferSelect): Promise<number> {
  const [pkg] = await db.select().from(class_package).where(eq(class_package.class_package_id, p.class_package_id));
  return pkg ? effectivePriceCents(pkg) : toCents(p.amount);
}

async function issue(
  deps: VoucherRenewalDeps,
  p: typeof purchase.$inferSelect,
  k: number,
  dueAt: Date,
  lapseAt: Date,
  voucherDays: string,
  now: Date,
): Promise<boolean> {
  const { card } = paymentProviders(deps.config);
  const cents = await renewalAmount(deps.db, p);
  const channel = p.payment_channel as 'oxxo' | 'spei';
  const [row] = await deps.db
    .insert(renewal_payment)
    .values({ purchase_id: p.purchase_id, cycle: k, channel, amount: fromCents(cents), due_at: dueAt, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (!row) return false;
  const [owner] = await deps.db.select().from(customer).where(eq(customer.customer_id, p.customer_id));
  if (!owner || !card.createVoucher) return false;
  // A voucher lasts until the lapse at most (Stripe: 1 to 7 days).
  const days = Math.max(1, Math.min(7, Number(voucherDays) || 3, Math.ceil((lapseAt.getTime() - now.getTime()) / 86_400_000)));
  try {
    const voucher = await card.createVoucher({
      purchaseId: p.purchase_id,
      amountCents: cents,
      description: `${p.title} (renovación, orden ${p.purchase_id})`,
      customer: { customer_id: owner.customer_id, email: owner.email, name: owner.name, last_name: owner.last_name, stripe_customer_id: owner.stripe_customer_id },
      channel,
      expiresAfterDays: days,
      metadata: { renewal_payment_id: String(row.renewal_payment_id), purchase_id: String(p.purchase_id) },
      idempotencyKey: `renewal-${row.renewal_payment_id}`,
    });
    const instructions = storedInstructions(voucher.instructions);
    await deps.db.transaction(async (tx) => {
      await tx
        .update(renewal_payment)
        .set({ provider_payment_id: voucher.paymentId, payment_instructions: instructions, updatedAt: now })
        .where(eq(renewal_payment.renewal_payment_id, row.renewal_payment_id));
      await queueInstructions(tx, deps.messages, p, instructions, { dueAt, key: String(row.renewal_payment_id) });
    });
    return true;
  } catch (err) {
    // Stripe did not answer: the row goes, so the next run tries again.
    deps.log?.warn({ err, purchaseId: p.purchase_id }, 'could not make a renewal voucher; tried again at the next run');
    await deps.db.delete(renewal_payment).where(and(eq(renewal_payment.renewal_payment_id, row.renewal_payment_id), sql`${renewal_payment.provider_payment_id} is null`));
    return false;
  }
}

/** The grace days ended unpaid: the subscription is cancelled (its access ended with its period) and told, once. */
async function lapse(deps: VoucherRenewalDeps, purchaseId: number, k: number, now: Date): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [peek] = await tx.select({ customer_id: purchase.customer_id }).from(purchase).where(eq(purchase.purchase_id, purchaseId));
    if (!peek) return false;
    await lockCustomer(tx, peek.customer_id);
    const [paid] = await tx
      .select({ id: renewal_payment.renewal_payment_id })
      .from(renewal_payment)
      .where(and(eq(renewal_payment.purchase_id, purchaseId), eq(renewal_payment.cycle, k), eq(renewal_payment.status, 'paid')))
      .for('update');
    if (paid) return false;
    const [cancelled] = await tx
      .update(purchase)
      .set({ status: 'cancelled', cancel_reason: 'Pago de renovación no recibido', cancelledAt: now, updatedAt: now })
      .where(and(eq(purchase.purchase_id, purchaseId), eq(purchase.status, 'active')))
      .returning();
    if (!cancelled) return false;
    await tx
      .update(renewal_payment)
      .set({ status: 'expired', updatedAt: now })
      .where(and(eq(renewal_payment.purchase_id, purchaseId), eq(renewal_payment.cycle, k), eq(renewal_payment.status, 'pending')));
    await endAccessNow(tx, cancelled, now);
    await queueSubscriptionCancelled(tx, deps.messages, cancelled, 'payment');
    return true;
  });
}

