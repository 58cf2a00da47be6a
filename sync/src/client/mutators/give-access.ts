import { addPeriod, deskAccessDays, DomainError, effectivePriceCents, fromCents, isReasonGiven } from '@estudio/core';
import { class_package, payment_method } from '@estudio/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { grantPurchaseCredit, insertRow, liveCustomer } from './replica-rows.ts';

/** The server's giveAccess (`server/src/services/desk/give-access.ts`) on the replica. */
export const giveAccess: Mutator<'giveAccess'> = async (ctx, args) => {
  const { tx, now, tempId } = ctx;
  // The reason is judged here as on the server (decision 037); the gift's price limit is the server's, at replay.
  if (args.is_gift && !isReasonGiven(args.reason)) throw new DomainError('access/reason-required');
  const who = await liveCustomer(tx, args.customer_id);
  const [pkg] = await tx
    .select()
    .from(class_package)
    .where(and(eq(class_package.class_package_id, args.class_package_id), isNull(class_package.deletedAt)));
  if (!pkg) throw new DomainError('package/not-found');
  if (args.payment_method_id !== null) {
    const [method] = await tx
      .select({ id: payment_method.payment_method_id })
      .from(payment_method)
      .where(eq(payment_method.payment_method_id, args.payment_method_id));
    if (!method) throw new DomainError('payment-method/not-found');
  }
  // A subscription package given at the desk lasts one period unless days are given (nothing renews it).
  const days = deskAccessDays(pkg, args.package_days, now);
  const until = days ? addPeriod(now, days, 'day') : null;
  const p = { purchase_id: tempId, customer_id: who.customer_id, class_amount: pkg.class_amount };
  await insertRow(tx, 'purchase', {
    purchase_id: tempId,
    customer_id: who.customer_id,
    class_package_id: pkg.class_package_id,
    payment_method_id: args.payment_method_id,
    title: pkg.title,
    amount: pkg.price,
    total_payment: args.is_gift ? '0.00' : fromCents(effectivePriceCents(pkg)),
    class_amount: pkg.class_amount,
    expiration_days: days,
    status: 'completed',
    is_gift: args.is_gift,
    provider: 'admin',
    expiration_date: until?.toISOString() ?? null,
    // Granted now: the server records the moment as paid_at, which keeps the caps' units for good.
    paid_at: now.toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  return ['purchase', ...(await grantPurchaseCredit(ctx, p, until))];
};
