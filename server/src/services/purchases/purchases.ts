import { DomainError, isTrialPackage, trialEnd, type PurchaseOutput } from '@estudio/core';
import { and, desc, eq, ne } from 'drizzle-orm';
import { class_package } from '@estudio/db/schema/packages';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { paymentProviders } from '../../providers/payments/index.ts';
import { endAccessNow } from '../checkout/grant-purchase.ts';
import { releaseDiscountUse } from '../discounts/validate-discount.ts';
import { messageContextOf } from '../messages/message-context.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { loadPurchases } from './purchase-output.ts';

export async function listOwnPurchases(db: Db, customerId: number): Promise<PurchaseOutput[]> {
  // A failed purchase is a card attempt that was declined, abandoned or superseded: nothing was charged, and a
  // 'Fallido' order in Mis Compras made customers think it was. Staff still see them.
  return loadPurchases(db, and(eq(purchase.customer_id, customerId), ne(purchase.status, 'failed'))!);
}

/** One purchase of the caller (404 for anyone else's), or any purchase for staff. */
export async function getPurchase(db: Db, id: number, viewer: { customer_id: number; role: string }): Promise<PurchaseOutput> {
  const staff = viewer.role === 'staff' || viewer.role === 'admin';
  const [row] = await loadPurchases(db, staff ? eq(purchase.purchase_id, id) : and(eq(purchase.purchase_id, id), eq(purchase.customer_id, viewer.customer_id))!);
  if (!row) throw new DomainError('purchase/not-found');
  return row;
}

/**
 * POST /purchases/cancel/{id} with a required reason. Irreversible and
 * without refund. A trial (trial package, or a subscription still in its free
 * trial) and an unpaid purchase lose access now: their credits expire now, the
 * classes they booked that have not started are cancelled with them, and
 * the subscription is cancelled at the provider immediately. Otherwise access
 * lasts until the end of the paid cycle (expiration_date stays) and the
 * provider cancels at period end. Status becomes 'cancelled' with
 * cancelledAt and the reason either way.
 *
 * `staffId`: an admin cancelled it for the customer (the previous panel,
 * decision 040); who did it, the title and the reason go to Actividad in the
 * cancellation's transaction.
 */
export async function cancelPurchase(
  deps: { db: Db; config: Config },
  input: { id: number; reason: string; customerId: number; staffId?: number },
  now: Date = new Date(),
): Promise<PurchaseOutput> {
  const reason = input.reason.trim();
  if (!reason) throw new DomainError('purchase/cancel-reason');
  const [row] = await deps.db
    .select({ p: purchase, pkg: class_package })
    .from(purchase)
    .innerJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .where(and(eq(purchase.purchase_id, input.id), eq(purchase.customer_id, input.customerId)));
  if (!row) throw new DomainError('purchase/not-found');
  const { p, pkg } = row;
  if (p.status === 'cancelled' || p.status === 'revoked' || p.status === 'failed') throw new DomainError('purchase/not-cancellable');
  const trialEnds = trialEnd({ createdAt: p.createdAt, free_trial_length: p.free_trial_length, free_trial_period: p.free_trial_period });
  const inTrial = isTrialPackage(pkg) || (trialEnds !== null && trialEnds.getTime() > now.getTime());
  const endsNow = inTrial || p.status === 'pending';

  if (p.payment_channel) {
    // A voucher or transfer nobody paid is closed at Stripe, so it cannot be paid for nothing; one that renews by voucher
    // has no subscription at Stripe (decision 083): its next voucher is simply never made.
    const { card } = paymentProviders(deps.config);
    if (p.status === 'pending' && p.provider_payment_id && card.cancelPayment) await card.cancelPayment(p.provider_payment_id);
  } else if (p.subscription_id && (p.provider === 'stripe' || p.provider === 'sandbox')) {
    await paymentProviders(deps.config).card.cancelSubscription(p.subscription_id, { now: endsNow });
  } else if (p.subscription_id && p.provider === 'paypal') {
    await paymentProviders(deps.config).paypal?.cancelSubscription(p.subscription_id, reason);
  }

  await deps.db.transaction(async (tx) => {
    await lockCustomer(tx, p.customer_id);
    const [cancelled] = await tx
      .update(purchase)
      .set({
        status: 'cancelled',
        cancel_reason: reason,
        cancelledAt: now,
        updatedAt: now,
        ...(endsNow ? { expiration_date: now } : {}),
      })
      .where(and(eq(purchase.purchase_id, p.purchase_id), eq(purchase.status, p.status)))
      .returning();
    if (!cancelled) throw new DomainError('purchase/not-cancellable');
    if (p.status === 'pending') await releaseDiscountUse(tx, p.purchase_id);
    if (endsNow) await endAccessNow(tx, cancelled, now, messageContextOf(deps.config));
    if (input.staffId !== undefined) {
      await recordAudit(tx, {
        actorId: input.staffId,
        action: 'purchase.cancel',
        entity: 'customer',
        entityId: p.customer_id,
        changes: { purchase_id: p.purchase_id, title: p.title, ends_now: endsNow, reason },
      });
    }
  });
  return getPurchase(deps.db, p.purchase_id, { customer_id: input.customerId, role: 'customer' });
}

/** The caller's charges, newest first. */
export async function listOwnInvoices(db: Db, customerId: number) {
  const rows = await db
    .select({ i: invoice, pkgId: class_package.class_package_id, pkgTitle: class_package.title })
    .from(invoice)
    .innerJoin(purchase, eq(purchase.purchase_id, invoice.purchase_id))
    .innerJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .where(eq(invoice.customer_id, customerId))
    .orderBy(desc(invoice.createdAt), desc(invoice.invoice_id));
  const purchases = new Map((await listOwnPurchases(db, customerId)).map((p) => [p.purchase_id, p]));
  return rows.map(({ i, pkgId, pkgTitle }) => {
    const p = purchases.get(i.purchase_id);
    return {
      invoice_id: i.invoice_id,
      purchase_id: i.purchase_id,
      total_payment: i.total_payment,
      status: i.status,
      period_start: i.period_start?.toISOString() ?? null,
      period_end: i.period_end?.toISOString() ?? null,
      paidAt: i.paidAt?.toISOString() ?? null,
      createdAt: i.createdAt.toISOString(),
      class_package: { class_package_id: pkgId, title: pkgTitle },
      purchase: { purchase_id: i.purchase_id, title: p?.title ?? pkgTitle, status: p?.status ?? 'completed', next_charge_date: p?.next_charge_date ?? null },
    };
  });
}
