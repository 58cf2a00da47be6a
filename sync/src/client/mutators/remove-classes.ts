import { DomainError, isReasonGiven } from '@estudio/core';
import { available_classes, usableCredit } from '@estudio/db';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { liveCustomer } from './replica-rows.ts';

/** The server's removeClasses (`server/src/services/desk/remove-classes.ts`) on the replica. */
export const removeClasses: Mutator<'removeClasses'> = async ({ tx, now }, args) => {
  if (!isReasonGiven(args.reason)) throw new DomainError('access/reason-required');
  const who = await liveCustomer(tx, args.customer_id);
  // Limited, live, unexpired credits, the ones expiring first spent first (as bookings spend them).
  const credits = await tx
    .select({ id: available_classes.available_class_id, left: available_classes.available_classes })
    .from(available_classes)
    .where(
      and(
        eq(available_classes.customer_id, who.customer_id),
        usableCredit(now),
        // Limited credits only: "Restar clases" never touches an unlimited membership.
        gt(available_classes.available_classes, 0),
      ),
    )
    .orderBy(sql`${available_classes.expiration_date} asc nulls last`, asc(available_classes.available_class_id));
  const total = credits.reduce((sum, c) => sum + c.left, 0);
  if (total < args.amount) throw new DomainError('access/not-enough-classes');
  let remaining = args.amount;
  for (const credit of credits) {
    if (remaining === 0) break;
    const take = Math.min(credit.left, remaining);
    remaining -= take;
    await tx
      .update(available_classes)
      .set({ available_classes: credit.left - take, updatedAt: now })
      .where(eq(available_classes.available_class_id, credit.id));
  }
  return ['available_classes'];
};
