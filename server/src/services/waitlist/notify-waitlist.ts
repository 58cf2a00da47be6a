import { formatDateTime, studioTimeZone, texts } from '@estudio/core';
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { waitlist } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/**
 * A place freed up in a class: every customer on its waitlist gets a WhatsApp
 * message at once (one outbox row each, to the customer's phone) and their
 * entry is marked notified. There is no hold: the first to book gets the
 * place. Call it inside the transaction that frees the place, so the messages
 * exist only if the cancellation commits. Classes that started, ended or were
 * cancelled notify no one. Returns the number of messages queued.
 */
export async function notifyWaitlist(tx: Db, singleClassId: number, now: Date = new Date()): Promise<number> {
  const [c] = await tx
    .select({ class_date: single_class.class_date, cancelledAt: single_class.cancelledAt, name: class_type.name })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(single_class.single_class_id, singleClassId));
  if (!c || c.cancelledAt || c.class_date <= now) return 0;

  const waiting = await tx
    .select({ waitlist_id: waitlist.waitlist_id, phone: customer.phone })
    .from(waitlist)
    .innerJoin(customer, eq(customer.customer_id, waitlist.customer_id))
    .where(and(eq(waitlist.single_class_id, singleClassId), isNull(customer.deletedAt), isNotNull(customer.phone)))
    .orderBy(waitlist.createdAt, waitlist.waitlist_id);
  if (waiting.length === 0) return 0;

  const settings = await loadStudioSettings(tx);
  const body = texts.booking.waitlistSpotFreed(c.name, formatDateTime(c.class_date, studioTimeZone(settings)));
  await tx.insert(outbox_message).values(waiting.map((w) => ({ channel: 'whatsapp' as const, recipient: w.phone as string, body })));
  await tx
    .update(waitlist)
    .set({ notifiedAt: now })
    .where(inArray(waitlist.waitlist_id, waiting.map((w) => w.waitlist_id)));
  return waiting.length;
}
