import { DomainError, formatDateTime, studioTimeZone } from '@estudio/core';
import { classCancelled } from '@estudio/core/messages/templates/studio';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessages } from '../messages/queue-message.ts';
import { closeClassGate, lockClass } from '../reservations/booking-locks.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { Actor } from './save-class.ts';

export interface CancelClassResult {
  reservationsCancelled: number;
  creditsReturned: number;
  /** Outbox messages queued: one per customer told and channel (e-mail, WhatsApp). */
  messagesQueued: number;
  waitlistRemoved: number;
}

/** A booking committed between the first read and the class lock, by a customer not yet locked: start over. */
class NewBookerDuringCancel extends Error {}

const maxAttempts = 5;

function liveReservations(tx: Tx, singleClassId: number) {
  return tx
    .select({
      class_reservation_id: class_reservation.class_reservation_id,
      customer_id: class_reservation.customer_id,
      available_class_id: class_reservation.available_class_id,
    })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, singleClassId), isNull(class_reservation.deletedAt)));
}

async function cancelOnce(db: Db, singleClassId: number, actor: Actor, tz: string, now: Date, messages: MessageContext, note: string | null): Promise<CancelClassResult> {
  return db.transaction(async (tx) => {
    // The class gate first: bookings in flight finish, new ones wait, so the reservations read next are all there will be.
    await closeClassGate(tx, singleClassId);
    // Decision 006 order: the customers (ascending ids), their credits, then the class.
    const first = await liveReservations(tx, singleClassId);
    const customerIds = [...new Set(first.map((r) => r.customer_id))].sort((a, b) => a - b);
    const people =
      customerIds.length === 0
        ? []
        : await tx
            .select({ customer_id: customer.customer_id, name: customer.name, deletedAt: customer.deletedAt })
            .from(customer)
            .where(inArray(customer.customer_id, customerIds))
            .orderBy(asc(customer.customer_id))
            .for('update');
    const creditIds = [...new Set(first.flatMap((r) => (r.available_class_id === null ? [] : [r.available_class_id])))].sort((a, b) => a - b);
    if (creditIds.length > 0) {
      await tx
        .select({ id: available_classes.available_class_id })
        .from(available_classes)
        .where(inArray(available_classes.available_class_id, creditIds))
        .orderBy(asc(available_classes.available_class_id))
        .for('update');
    }
    const c = await lockClass(tx, singleClassId);
    if (c.cancelledAt) throw new DomainError('schedule/class-cancelled');

    // Under the class lock no booking of this class can commit: this read is final. With the gate
    // closed no booking can have committed since the first read; should one ever (a path that books
    // without the gate), taking its customer's lock now would invert the order: start over instead.
    const live = await liveReservations(tx, singleClassId);
    const lockedCustomers = new Set(customerIds);
    const lockedCredits = new Set(creditIds);
    if (live.some((r) => !lockedCustomers.has(r.customer_id) || (r.available_class_id !== null && !lockedCredits.has(r.available_class_id)))) {
      throw new NewBookerDuringCancel();
    }

    await tx.update(single_class).set({ cancelledAt: now, updatedAt: now }).where(eq(single_class.single_class_id, singleClassId));
    const reservationIds = live.map((r) => r.class_reservation_id);
    const usedCredits = live.flatMap((r) => (r.available_class_id === null ? [] : [r.available_class_id]));
    let creditsReturned = 0;
    if (reservationIds.length > 0) {
      await tx
        .update(class_reservation)
        .set({ deletedAt: now, credit_returned: true, updatedAt: now })
        .where(inArray(class_reservation.class_reservation_id, reservationIds));
    }
    if (usedCredits.length > 0) {
      // One live reservation per customer and class, so each credit row gives back one class;
      // an unlimited membership (-1) has nothing to give back and stays as it is.
      const returned = await tx
        .update(available_classes)
        .set({ available_classes: sql`${available_classes.available_classes} + 1`, updatedAt: now })
        .where(and(inArray(available_classes.available_class_id, usedCredits), ne(available_classes.available_classes, -1)))
        .returning({ id: available_classes.available_class_id });
      creditsReturned = returned.length;
    }
    const unlimitedCredits =
      usedCredits.length === 0
        ? new Set<number>()
        : new Set(
            (
              await tx
                .select({ id: available_classes.available_class_id })
                .from(available_classes)
                .where(and(inArray(available_classes.available_class_id, usedCredits), eq(available_classes.available_classes, -1)))
            ).map((r) => r.id),
          );

    // Everyone booked and everyone waiting is told, in this transaction: the booked
    // whether their credit came back, the waiting that they no longer wait for it.
    const when = formatDateTime(c.class_date, tz);
    const about = { className: c.class_type.name, when, scheduleUrl: `${messages.publicUrl}/calendario`, note };
    let messagesQueued = await queueCustomerMessages(
      tx,
      messages,
      people
        .filter((person) => person.deletedAt === null)
        .map((p) => {
          const own = live.filter((r) => r.customer_id === p.customer_id);
          const unlimited = own.every((r) => r.available_class_id !== null && unlimitedCredits.has(r.available_class_id));
          return {
            customerId: p.customer_id,
            parts: classCancelled({ ...about, name: p.name, was: unlimited ? 'unlimited' : 'credit' }),
            dedupeKey: `class-cancelled:${singleClassId}:${p.customer_id}`,
          };
        }),
    );
    const removed = await tx
      .delete(waitlist)
      .where(eq(waitlist.single_class_id, singleClassId))
      .returning({ id: waitlist.waitlist_id, customer_id: waitlist.customer_id });
    const waitingIds = removed.map((w) => w.customer_id).filter((id) => !lockedCustomers.has(id));
    const waiting =
      waitingIds.length === 0
        ? []
        : await tx
            .select({ customer_id: customer.customer_id, name: customer.name })
            .from(customer)
            .where(and(inArray(customer.customer_id, waitingIds), isNull(customer.deletedAt)))
            .orderBy(asc(customer.customer_id));
    messagesQueued += await queueCustomerMessages(
      tx,
      messages,
      waiting.map((w) => ({
        customerId: w.customer_id,
        parts: classCancelled({ ...about, name: w.name, was: 'waitlist' }),
        dedupeKey: `class-cancelled:${singleClassId}:${w.customer_id}`,
      })),
    );

    const result = { reservationsCancelled: reservationIds.length, creditsReturned, messagesQueued, waitlistRemoved: removed.length };
    await recordAudit(tx, {
      actorId: actor.customerId,
      action: 'cancel',
      entity: 'single_class',
      entityId: singleClassId,
      changes: { ...result, class_reservation_ids: reservationIds, ...(note ? { note } : {}) },
    });
    return result;
  });
}

/**
 * POST /api/single_class/{id}/cancel: cancels a class in one transaction.
 * Every live reservation is cancelled with its credit returned (the credit
 * row it consumed gets its class back; an unlimited membership is left as it
 * is), each booked customer is told whether their credit came back and each
 * waiting customer that the class is gone ('class-cancelled', transactional:
 * e-mail and WhatsApp by their channels), with the studio's `note` when it
 * wrote one, the waitlist is emptied and the change is audited.
 * Locks follow decision 006: customers in ascending id, their credits, the class.
 */
export async function cancelSingleClass(
  db: Db,
  singleClassId: number,
  actor: Actor,
  messages: MessageContext,
  options: { now?: Date; note?: string | undefined } = {},
): Promise<CancelClassResult> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const now = options.now ?? new Date();
  for (let attempt = 1; ; attempt++) {
    try {
      return await cancelOnce(db, singleClassId, actor, tz, now, messages, options.note || null);
    } catch (error) {
      if (!(error instanceof NewBookerDuringCancel) || attempt >= maxAttempts) {
        if (error instanceof NewBookerDuringCancel) throw new DomainError('internal');
        throw error;
      }
    }
  }
}

export interface CancelPreview {
  reservations: number;
  creditsReturned: number;
  waitlisted: number;
  /** The message each group will receive (only groups with someone in them), as cancelSingleClass writes it. */
  messages: { was: CancelledAs; customers: number; subject: string; paragraphs: string[] }[];
}

type CancelledAs = 'credit' | 'unlimited' | 'waitlist';

/**
 * What cancelling a class would do, counted the way cancelSingleClass does it
 * (a reservation paid with a limited credit gets its class back; one made with
 * an unlimited membership has nothing to give back), so the admin's dialog
 * shows exact numbers before the click, and the message each group will read,
 * with the studio's `note`. Nothing is locked: it is a preview, and the
 * cancel itself answers what it really did.
 */
export async function previewCancelSingleClass(db: Db, singleClassId: number, messages: MessageContext, note?: string): Promise<CancelPreview> {
  const [found] = await db
    .select({ cancelledAt: single_class.cancelledAt, class_date: single_class.class_date, className: class_type.name })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(single_class.single_class_id, singleClassId));
  if (!found) throw new DomainError('class/not-found');
  if (found.cancelledAt) throw new DomainError('schedule/class-cancelled');
  const [counts] = await db
    .select({
      reservations: sql<number>`count(*)::int`,
      creditsReturned: sql<number>`(count(*) filter (where ${available_classes.available_classes} is not null and ${available_classes.available_classes} <> -1))::int`,
    })
    .from(class_reservation)
    .leftJoin(available_classes, eq(available_classes.available_class_id, class_reservation.available_class_id))
    .where(and(eq(class_reservation.single_class_id, singleClassId), isNull(class_reservation.deletedAt)));
  // Who is told what: a customer whose every booking of the class was on an unlimited membership hears it stays valid.
  const booked = await db
    .select({ customer_id: class_reservation.customer_id, unlimited: sql<boolean>`bool_and(${available_classes.available_classes} is not null and ${available_classes.available_classes} = -1)` })
    .from(class_reservation)
    .innerJoin(customer, and(eq(customer.customer_id, class_reservation.customer_id), isNull(customer.deletedAt)))
    .leftJoin(available_classes, eq(available_classes.available_class_id, class_reservation.available_class_id))
    .where(and(eq(class_reservation.single_class_id, singleClassId), isNull(class_reservation.deletedAt)))
    .groupBy(class_reservation.customer_id);
  const waiting = await db
    .select({ customer_id: waitlist.customer_id })
    .from(waitlist)
    .innerJoin(customer, and(eq(customer.customer_id, waitlist.customer_id), isNull(customer.deletedAt)))
    .where(eq(waitlist.single_class_id, singleClassId));
  const [wait] = await db
    .select({ waitlisted: sql<number>`count(*)::int` })
    .from(waitlist)
    .where(eq(waitlist.single_class_id, singleClassId));
  const bookedIds = new Set(booked.map((b) => b.customer_id));
  const groups: Record<CancelledAs, number> = {
    credit: booked.filter((b) => !b.unlimited).length,
    unlimited: booked.filter((b) => b.unlimited).length,
    waitlist: waiting.filter((w) => !bookedIds.has(w.customer_id)).length,
  };
  const about = { name: '', className: found.className, when: formatDateTime(found.class_date, studioTimeZone(await loadStudioSettings(db))), scheduleUrl: `${messages.publicUrl}/calendario`, note: note || null };
  return {
    reservations: counts?.reservations ?? 0,
    creditsReturned: counts?.creditsReturned ?? 0,
    waitlisted: wait?.waitlisted ?? 0,
    messages: (['credit', 'unlimited', 'waitlist'] as const).flatMap((was) => {
      if (groups[was] === 0) return [];
      const parts = classCancelled({ ...about, was });
      return [{ was, customers: groups[was], subject: parts.subject, paragraphs: parts.paragraphs }];
    }),
  };
}
