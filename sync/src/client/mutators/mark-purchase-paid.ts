import { DomainError, studioTimeZone } from '@estudio/core';
import { purchase } from '@estudio/db';
import { eq } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { accessEnd, grantPurchaseCredit } from './replica-rows.ts';

/** The server's markPurchasePaid (`server/src/services/desk/mark-purchase-paid.ts`) on the replica. */
export const markPurchasePaid: Mutator<'markPurchasePaid'> = async (ctx, args) => {
  const { tx, now } = ctx;
  const [p] = await tx.select().from(purchase).where(eq(purchase.purchase_id, args.purchase_id));
  if (!p) throw new DomainError('purchase/not-found');
  if (p.provider !== 'cash' || p.status !== 'pending') throw new DomainError('purchase/not-pending');
  const until = accessEnd(p, now, studioTimeZone(ctx.settings));
  await tx
    .update(purchase)
    .set({ status: p.subscription_period ? 'active' : 'completed', expiration_date: until, paidAt: now, paid_with: args.paid_with, updatedAt: now })
    .where(eq(purchase.purchase_id, p.purchase_id));
  return ['purchase', ...(await grantPurchaseCredit(ctx, p, until))];
};
