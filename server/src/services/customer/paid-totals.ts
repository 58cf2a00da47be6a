import { and, inArray, sql } from 'drizzle-orm';
import { purchase } from '@estudio/db/schema/purchases';
import { fromCents, toCents } from '@estudio/core';
import type { Db } from '../../db.ts';

/**
 * What each customer has paid the studio in all (their active and completed
 * purchases, as the customer's card totals it), in one statement: '0.00'
 * for a customer with none.
 */
export async function paidTotalsOf(db: Db, customerIds: readonly number[]): Promise<Map<number, string>> {
  const totals = new Map(customerIds.map((id) => [id, '0.00']));
  if (customerIds.length === 0) return totals;
  const rows = await db
    .select({ customer_id: purchase.customer_id, sum: sql<string | null>`sum(${purchase.total_payment})` })
    .from(purchase)
    .where(and(inArray(purchase.customer_id, [...customerIds]), inArray(purchase.status, ['active', 'completed'])))
    .groupBy(purchase.customer_id);
  for (const row of rows) totals.set(row.customer_id, fromCents(toCents(row.sum ?? '0')));
  return totals;
}
