import { formatDateTime, studioTimeZone } from '@estudio/core';
import { holdExpired } from '@estudio/core/messages/templates/bookings';
import { and, asc, eq } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { lapsedHold, holdTimes } from '../checkout/purchase-caps.ts';
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
      .select({ id: purchase.purchase_id, customer_id: purchase.customer_id, class_package_id: purchase.class_package_id, discount_id: purchase.discount_id })
      .from(purchase)
      .where(lapsedHold(now, holds))
      .orderBy(asc(purchase.purchase_id))
      .limit(500);
    const tz = studioTimeZone(settings);
    let expired = 0;
    for (const candidate of lapsed) {
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
    }
    return expired;
  },
};
