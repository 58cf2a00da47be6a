import { addPeriod, studioTimeZone } from '@estudio/core';
import { creditsExpiring } from '@estudio/core/messages/templates/billing';
import { and, asc, eq, gt, isNull, lte, ne, or } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessages, type CustomerMessage } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/** credits_expiring_notice_days: 0 (or unreadable as a day count) turns the notice off. */
export function noticeDays(value: string | undefined): number {
  const n = Number(value ?? '7');
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/**
 * 'credits-expiring' (optional): one notice per credit row and expiry date
 * for classes still unused (or an unlimited pass) that expire within the
 * studio's credits_expiring_notice_days. Credits of a subscription that is
 * still active are left out: they renew by themselves. The dedupeKey names
 * the row and its expiry, so a daily run sends each once, and a row whose
 * expiry an admin moves gets a notice for the new date. Returns how many
 * messages were queued.
 */
export async function noticeExpiringCredits(deps: { db: Db; messages: MessageContext }, now: Date): Promise<number> {
  const settings = await loadStudioSettings(deps.db);
  const days = noticeDays(settings.credits_expiring_notice_days);
  if (days === 0) return 0;
  const tz = studioTimeZone(settings);
  const until = addPeriod(now, days, 'day');
  const rows = await deps.db
    .select({
      id: available_classes.available_class_id,
      customerId: available_classes.customer_id,
      classes: available_classes.available_classes,
      expiresAt: available_classes.expiration_date,
      title: purchase.title,
      classType: class_type.name,
      name: customer.name,
    })
    .from(available_classes)
    .innerJoin(customer, eq(customer.customer_id, available_classes.customer_id))
    .leftJoin(purchase, eq(purchase.purchase_id, available_classes.purchase_id))
    .leftJoin(class_type, eq(class_type.class_type_id, available_classes.class_type_id))
    .where(
      and(
        isNull(available_classes.deletedAt),
        isNull(customer.deletedAt),
        ne(available_classes.available_classes, 0),
        gt(available_classes.expiration_date, now),
        lte(available_classes.expiration_date, until),
        // A subscription still active renews its credits: no notice for those.
        or(isNull(purchase.purchase_id), isNull(purchase.subscription_period), ne(purchase.status, 'active')),
      ),
    )
    .orderBy(asc(available_classes.expiration_date), asc(available_classes.available_class_id));
  const notices: CustomerMessage[] = [];
  for (const r of rows) {
    if (!r.expiresAt) continue;
    notices.push({
      customerId: r.customerId,
      parts: creditsExpiring({
        name: r.name || null,
        classes: r.classes,
        title: r.title,
        classType: r.classType,
        expiresAt: r.expiresAt,
        bookUrl: `${deps.messages.publicUrl}/calendario`,
        tz,
      }),
      dedupeKey: `credits-expiring:${r.id}:${r.expiresAt.toISOString()}`,
    });
  }
  return queueCustomerMessages(deps.db, deps.messages, notices);
}
