import { and, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Tx } from '@estudio/db';
import type { MessageContext } from '../messages/message-context.ts';
import { notifyWaitlist } from '../waitlist/notify-waitlist.ts';

export interface BookingsEnded {
  /** Reservations cancelled because the purchase that paid for them ended. */
  cancelledReservationIds: number[];
  /** Reservations that keep their booker but lost the guest this purchase paid for. */
  guestRemovedReservationIds: number[];
}

/**
 * When a purchase's access ends now (a trial or an unpaid order cancelled, a
 * revocation, a refund), the classes its credits booked that have not started
 * go with it: otherwise cancelling a trial after booking with it would keep the
 * class and free the trial to be taken again. A booking the purchase paid for
 * is cancelled with no credit back (the credit ends with the purchase); a
 * guest it paid for, on another credit's booking, leaves that booking. Classes
 * already started stay in the history. The waitlists of the places freed are
 * told (with `messages`, now; otherwise the clock's waitlist job tells them).
 * The caller holds the customer's lock (the booking order of decision 006).
 */
export async function cancelBookingsPaidBy(tx: Tx, purchaseId: number, now: Date, messages?: MessageContext | null): Promise<BookingsEnded> {
  const none: BookingsEnded = { cancelledReservationIds: [], guestRemovedReservationIds: [] };
  const credits = (await tx.select({ id: available_classes.available_class_id }).from(available_classes).where(eq(available_classes.purchase_id, purchaseId))).map(
    (c) => c.id,
  );
  if (!credits.length) return none;
  const upcoming = await tx
    .select({
      id: class_reservation.class_reservation_id,
      classId: class_reservation.single_class_id,
      ownCredit: class_reservation.available_class_id,
      guestCredit: class_reservation.guest_available_class_id,
    })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(
      and(
        isNull(class_reservation.deletedAt),
        gt(single_class.class_date, now),
        or(inArray(class_reservation.available_class_id, credits), inArray(class_reservation.guest_available_class_id, credits)),
      ),
    )
    .orderBy(class_reservation.class_reservation_id)
    .for('update', { of: class_reservation });
  if (!upcoming.length) return none;
  const ofPurchase = new Set(credits);
  const cancelled = upcoming.filter((r) => r.ownCredit !== null && ofPurchase.has(r.ownCredit));
  const guestsOnly = upcoming.filter((r) => !cancelled.includes(r));
  if (cancelled.length) {
    await tx
      .update(class_reservation)
      .set({ deletedAt: now, credit_returned: false, updatedAt: now })
      .where(inArray(class_reservation.class_reservation_id, cancelled.map((r) => r.id)));
  }
  if (guestsOnly.length) {
    await tx
      .update(class_reservation)
      .set({ guest: null, guest_spot: null, guest_available_class_id: null, updatedAt: now })
      .where(inArray(class_reservation.class_reservation_id, guestsOnly.map((r) => r.id)));
  }
  for (const classId of [...new Set(upcoming.map((r) => r.classId))].sort((a, b) => a - b)) {
    await notifyWaitlist(tx, classId, now, messages);
  }
  return { cancelledReservationIds: cancelled.map((r) => r.id), guestRemovedReservationIds: guestsOnly.map((r) => r.id) };
}
