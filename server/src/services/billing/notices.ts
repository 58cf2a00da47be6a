import { studioTimeZone } from '@estudio/core';
import { paymentFailed, subscriptionCancelled } from '@estudio/core/messages/templates/billing';
import { eq } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import type { purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

type PurchaseRow = typeof purchase.$inferSelect;

const firstName = async (db: Db, customerId: number) =>
  (await db.select({ name: customer.name }).from(customer).where(eq(customer.customer_id, customerId)))[0]?.name || null;

/**
 * 'payment-failed': a renewal was declined (sandbox retry or Stripe's
 * invoice.payment_failed), with what failed, when it is tried again and the
 * link to Métodos de Pago. One per attempt (dedupeKey names it).
 */
export async function queuePaymentFailed(
  db: Db,
  ctx: MessageContext,
  p: PurchaseRow,
  attempt: { total: string; declineCode: string | null; cardDigits: string | null; nextAttempt: Date | null; dedupeKey: string },
): Promise<number> {
  const settings = await loadStudioSettings(db);
  return queueCustomerMessage(db, ctx, {
    customerId: p.customer_id,
    parts: paymentFailed({
      name: await firstName(db, p.customer_id),
      purchaseId: p.purchase_id,
      title: p.title,
      total: attempt.total,
      declineCode: attempt.declineCode,
      cardDigits: attempt.cardDigits,
      nextAttempt: attempt.nextAttempt,
      methodsUrl: `${ctx.publicUrl}/mystudio/metodos`,
      tz: studioTimeZone(settings),
    }),
    dedupeKey: attempt.dedupeKey,
  });
}

/** 'subscription-cancelled': once per purchase, whoever ended it (the last retry here, or Stripe). */
export async function queueSubscriptionCancelled(db: Db, ctx: MessageContext, p: PurchaseRow, reason: 'payment' | 'provider'): Promise<number> {
  return queueCustomerMessage(db, ctx, {
    customerId: p.customer_id,
    parts: subscriptionCancelled({
      name: await firstName(db, p.customer_id),
      purchaseId: p.purchase_id,
      title: p.title,
      reason,
      packagesUrl: `${ctx.publicUrl}/paquetes`,
    }),
    dedupeKey: `subscription-cancelled:${p.purchase_id}`,
  });
}
