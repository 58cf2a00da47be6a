import { formatDateTime, isOn, studioTimeZone, weekOf, type AppConfigMap } from '@estudio/core';
import { waitlistSpotFreed } from '@estudio/core/messages/templates/waitlist';
import { and, eq, exists, inArray, isNull, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { waitlist } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessages } from '../messages/queue-message.ts';
import { countPlaces } from '../reservations/booking-locks.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/**
 * Whether a freed place of a class starting at `classDate` goes to the first
 * waiting customer with a usable credit (the clock's 'waitlist-promotion' job)
 * instead of to everyone at once: the studio turned automatic promotion on and
 * the class starts later than the cut-off (decision 023).
 */
export function autoPromotionApplies(settings: Pick<AppConfigMap, 'waitlist_auto_promote' | 'waitlist_promotion_cutoff_minutes'>, classDate: Date, now: Date): boolean {
  if (!isOn(settings.waitlist_auto_promote)) return false;
  const cutoff = Math.max(0, Number(settings.waitlist_promotion_cutoff_minutes) || 0);
  return classDate.getTime() - now.getTime() > cutoff * 60_000;
}

/** The portal's calendar on the class's week, naming the class (`clase`) so the page can open it. */
export function classBookingUrl(ctx: MessageContext, singleClassId: number, classDate: Date, tz: string): string {
  return `${ctx.publicUrl}/calendario?semana=${weekOf(classDate, tz).start_date}&clase=${singleClassId}`;
}

export interface FreedClass {
  single_class_id: number;
  class_date: Date;
  name: string;
}

/**
 * Tells the class's waiting customers that a place is free (the spec's
 * notify-all): claims their entries by setting notified_at — only entries
 * not yet told of this freeing, so two runs never message one person twice —
 * and queues one 'waitlist-spot-freed' message each, in the caller's
 * transaction. `since` is the freeing: entries told (or created) at or after
 * it are not claimed. The dedupe key carries the transaction id, so two places
 * freed in one transaction send one message.
 */
export async function tellWaitlist(tx: Db, ctx: MessageContext, c: FreedClass, since: Date, now: Date): Promise<number> {
  const claimed = await tx
    .update(waitlist)
    .set({ notifiedAt: now })
    .where(
      and(
        eq(waitlist.single_class_id, c.single_class_id),
        sql`coalesce(${waitlist.notifiedAt}, ${waitlist.createdAt}) < ${since.toISOString()}::timestamptz`,
        exists(tx.select({ one: sql`1` }).from(customer).where(and(eq(customer.customer_id, waitlist.customer_id), isNull(customer.deletedAt)))),
      ),
    )
    .returning({
      waitlist_id: waitlist.waitlist_id,
      customer_id: waitlist.customer_id,
      createdAt: waitlist.createdAt,
      xact: sql<string>`txid_current()::text`,
    });
  if (claimed.length === 0) return 0;
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.waitlist_id - b.waitlist_id);

  const settings = await loadStudioSettings(tx);
  const tz = studioTimeZone(settings);
  const when = formatDateTime(c.class_date, tz);
  const bookUrl = classBookingUrl(ctx, c.single_class_id, c.class_date, tz);
  const names = new Map(
    (
      await tx
        .select({ id: customer.customer_id, name: customer.name })
        .from(customer)
        .where(inArray(customer.customer_id, claimed.map((w) => w.customer_id)))
    ).map((p) => [p.id, p.name]),
  );
  return queueCustomerMessages(
    tx,
    ctx,
    claimed.map((w) => ({
      customerId: w.customer_id,
      parts: waitlistSpotFreed({ name: names.get(w.customer_id) ?? '', className: c.name, when, bookUrl }),
      dedupeKey: `waitlist-spot-freed:${w.waitlist_id}:${w.xact}`,
    })),
  );
}

/**
 * A place freed up in a class (a cancellation, a move): call it inside the
 * transaction that frees the place, so the messages exist only if it commits.
 * With automatic promotion applying, nobody is messaged here: the clock's
 * 'waitlist-promotion' job books the first waiting customer with a usable
 * credit and tells the rest if the place stays free. Otherwise every waiting
 * customer is messaged at once and the first to book gets the place. Without
 * a message context (a caller that has none) nothing is queued here and the
 * same clock job tells the waiting customers on its next run. Classes that
 * started or were cancelled, or have no free place, notify no one.
 * Returns the number of messages queued.
 */
export async function notifyWaitlist(tx: Tx, singleClassId: number, now: Date = new Date(), messages?: MessageContext | null): Promise<number> {
  const [c] = await tx
    .select({
      single_class_id: single_class.single_class_id,
      class_date: single_class.class_date,
      cancelledAt: single_class.cancelledAt,
      capacity: single_class.capacity,
      name: class_type.name,
    })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(single_class.single_class_id, singleClassId));
  if (!c || c.cancelledAt || c.class_date <= now || !messages) return 0;
  if (autoPromotionApplies(await loadStudioSettings(tx), c.class_date, now)) return 0;
  if ((await countPlaces(tx, singleClassId)) >= c.capacity) return 0;
  // Everyone waiting at this moment (told before, or created up to now).
  return tellWaitlist(tx, messages, c, new Date(now.getTime() + 1), now);
}
