import { studioDayRange, studioTimeZone, type customersReportOutput, type ReportRangeInput, type z } from '@estudio/core';
import { and, asc, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/**
 * Customers of a range of studio dates (the previous panel's 'Inscritos',
 * decision 033): new (account created in the range), active (a paid purchase
 * made by the end of the range whose access had not ended before its start)
 * and cancelled (a purchase cancelled or revoked in the range; a revoke keeps
 * no cancel time, its last change is when it happened). Each customer once
 * per list, oldest account first.
 */
export async function customersReport(db: Db, input: ReportRangeInput): Promise<z.infer<typeof customersReportOutput>> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const { from, to } = studioDayRange(input.start_date, input.end_date, tz);
  const having = (where: SQL | undefined) =>
    db
      .select({ customer_id: customer.customer_id, name: customer.name, last_name: customer.last_name, email: customer.email, createdAt: customer.createdAt })
      .from(customer)
      .where(and(isNull(customer.deletedAt), where))
      .orderBy(asc(customer.createdAt), asc(customer.customer_id));
  const withPurchase = (where: SQL | undefined) => sql`exists (select 1 from ${purchase} where ${purchase.customer_id} = ${customer.customer_id} and ${where})`;

  const [nuevos, activos, cancelados] = await Promise.all([
    having(and(gte(customer.createdAt, from), lte(customer.createdAt, to))),
    // The purchases first, by purchase_expiration_date_idx, then their customers by key (decision 047): as an
    // exists() the planner priced a few thousand key reads above scanning every customer (decision 044).
    having(
      sql`${customer.customer_id} = any(array(select ${purchase.customer_id} from ${purchase} where ${and(
        inArray(purchase.status, ['active', 'completed']),
        lte(purchase.createdAt, to),
        or(isNull(purchase.expiration_date), gte(purchase.expiration_date, from)),
      )}))`,
    ),
    having(
      withPurchase(
        and(
          inArray(purchase.status, ['cancelled', 'revoked']),
          // Raw SQL takes no column encoder: the instants go as ISO text (postgres.js does not bind a Date there).
          sql`coalesce(${purchase.cancelledAt}, ${purchase.updatedAt}) between ${from.toISOString()}::timestamptz and ${to.toISOString()}::timestamptz`,
        ),
      ),
    ),
  ]);
  const out = (rows: typeof nuevos) => rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  return { nuevos: out(nuevos), activos: out(activos), cancelados: out(cancelados) };
}
