import { DomainError, evaluateCancellation, studioTimeZone, type Role } from '@estudio/core';
import { bookingCancelled, classWhen } from '@estudio/core/messages/templates/bookings';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { inOrder, preparedStatement } from '@estudio/db/prepared';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { notifyWaitlist } from '../waitlist/notify-waitlist.ts';
import { lockCustomer } from './booking-locks.ts';
import { returnOneClass } from './create-reservation.ts';
import type { ReservationRow } from './reservation-output.ts';

export interface CancelReservationInput {
  reservationId: number;
  /** Who asks: a customer cancels only their own reservation; staff and admin any. */
  actor: { customerId: number; role: Role };
  /**
   * 'customer': the cancellation rules decide whether it is allowed and whether
   * the credit comes back. 'staff' (DELETE by staff or admin): always allowed
   * and the credit always comes back, without using one of the customer's cancellations.
   */
  mode: 'customer' | 'staff';
  /**
   * Staff at the desk overriding the customer's rules (mode 'customer'): the cancellation is
   * allowed whatever the rules say, and the credit comes back or not as staff chose, without using one of
   * the customer's cancellations. The caller records who and why in the audit log.
   */
  override?: { returnCredit: boolean } | undefined;
  now?: Date;
  /** To message the class's waitlist in this transaction; without it the clock's waitlist job tells them (decision 023). */
  messages?: MessageContext | null | undefined;
  /**
   * Tell the customer the reservation was cancelled and what happened to the credit (with `messages`; default
   * true). A move to another class is not a cancellation for the customer: it passes false.
   */
  tellCustomer?: boolean;
}

export interface CancelReservationResult {
  reservation: ReservationRow;
  creditReturned: boolean;
  /** What the customer's rules said (mode 'customer'): whether they allowed it and gave the credit back. */
  rules?: { allowed: boolean; creditReturned: boolean; code?: string | undefined };
}

const isStaff = (role: Role) => role === 'staff' || role === 'admin';

/**
 * Cancels a reservation in one transaction, under the customer's and the
 * credit's locks (the order bookings take them in): frees the place and the seat, gives the credit
 * back when the rules say so (a limited credit gets its class back and one
 * more cancellation used; an unlimited one has nothing to give back; the
 * credit that paid for a guest gets its class back too) and
 * messages the class's waitlist. A customer asking for someone else's
 * reservation gets reservation/not-found.
 */
export async function cancelReservation(db: Db, input: CancelReservationInput): Promise<CancelReservationResult> {
  const now = input.now ?? new Date();
  const settings = await loadStudioSettings(db);
  return db.transaction(async (tx) => {
    const [found] = await reservationToCancel(tx, { reservationId: input.reservationId });
    if (!found || (!isStaff(input.actor.role) && found.customer_id !== input.actor.customerId)) {
      throw new DomainError('reservation/not-found');
    }
    // Customer, credit, then the reservation: the booking order. The class is not locked:
    // freeing a place cannot overbook, and a booking that counted the place a moment
    // earlier was refused as it would have been a moment earlier.
    await lockCustomer(tx, found.customer_id);
    // Both credits the booking spent (the booker's, and the guest's when the studio charges guests), locked together,
    // then the reservation: sent together (inOrder), run in that order.
    const creditIds = [found.available_class_id, found.guest_available_class_id].filter((id): id is number => id !== null);
    const [held, [r]] = await inOrder([
      () => (creditIds.length ? lockCreditsById(tx, { ids: `{${creditIds.join(',')}}` }) : Promise.resolve([])),
      () => lockReservation(tx, { reservationId: input.reservationId }),
    ] as const);
    const credit = held.find((row) => row.available_class_id === found.available_class_id);
    if (!r) throw new DomainError('reservation/not-found');
    const unlimited = credit?.available_classes === -1;

    let creditReturned: boolean;
    let rules: CancelReservationResult['rules'];
    if (input.mode === 'staff') {
      if (r.deletedAt) throw new DomainError('reservation/already-cancelled');
      creditReturned = true;
    } else {
      const verdict = evaluateCancellation({
        // The class's start, read with the reservation before the locks (the class is not locked either way).
        classDate: found.class_date,
        now,
        config: settings,
        // Only limited credits count cancellations: an unlimited membership has no class to give back.
        cancelsUsed: credit && !unlimited ? credit.cancels_used : 0,
        cancelled: r.deletedAt !== null,
      });
      rules = { allowed: verdict.allowed, creditReturned: verdict.creditReturned, code: verdict.code };
      if (input.override) {
        if (r.deletedAt) throw new DomainError('reservation/already-cancelled');
        creditReturned = input.override.returnCredit;
      } else {
        if (!verdict.allowed) throw new DomainError(verdict.code ?? 'reservation/cancel-disabled');
        creditReturned = verdict.creditReturned;
      }
    }

    const [cancelled] = await markCancelled(tx, { reservationId: r.class_reservation_id, now: now.toISOString(), creditReturned });
    if (!cancelled) throw new DomainError('reservation/already-cancelled');

    if (creditReturned && credit && !unlimited) {
      await returnOneClass(tx, credit.available_class_id, now, { usesCancellation: input.mode === 'customer' && !input.override });
    }
    // The guest's class comes back with the booker's; it never uses one of the customer's cancellations.
    if (creditReturned && r.guest_available_class_id !== null) {
      await returnOneClass(tx, r.guest_available_class_id, now);
    }
    await notifyWaitlist(tx, r.single_class_id, now, input.messages);
    if (input.messages && input.tellCustomer !== false) {
      await queueCancelledNotice(tx, input.messages, {
        reservation: cancelled,
        classDate: found.class_date,
        creditReturned: unlimited ? null : creditReturned && credit !== undefined,
        byStudio: input.mode === 'staff' || input.override !== undefined || cancelled.customer_id !== input.actor.customerId,
      });
    }
    return { reservation: cancelled, creditReturned, ...(rules ? { rules } : {}) };
  });
}

/*
 * The cancellation's statements, built once (db/src/prepared.ts, as a
 * booking's): times travel as ISO text cast in SQL, and the update sets
 * updated_at itself.
 */
const reservationToCancel = preparedStatement((tx) =>
  tx
    .select({
      customer_id: class_reservation.customer_id,
      single_class_id: class_reservation.single_class_id,
      available_class_id: class_reservation.available_class_id,
      guest_available_class_id: class_reservation.guest_available_class_id,
      class_date: single_class.class_date,
    })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(eq(class_reservation.class_reservation_id, sql.placeholder('reservationId')))
    .prepare('cancel_reservation_found'),
);

const lockCreditsById = preparedStatement((tx) =>
  tx
    .select()
    .from(available_classes)
    .where(sql`${available_classes.available_class_id} = any(${sql.placeholder('ids')}::int[])`)
    .orderBy(available_classes.available_class_id)
    .for('update')
    .prepare('cancel_lock_credits'),
);

const lockReservation = preparedStatement((tx) =>
  tx.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, sql.placeholder('reservationId'))).for('update').prepare('cancel_lock_reservation'),
);

const markCancelled = preparedStatement((tx) =>
  tx
    .update(class_reservation)
    .set({
      deletedAt: sql`${sql.placeholder('now')}::timestamptz`,
      credit_returned: sql`${sql.placeholder('creditReturned')}::boolean`,
      updatedAt: sql`${sql.placeholder('now')}::timestamptz`,
    })
    .where(and(eq(class_reservation.class_reservation_id, sql.placeholder('reservationId')), isNull(class_reservation.deletedAt)))
    .returning()
    .prepare('cancel_mark_cancelled'),
);

/** The customer's confirmation of a cancellation, in the cancellation's transaction. */
async function queueCancelledNotice(
  tx: Db,
  ctx: MessageContext,
  input: { reservation: ReservationRow; classDate: Date; creditReturned: boolean | null; byStudio: boolean },
): Promise<void> {
  const [who] = await tx
    .select({ name: customer.name, className: class_type.name })
    .from(customer)
    .innerJoin(single_class, eq(single_class.single_class_id, input.reservation.single_class_id))
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(customer.customer_id, input.reservation.customer_id));
  if (!who) return;
  const tz = studioTimeZone(await loadStudioSettings(tx));
  await queueCustomerMessage(tx, ctx, {
    customerId: input.reservation.customer_id,
    dedupeKey: `booking-cancelled:${input.reservation.class_reservation_id}`,
    parts: bookingCancelled({
      name: who.name.trim() || null,
      className: who.className,
      when: classWhen(input.classDate, tz),
      creditReturned: input.creditReturned,
      byStudio: input.byStudio,
      scheduleUrl: `${ctx.publicUrl}/mystudio`,
    }),
  });
}
