import { purchaseStatusGroups, studioDayRange, studioTimeZone, type adminPurchasesInput, type adminPurchasesOutput, type z } from '@estudio/core';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { countPurchasesInRange, purchasesInRange } from './purchases-in-range.ts';

const perPage = 30;

/**
 * The admins' list of every customer's purchases made in a range of studio
 * dates, newest first, 30 a page (the previous panel's /myadmin/orders,
 * decision 033): the same rows as the purchases export, revoked, cancelled
 * and refunded ones included; a group of statuses and a customer's name,
 * e-mail or phone narrow it.
 */
export async function listAdminPurchases(db: Db, input: z.infer<typeof adminPurchasesInput>): Promise<z.infer<typeof adminPurchasesOutput>> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const range = { ...studioDayRange(input.start_date, input.end_date, tz), statuses: input.status ? purchaseStatusGroups[input.status] : undefined, query: input.query };
  const [rows, total] = await Promise.all([purchasesInRange(db, range, { tz, newestFirst: true, limit: perPage, offset: (input.page - 1) * perPage }), countPurchasesInRange(db, range)]);
  return {
    purchases: rows.map((r) => ({
      purchase_id: r.id,
      createdAt: r.created_at.toISOString(),
      customer_id: r.customer_id,
      customer_name: r.who,
      customer_first_name: r.name,
      customer_last_name: r.last_name,
      email: r.email,
      class_package_id: r.class_package_id,
      title: r.title,
      amount: r.amount,
      total_payment: r.paid,
      payment_kind: r.method,
      status: r.refund !== null ? 'refunded' : r.status,
      discount_code: r.code,
      refund: r.refund,
      refunded_at: r.refunded_at_instant ? r.refunded_at_instant.toISOString() : null,
      cancel_reason: r.reason,
    })),
    page: input.page,
    pages: Math.max(1, Math.ceil(total / perPage)),
    total,
  };
}
