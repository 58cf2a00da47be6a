import { cashAllowedFor, DomainError, installmentsAllowed, isFreePackage, isOn, mxTexts, studioTimeZone, type AppConfigMap } from '@estudio/core';
import { paymentInstructions } from '@estudio/core/messages/templates/mexico';
import { and, eq, isNull } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { purchase, type PaymentInstructions } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { paymentProviders } from '../../providers/payments/index.ts';
import type { VoucherInstructions } from '../../providers/payments/types.ts';
import { messageContextOf, type MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { getSellablePackage } from '../packages/package-output.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { CheckoutDeps } from './checkout.ts';
import { markPurchaseFailed } from './grant-purchase.ts';
import { preparePurchase } from './prepare-purchase.ts';

export type Channel = 'oxxo' | 'spei';

/** OXXO takes payments of $10.00 to $10,000.00 MXN (Stripe's limits for the method). */
export const oxxoLimitsCents = { min: 1_000, max: 1_000_000 } as const;

/** Whether the studio offers a channel now: Stripe configured (the sandbox has no OXXO nor CLABEs) and the setting on. */
export function channelOffered(config: Config, settings: AppConfigMap, channel: Channel): boolean {
  const { card } = paymentProviders(config);
  if (!card.createVoucher) return false;
  return isOn(channel === 'oxxo' ? settings.oxxo_enabled : settings.spei_enabled);
}

/** GET /checkout/options: which of Mexico's ways to pay the checkout offers, and from what amount meses sin intereses. */
export async function checkoutOptions(db: Db, config: Config) {
  const settings = await loadStudioSettings(db);
  const min = Number(settings.installments_min_amount);
  return {
    oxxo: channelOffered(config, settings, 'oxxo'),
    spei: channelOffered(config, settings, 'spei'),
    installments_min_amount: installmentsAllowed(Number.MAX_SAFE_INTEGER, settings.installments_min_amount) ? min.toFixed(2) : null,
  };
}

/** What the purchase keeps of the provider's instructions. */
export function storedInstructions(i: VoucherInstructions): PaymentInstructions {
  return {
    channel: i.channel,
    reference: i.reference,
    expires_at: i.expires_at,
    hosted_url: i.hosted_url,
    clabe: i.clabe,
    bank_name: i.bank_name,
    amount_cents: i.amount_cents,
    received_cents: i.received_cents,
    remaining_cents: i.remaining_cents,
    overpaid_cents: 0,
  };
}

/** Queues the voucher or transfer details (e-mail and WhatsApp) in the caller's transaction, once per purchase. */
export async function queueInstructions(
  tx: Tx,
  messages: MessageContext,
  p: { purchase_id: number; customer_id: number; title: string },
  i: PaymentInstructions,
  renewal: { dueAt: Date; key: string } | null,
): Promise<void> {
  const [who] = await tx.select({ name: customer.name }).from(customer).where(eq(customer.customer_id, p.customer_id));
  const tz = studioTimeZone(await loadStudioSettings(tx));
  await queueCustomerMessage(tx, messages, {
    customerId: p.customer_id,
    dedupeKey: renewal ? `renewal-instructions:${renewal.key}` : `payment-instructions:purchase-${p.purchase_id}`,
    parts: paymentInstructions({
      name: who?.name?.trim() || null,
      purchaseId: p.purchase_id,
      title: p.title,
      channel: i.channel,
      amountCents: i.amount_cents,
      reference: i.reference,
      expiresAt: i.expires_at ?? null,
      clabe: i.clabe ?? null,
      bankName: i.bank_name ?? null,
      hostedUrl: i.hosted_url ?? null,
      orderUrl: `${messages.publicUrl}/gracias/${p.purchase_id}`,
      renewalDue: renewal?.dueAt ?? null,
      tz,
    }),
  });
}

/**
 * POST /checkout/voucher {class_package_id, discountCode, channel} (decision
 * 080): a pending purchase paid by an OXXO voucher or a SPEI transfer to the
 * customer's own CLABE. The purchase is prepared with every cap (its place
 * held: a voucher until it expires, a transfer for `cash_hold_hours`), then
 * Stripe makes the voucher or the transfer details, which are stored on the
 * purchase with the voucher's expiry as its hold and sent to the customer by
 * e-mail and WhatsApp in the same transaction. Stripe's webhook pays it later
 * through markPurchasePaid, every cap checked again. A free trial is not
 * offered: its first charge needs a card kept for it (decision 029).
 */
export async function checkoutVoucher(deps: CheckoutDeps, input: { class_package_id: number; discountCode?: string | undefined; channel: Channel }) {
  const settings = await loadStudioSettings(deps.db);
  if (isOn(settings.checkout_disabled)) throw new DomainError('checkout/disabled');
  const pkg = await getSellablePackage(deps.db, input.class_package_id);
  if (isFreePackage(pkg) || !channelOffered(deps.config, settings, input.channel)) throw new DomainError('checkout/method-unavailable');
  if (!cashAllowedFor(pkg)) throw new DomainError('checkout/method-unavailable', mxTexts.checkout.trialNoVoucher);
  const messages = messageContextOf(deps.config);
  const prepared = await preparePurchase(deps.db, {
    customerId: deps.customerId,
    pkg,
    discountCode: input.discountCode,
    provider: 'stripe',
    paymentMethodId: null,
    paymentChannel: input.channel,
    settings,
    payNow: 'when-nothing-to-charge',
    messages,
  });
  const purchaseId = prepared.purchase.purchase_id;
  if (prepared.chargeCents === 0 && !pkg.is_subscription) return { purchase_id: purchaseId };
  const fail = async (err: unknown): Promise<never> => {
    await deps.db.transaction((tx) => markPurchaseFailed(tx, purchaseId));
    if (err instanceof DomainError && err.code === 'payment/provider-error') deps.log?.error({ err: (err as { cause?: unknown }).cause ?? err, purchaseId }, 'payment provider failed');
    throw err;
  };
  if (input.channel === 'oxxo' && (prepared.chargeCents < oxxoLimitsCents.min || prepared.chargeCents > oxxoLimitsCents.max)) {
    return fail(new DomainError('checkout/oxxo-amount'));
  }
  const { card } = paymentProviders(deps.config);
  const [owner] = await deps.db.select().from(customer).where(eq(customer.customer_id, deps.customerId));
  if (!owner || !card.createVoucher) return fail(new DomainError('customer/not-found'));
  let voucher;
  try {
    voucher = await card.createVoucher({
      purchaseId,
      amountCents: prepared.chargeCents,
      description: `${pkg.title} (orden ${purchaseId})`,
      customer: { customer_id: owner.customer_id, email: owner.email, name: owner.name, last_name: owner.last_name, stripe_customer_id: owner.stripe_customer_id },
      channel: input.channel,
      expiresAfterDays: Number(settings.oxxo_expires_days) || 3,
      metadata: { purchase_id: String(purchaseId) },
      idempotencyKey: `purchase-${purchaseId}-${input.channel}`,
    });
  } catch (err) {
    return fail(err);
  }
  const instructions = storedInstructions(voucher.instructions);
  await deps.db.transaction(async (tx) => {
    if (!owner.stripe_customer_id) {
      await tx.update(customer).set({ stripe_customer_id: voucher.providerCustomerId }).where(and(eq(customer.customer_id, owner.customer_id), isNull(customer.stripe_customer_id)));
    }
    const [held] = await tx
      .update(purchase)
      .set({
        provider_payment_id: voucher.paymentId,
        payment_instructions: instructions,
        // The voucher's expiry is the hold (never shorter): the customer may pay until then.
        ...(instructions.expires_at ? { hold_until: new Date(instructions.expires_at) } : {}),
      })
      .where(and(eq(purchase.purchase_id, purchaseId), eq(purchase.status, 'pending')))
      .returning();
    if (held) await queueInstructions(tx, messages, held, instructions, null);
  });
  return { purchase_id: purchaseId };
}
