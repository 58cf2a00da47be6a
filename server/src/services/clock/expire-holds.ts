import { formatDateTime, studioTimeZone } from '@estudio/core';
import { holdExpired } from '@estudio/core/messages/templates/bookings';
import { voucherExpired } from '@estudio/core/messages/templates/mexico';
import { and, asc, eq } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { paymentProviders } from '../../providers/payments/index.ts';
import { markPurchasePaid } from '../checkout/grant-purchase.ts';
import { isRefusedAtPayment, lapsedHold, holdTimes } from '../checkout/purchase-caps.ts';
import { releaseDiscountUse } from '../discounts/validate-discount.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { ClockJob } from './job.ts';

export const expireHoldsName = 'expire-holds';

/**
 * A cash hold that lapsed longer ago than this is failed without a message:
 * a studio turning the clock on does not tell customers about holds of last
 * month, and a clock that was off for a day still tells yesterday's.
 */
export const holdNoticeWindowMs = 2 * 86_400_000;

/** How long an expired voucher Stripe has not closed yet keeps its place before it is asked about again. */
export const voucherRecheckMs = 60 * 60_000;

/**
 * Pending purchases whose hold lapsed (decision 015's rule, lapsedHold:
 * cash_hold_hours for cash, card_hold_minutes for card and PayPal attempts)
 * become 'failed' — what a declined or superseded attempt becomes: Mis
 * Compras no longer lists it, staff still do, the reports count it unpaid —
 * and their discount use is given back (releaseDiscountUse: the use row and
 * the counter together, so a use already given back by a code check is not
 * given back twice). Staff can still collect a lapsed cash purchase while the
 * caps have room (015). The customer of a cash hold is told, with a link to
 * buy again. Each purchase in its own transaction, with the locks a payment
 * takes in its order (decision 006): the customer's row, the package's, the
 * discount's (markPurchasePaid, claimPurchaseCaps). A payment in flight
 * finishes first and the conditional update then finds nothing.
 */
export const expireHoldsJob: ClockJob = {
  name: expireHoldsName,
  schedule: { everyMs: 60_000 },
  async run(ctx, now) {
    const settings = await loadStudioSettings(ctx.db);
    const holds = holdTimes(settings);
    const lapsed = await ctx.db
      .select({
        id: purchase.purchase_id,
        customer_id: purchase.customer_id,
        class_package_id: purchase.class_package_id,
        discount_id: purchase.discount_id,
        channel: purchase.payment_channel,
        paymentId: purchase.provider_payment_id,
      })
      .from(purchase)
      .where(lapsedHold(now, holds))
      .orderBy(asc(purchase.purchase_id))
      .limit(500);
    const tz = studioTimeZone(settings);
    let expired = 0;
    const { card } = paymentProviders(ctx.config);
    for (const candidate of lapsed) {
      // A voucher's hold ends when Stripe says so (decision 080): paid with no webhook yet, it is paid now; still open at
      // Stripe (OXXO reports payments up to a business day late), the hold goes on; otherwise it lapses like any other.
      if (candidate.channel === 'oxxo' && candidate.paymentId && card.paymentState) {
        const state = await card.paymentState(candidate.paymentId).catch((err: unknown) => {
          ctx.log.warn({ err, purchaseId: candidate.id }, 'could not read an expired voucher at Stripe; its hold goes on');
          return null;
        });
        if (!state || state.status === 'requires_action' || state.status === 'processing') {
          await ctx.db.update(purchase).set({ hold_until: new Date(now.getTime() + voucherRecheckMs) }).where(and(eq(purchase.purchase_id, candidate.id), eq(purchase.status, 'pending')));
          continue;
        }
        if (state.status === 'succeeded') {
          try {
            await ctx.db.transaction((tx) => markPurchasePaid(tx, candidate.id, { providerPaymentId: candidate.paymentId, now, messages: ctx.messages }));
            continue;
          } catch (err) {
            if (!isRefusedAtPayment(err)) throw err;
            // Its place went to someone else meanwhile: OXXO cannot refund, so the studio gives the money back by hand.
            ctx.log.error({ purchaseId: candidate.id }, 'an OXXO voucher was paid after its place was taken: refund it by hand');
          }
        }
      }
      const done = await ctx.db.transaction(async (tx) => {
        const [who] = await tx.select().from(customer).where(eq(customer.customer_id, candidate.customer_id)).for('update');
        // Then the package's and the discount's rows, as a payment's caps take them (claimPurchaseCaps), before any
        // discount_use row: a payment of another customer gives lapsed uses of this code back under the discount's
        // lock, and taking them in another order deadlocks (seen in clock-holds-race.postgres.test.ts).
        await tx.select({ id: class_package.class_package_id }).from(class_package).where(eq(class_package.class_package_id, candidate.class_package_id)).for('update');
        if (candidate.discount_id !== null) {
          await tx.select({ id: discount.discount_id }).from(discount).where(eq(discount.discount_id, candidate.discount_id)).for('update');
        }
        const [failed] = await tx
          .update(purchase)
          .set({ status: 'failed', updatedAt: now })
          .where(and(eq(purchase.purchase_id, candidate.id), lapsedHold(now, holds)))
          .returning();
        if (!failed) return false;
        await releaseDiscountUse(tx, failed.purchase_id);
        if (failed.payment_channel) {
          if (who && !who.deletedAt) {
            await queueCustomerMessage(tx, ctx.messages, {
              customerId: failed.customer_id,
              dedupeKey: `voucher-expired:${failed.purchase_id}`,
              parts: voucherExpired({
                name: who.name?.trim() || null,
                purchaseId: failed.purchase_id,
                title: failed.title,
                buyUrl: `${ctx.messages.publicUrl}/checkout/${failed.class_package_id}`,
                channel: failed.payment_channel,
                receivedCents: failed.payment_instructions?.received_cents ?? 0,
              }),
            });
          }
          return true;
        }
        const lapsedAt = failed.createdAt.getTime() + holds.cashHoldMs;
        if (failed.provider === 'cash' && who && !who.deletedAt && now.getTime() - lapsedAt <= holdNoticeWindowMs) {
          await queueCustomerMessage(tx, ctx.messages, {
            customerId: failed.customer_id,
            dedupeKey: `hold-expired:${failed.purchase_id}`,
            parts: holdExpired({
              name: who.name?.trim() || null,
              packageTitle: failed.title,
              madeAt: formatDateTime(failed.createdAt, tz),
              buyUrl: `${ctx.messages.publicUrl}/checkout/${failed.class_package_id}`,
            }),
          });
        }
        return true;
      });
      if (done) expired += 1;
      // A transfer nobody finished is closed at Stripe, so a late transfer is not matched to it (it stays in the balance).
      if (done && candidate.channel === 'spei' && candidate.paymentId && card.cancelPayment) {
        await card.cancelPayment(candidate.paymentId).catch((err: unknown) => ctx.log.warn({ err, purchaseId: candidate.id }, 'could not cancel a lapsed transfer at Stripe'));
      }
    }
    return expired;
  },
};
