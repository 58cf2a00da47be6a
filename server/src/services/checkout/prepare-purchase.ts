import {
  bankTransferReference,
  chargePlan,
  DomainError,
  formatClabe,
  formatDateTime,
  studioTimeZone,
  effectivePriceCents,
  fromCents,
  isTrialPackage,
  type AppConfigMap,
  type ClassPackageOutput,
} from '@estudio/core';
import { and, count, eq, inArray, isNull, ne } from 'drizzle-orm';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { findApplicableDiscount, releaseDiscountUse, type DiscountRow } from '../discounts/validate-discount.ts';
import { purchasePending } from '@estudio/core/messages/templates/billing';
import { customer } from '@estudio/db/schema/customer';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { markPurchasePaid, type PurchaseRow } from './grant-purchase.ts';
import { claimPurchaseCaps, holdTimes, recordDiscountUse } from './purchase-caps.ts';

export interface PrepareInput {
  customerId: number;
  pkg: ClassPackageOutput;
  discountCode?: string | undefined;
  provider: 'sandbox' | 'stripe' | 'paypal' | 'cash' | 'free';
  paymentMethodId: number | null;
  paymentSourceId?: number | null | undefined;
  /** Paid with an OXXO voucher or a SPEI transfer through Stripe (decision 080). */
  paymentChannel?: 'oxxo' | 'spei' | null;
  settings: AppConfigMap;
  /** Pay it in the same transaction (free packages; cash with nothing left to charge): created and paid at once, or neither. */
  payNow?: 'always' | 'when-nothing-to-charge';
  /** Where the receipt of a purchase paid here links to (the caller's server); without it none is queued. */
  messages?: MessageContext;
  now?: Date;
}

export interface Prepared {
  purchase: PurchaseRow;
  discount: DiscountRow | null;
  /** The first charge, in centavos (0 during a free trial). */
  chargeCents: number;
  /** The recurring price before discount, in centavos. */
  priceCents: number;
}

/**
 * Creates the pending purchase of a checkout in one transaction, with the
 * server's price and every cap:
 * - the customer row is locked first (as bookings do), so one customer's
 *   checkouts run one at a time (per-customer limit, per-customer discount
 *   uses); the customer's own earlier unfinished card attempts of the same
 *   package are failed first, so retrying after closing the card form is not
 *   refused by the limits;
 * - the enrolment fee (app_config signup_fee) must be paid first, except for
 *   the fee itself and trials: 412 naming the fee package;
 * - every cap (people and per-customer limits, the discount's uses) is
 *   claimed under the package's and the discount's locks by claimPurchaseCaps,
 *   the same rule that checks them again when the purchase is paid;
 * - `payNow` pays it in this same transaction (free packages).
 * The price is the package's (sale price when set) minus the discount; a
 * subscription with a free trial charges 0 now.
 */
export async function preparePurchase(db: Db, input: PrepareInput): Promise<Prepared> {
  const now = input.now ?? new Date();
  const { pkg } = input;
  return db.transaction(async (tx) => {
    await lockCustomer(tx, input.customerId);
    await checkSignupFee(tx, input.settings, input.customerId, pkg);

    const stale = await tx
      .update(purchase)
      .set({ status: 'failed', updatedAt: now })
      .where(
        and(
          eq(purchase.customer_id, input.customerId),
          eq(purchase.class_package_id, pkg.class_package_id),
          eq(purchase.status, 'pending'),
          ne(purchase.provider, 'cash'),
          // A voucher or a transfer can still be paid after the customer left the checkout: it keeps its place (decision 080).
          isNull(purchase.payment_channel),
        ),
      )
      .returning({ id: purchase.purchase_id });
    for (const s of stale) await releaseDiscountUse(tx, s.id);

    const discount = input.discountCode
      ? await findApplicableDiscount(tx, { code: input.discountCode, pkg, customerId: input.customerId, now, checkUses: false })
      : null;
    const subject = { purchase_id: null, customer_id: input.customerId, class_package_id: pkg.class_package_id, discount_id: discount?.discount_id ?? null };
    await claimPurchaseCaps(tx, subject, now, holdTimes(input.settings));
    const priceCents = effectivePriceCents(pkg);
    // The rule the checkout and the order page show: a free trial charges 0 today.
    const chargeCents = chargePlan(pkg, { startedAt: now, discount }).todayCents;

    const [row] = await tx
      .insert(purchase)
      .values({
        customer_id: input.customerId,
        class_package_id: pkg.class_package_id,
        payment_method_id: input.paymentMethodId,
        payment_source_id: input.paymentSourceId ?? null,
        discount_id: discount?.discount_id ?? null,
        title: pkg.title,
        amount: pkg.price,
        total_payment: fromCents(chargeCents),
        class_amount: pkg.class_amount,
        expiration_days: pkg.expiration_days,
        status: 'pending',
        subscription_interval: pkg.is_subscription ? pkg.subscription_interval : null,
        subscription_period: pkg.is_subscription ? pkg.subscription_period : null,
        free_trial_length: pkg.is_subscription ? pkg.free_trial_length : null,
        free_trial_period: pkg.is_subscription ? pkg.free_trial_period : null,
        provider: input.provider,
        payment_channel: input.paymentChannel ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new DomainError('internal');
    if (discount) await recordDiscountUse(tx, discount.discount_id, input.customerId, row.purchase_id);
    const nothingToCharge = chargeCents === 0 && !pkg.is_subscription;
    if (input.payNow === 'always' || (input.payNow === 'when-nothing-to-charge' && nothingToCharge)) await markPurchasePaid(tx, row.purchase_id, { now, messages: input.messages ?? null });
    else if (input.provider === 'cash' && input.messages) await queuePendingOrder(tx, input.messages, row, input.settings, now);
    return { purchase: row, discount, chargeCents, priceCents };
  });
}

async function checkSignupFee(tx: Tx, settings: AppConfigMap, customerId: number, pkg: ClassPackageOutput): Promise<void> {
  const feeId = Number(settings.signup_fee);
  if (!Number.isInteger(feeId) || feeId <= 0 || feeId === pkg.class_package_id || isTrialPackage(pkg)) return;
  const [fee] = await tx.select({ title: class_package.title }).from(class_package).where(eq(class_package.class_package_id, feeId));
  if (!fee) return;
  const [paid] = await tx
    .select({ n: count() })
    .from(purchase)
    .where(and(eq(purchase.customer_id, customerId), eq(purchase.class_package_id, feeId), inArray(purchase.status, ['active', 'completed'])));
  if ((paid?.n ?? 0) > 0) return;
  throw new DomainError('package/signup-fee-required', `Antes de comprar este paquete debes pagar «${fee.title}». Completa tu inscripción e inténtalo de nuevo.`);
}

/**
 * A cash or transfer order set aside: how to pay it (the studio's
 * CLABE and the order as the reference, or at the desk) and until when the
 * hold lasts (cash_hold_hours, the expire-holds job's own limit).
 */
async function queuePendingOrder(tx: Db, ctx: MessageContext, row: PurchaseRow, settings: AppConfigMap, now: Date): Promise<void> {
  const [who] = await tx.select({ name: customer.name }).from(customer).where(eq(customer.customer_id, row.customer_id));
  const clabe = settings.bank_clabe.trim();
  await queueCustomerMessage(tx, ctx, {
    customerId: row.customer_id,
    dedupeKey: `purchase-pending:${row.purchase_id}`,
    parts: purchasePending({
      name: who?.name.trim() || null,
      purchaseId: row.purchase_id,
      title: row.title,
      total: row.total_payment,
      bank: clabe ? { name: settings.bank_name.trim(), clabe: formatClabe(clabe), beneficiary: settings.bank_beneficiary.trim() } : null,
      reference: bankTransferReference(row.purchase_id),
      payBy: formatDateTime(new Date(now.getTime() + holdTimes(settings).cashHoldMs), studioTimeZone(settings)),
      orderUrl: `${ctx.publicUrl}/gracias/${row.purchase_id}`,
    }),
  });
}
