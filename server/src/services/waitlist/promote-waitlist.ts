import { creditBackUntil, DomainError, formatDateTime, studioTimeZone } from '@estudio/core';
import { waitlistPromoted, type WaitlistPromotion } from '@estudio/core/messages/templates/waitlist';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { reservationsUrlOf } from '../clock/booked-class.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { enterClassGate, lockCustomer } from '../reservations/booking-locks.ts';
import { createReservation } from '../reservations/create-reservation.ts';
import type { ReservationRow } from '../reservations/reservation-output.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { autoPromotionApplies, tellWaitlist, type FreedClass } from './notify-waitlist.ts';

/** Refusals after which no later customer on the list can get this class either. */
const classClosed = new Set(['booking/class-full', 'booking/class-cancelled', 'booking/class-started', 'class/not-found']);

export interface WaitlistRun {
  /** Customers booked from a waitlist. */
  promoted: number;
  /** Messages queued (promotions and notify-all). */
  messages: number;
}

/** The single_class row has a free place: its live reservations plus their guests are under its capacity. */
const hasFreePlace = sql`(select (count(*) + count(${class_reservation.guest}))::int from ${class_reservation}
  where ${class_reservation.single_class_id} = ${single_class.single_class_id} and ${class_reservation.deletedAt} is null) < ${single_class.capacity}`;

/** Live classes not started with a free place and someone waiting, earliest first. */
async function classesWithFreePlaces(db: Db, now: Date): Promise<(FreedClass & { freedAt: Date | null })[]> {
  const freedAt = sql<Date | null>`(select max(${class_reservation.deletedAt}) from ${class_reservation}
    where ${class_reservation.single_class_id} = ${single_class.single_class_id})`;
  const rows = await db
    .select({
      single_class_id: single_class.single_class_id,
      class_date: single_class.class_date,
      name: class_type.name,
      freedAt: sql<string | null>`${freedAt}`,
    })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(
      and(
        isNull(single_class.cancelledAt),
        gt(single_class.class_date, now),
        sql`exists (select 1 from ${waitlist} where ${waitlist.single_class_id} = ${single_class.single_class_id})`,
        hasFreePlace,
      ),
    )
    .orderBy(asc(single_class.class_date), asc(single_class.single_class_id));
  return rows.map((r) => ({ ...r, freedAt: r.freedAt === null ? null : new Date(r.freedAt) }));
}

/** What paid for a booking, as the promotion message names it. */
async function creditOf(tx: Db, availableClassId: number | null): Promise<Pick<WaitlistPromotion, 'credit' | 'creditsLeft'>> {
  if (availableClassId === null) return { credit: 'Crédito de clase', creditsLeft: null };
  const [row] = await tx
    .select({ left: available_classes.available_classes, title: class_package.title })
    .from(available_classes)
    .leftJoin(purchase, eq(purchase.purchase_id, available_classes.purchase_id))
    .leftJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .where(eq(available_classes.available_class_id, availableClassId));
  if (!row || row.left === -1) return { credit: row?.title ? `Membresía ilimitada (${row.title})` : 'Membresía ilimitada', creditsLeft: null };
  return { credit: row.title ?? 'Créditos de clase', creditsLeft: row.left };
}

/**
 * Books one waiting customer into the class through the portal's booking
 * service (createReservation: class gate, customer lock, their credits, the
 * class lock and the capacity check under it; it also removes their waitlist
 * entry) and queues the 'waitlist-promoted' message, all in one transaction.
 * The entry is locked after the customer, so a customer who leaves the list
 * at that moment is either booked before leaving or not booked at all.
 * Returns the reservation, or the refusal's code.
 */
async function promoteOne(
  db: Db,
  ctx: MessageContext,
  c: FreedClass,
  entry: { waitlist_id: number; customer_id: number },
  now: Date,
): Promise<{ reservation: ReservationRow; queued: number } | string> {
  try {
    return await db.transaction(async (tx) => {
      await enterClassGate(tx, c.single_class_id);
      const who = await lockCustomer(tx, entry.customer_id);
      const [still] = await tx.select({ id: waitlist.waitlist_id }).from(waitlist).where(eq(waitlist.waitlist_id, entry.waitlist_id)).for('update');
      if (!still) throw new DomainError('waitlist/not-found');
      const reservation = await createReservation(tx, { customerId: entry.customer_id, singleClassId: c.single_class_id, byStaff: true, now });
      const settings = await loadStudioSettings(tx);
      const tz = studioTimeZone(settings);
      const until = creditBackUntil(c.class_date, settings);
      const cancel: WaitlistPromotion['cancel'] = !until ? 'disabled' : until.getTime() < now.getTime() ? 'late' : { until: formatDateTime(until, tz) };
      const queued = await queueCustomerMessage(tx, ctx, {
        customerId: entry.customer_id,
        parts: waitlistPromoted({
          name: who.name,
          className: c.name,
          when: formatDateTime(c.class_date, tz),
          ...(await creditOf(tx, reservation.available_class_id)),
          accessCode: reservation.access_code,
          cancel,
          reservationsUrl: reservationsUrlOf(ctx),
        }),
        dedupeKey: `waitlist-promoted:${reservation.class_reservation_id}`,
      });
      return { reservation, queued };
    });
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

/**
 * Automatic promotion for one class: the waiting customers who asked for it
 * (auto_book), in the order they joined, each offered the free place through
 * the booking service; those
 * it refuses (no usable credit, a penalty, a package-only class) stay on the
 * list and the next is tried, until the class is full.
 */
async function promoteInClass(db: Db, ctx: MessageContext, c: FreedClass, now: Date): Promise<WaitlistRun> {
  const waiting = await db
    .select({ waitlist_id: waitlist.waitlist_id, customer_id: waitlist.customer_id })
    .from(waitlist)
    .innerJoin(customer, eq(customer.customer_id, waitlist.customer_id))
    // Only those who asked to be booked (decision 088): a credit is never spent without the customer's say.
    .where(and(eq(waitlist.single_class_id, c.single_class_id), eq(waitlist.auto_book, true), isNull(customer.deletedAt)))
    .orderBy(asc(waitlist.createdAt), asc(waitlist.waitlist_id));
  const run: WaitlistRun = { promoted: 0, messages: 0 };
  for (const entry of waiting) {
    const outcome = await promoteOne(db, ctx, c, entry, now);
    if (typeof outcome !== 'string') {
      run.promoted++;
      run.messages += outcome.queued;
    } else if (classClosed.has(outcome)) break;
  }
  return run;
}

/**
 * The clock's 'waitlist-promotion' run (decision 023). For every class not
 * started with a free place and someone waiting: while automatic promotion
 * applies (on, and before the cut-off) the first waiting customers with a
 * usable credit are booked and told; then, if a place is still free, the
 * waiting customers not yet told of the freeing get the spec's notify-all.
 * The notify-all part runs whatever the setting: it also tells waiting
 * customers of a place freed by a path that had no message context.
 * Idempotent: promotion goes through the booking service's locks and
 * capacity check (a class never goes over capacity, a customer is never
 * booked twice), and notify-all claims each entry once per freeing.
 */
export async function runWaitlistPromotion(db: Db, ctx: MessageContext, now: Date = new Date()): Promise<WaitlistRun> {
  const settings = await loadStudioSettings(db);
  const run: WaitlistRun = { promoted: 0, messages: 0 };
  for (const c of await classesWithFreePlaces(db, now)) {
    if (autoPromotionApplies(settings, c.class_date, now)) {
      const done = await promoteInClass(db, ctx, c, now);
      run.promoted += done.promoted;
      run.messages += done.messages;
    }
    if (c.freedAt === null) continue;
    const freedAt = c.freedAt;
    run.messages += await db.transaction(async (tx) => {
      const [open] = await tx
        .select({ id: single_class.single_class_id })
        .from(single_class)
        .where(
          and(
            eq(single_class.single_class_id, c.single_class_id),
            isNull(single_class.cancelledAt),
            hasFreePlace,
          ),
        );
      return open ? tellWaitlist(tx, ctx, c, freedAt, now) : 0;
    });
  }
  return run;
}
