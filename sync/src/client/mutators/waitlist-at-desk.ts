import { DomainError, isClassFull, isOn, placesForBooking } from '@estudio/core';
import { class_reservation, single_class, waitlist } from '@estudio/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { insertRow, liveCustomer } from './replica-rows.ts';

/** The server's waitlist at the desk (`server/src/services/desk/waitlist-at-desk.ts`) on the replica. */
export const joinWaitlist: Mutator<'joinWaitlist'> = async ({ tx, now, tempId, settings }, args) => {
  if (!isOn(settings.waitlist_enabled)) throw new DomainError('waitlist/disabled');
  await liveCustomer(tx, args.customer_id);
  const [c] = await tx.select().from(single_class).where(eq(single_class.single_class_id, args.single_class_id));
  if (!c) throw new DomainError('class/not-found');
  if (c.cancelledAt) throw new DomainError('booking/class-cancelled');
  if (c.class_date.getTime() <= now.getTime()) throw new DomainError('booking/class-started');
  const live = await tx
    .select({ customer_id: class_reservation.customer_id, guest: class_reservation.guest })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, c.single_class_id), isNull(class_reservation.deletedAt)));
  if (live.some((r) => r.customer_id === args.customer_id)) throw new DomainError('waitlist/already-booked');
  const [joined] = await tx
    .select({ id: waitlist.waitlist_id })
    .from(waitlist)
    .where(and(eq(waitlist.single_class_id, c.single_class_id), eq(waitlist.customer_id, args.customer_id)));
  if (joined) throw new DomainError('waitlist/already-joined');
  const places = live.reduce((sum, r) => sum + placesForBooking(r.guest), 0);
  if (!isClassFull({ capacity: c.capacity, reservation_count: places })) throw new DomainError('waitlist/class-not-full');
  await insertRow(tx, 'waitlist', {
    waitlist_id: tempId,
    single_class_id: c.single_class_id,
    customer_id: args.customer_id,
    created_at: now.toISOString(),
  });
  return ['waitlist'];
};

export const leaveWaitlist: Mutator<'leaveWaitlist'> = async ({ tx }, args) => {
  const left = await tx
    .delete(waitlist)
    .where(and(eq(waitlist.single_class_id, args.single_class_id), eq(waitlist.customer_id, args.customer_id)))
    .returning({ id: waitlist.waitlist_id });
  if (!left.length) throw new DomainError('waitlist/not-found');
  return ['waitlist'];
};
