import { DomainError, isReasonGiven } from '@estudio/core';
import { available_classes, purchase } from '@estudio/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { syncUnlimitedMembership } from './replica-rows.ts';

/** The server's revokeAccess (`server/src/services/desk/revoke-access.ts`) on the replica. */
export const revokeAccess: Mutator<'revokeAccess'> = async ({ tx, now }, args) => {
  if (!isReasonGiven(args.reason)) throw new DomainError('access/reason-required');
  const [p] = await tx.select().from(purchase).where(eq(purchase.purchase_id, args.purchase_id));
  if (!p) throw new DomainError('purchase/not-found');
  if (p.status === 'revoked') throw new DomainError('access/already-revoked');
  await tx.update(purchase).set({ status: 'revoked', updatedAt: now }).where(eq(purchase.purchase_id, p.purchase_id));
  await tx
    .update(available_classes)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(available_classes.purchase_id, p.purchase_id), isNull(available_classes.deletedAt)));
  await syncUnlimitedMembership(tx, p.customer_id, now);
  return ['purchase', 'available_classes', 'customer'];
};
