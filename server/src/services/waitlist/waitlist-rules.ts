import { DomainError, isClassFull, isOn } from '@estudio/core';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { WaitlistCaller } from './list-waitlists.ts';

/**
 * The rules shared by joining and moving: waitlists on, the class exists, is
 * not cancelled and has not started, the customer has no live reservation in
 * it and no entry yet, and the class is full (the spec offers the waitlist only
 * on a full class). Fullness is read without a lock: a waitlist entry takes no
 * place, and a place freed a moment later is what the waitlist is for.
 */
export async function assertCanWait(db: Db, classId: number, customerId: number, now: Date, ignoreWaitlistId?: number): Promise<void> {
  const settings = await loadStudioSettings(db);
  if (!isOn(settings.waitlist_enabled)) throw new DomainError('waitlist/disabled');
  const [cls] = await db
    .select({ capacity: single_class.capacity, class_date: single_class.class_date, cancelledAt: single_class.cancelledAt })
    .from(single_class)
    .where(eq(single_class.single_class_id, classId));
  if (!cls) throw new DomainError('class/not-found');
  if (cls.cancelledAt) throw new DomainError('booking/class-cancelled');
  if (cls.class_date.getTime() <= now.getTime()) throw new DomainError('booking/class-started');
  const [taken] = await db
    .select({
      places: sql<number>`(count(*) + count(${class_reservation.guest}))::int`,
      own: sql<number>`(count(*) filter (where ${class_reservation.customer_id} = ${customerId}))::int`,
    })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, classId), isNull(class_reservation.deletedAt)));
  if (Number(taken?.own ?? 0) > 0) throw new DomainError('waitlist/already-booked');
  const [joined] = await db
    .select({ id: waitlist.waitlist_id })
    .from(waitlist)
    .where(
      and(
        eq(waitlist.single_class_id, classId),
        eq(waitlist.customer_id, customerId),
        ignoreWaitlistId === undefined ? undefined : ne(waitlist.waitlist_id, ignoreWaitlistId),
      ),
    );
  if (joined) throw new DomainError('waitlist/already-joined');
  if (!isClassFull({ capacity: cls.capacity, reservation_count: Number(taken?.places ?? 0) })) throw new DomainError('waitlist/class-not-full');
}

/**
 * A customer may ask to be booked automatically only where the studio books
 * from its waitlists (waitlist_auto_promote): anywhere else the choice would
 * be stored and do nothing.
 */
export async function assertAutoBookOn(db: Db): Promise<void> {
  if (!isOn((await loadStudioSettings(db)).waitlist_auto_promote)) throw new DomainError('waitlist/auto-book-off');
}

/** Who joins: the caller, or for staff and admin the customer they name. A customer naming someone else is refused. */
export async function waitingCustomer(db: Db, requested: number | undefined, caller: WaitlistCaller): Promise<number> {
  if (requested === undefined || requested === caller.customer_id) return caller.customer_id;
  if (caller.role !== 'staff' && caller.role !== 'admin') throw new DomainError('forbidden');
  const [row] = await db
    .select({ id: customer.customer_id })
    .from(customer)
    .where(and(eq(customer.customer_id, requested), isNull(customer.deletedAt)));
  if (!row) throw new DomainError('customer/not-found');
  return row.id;
}
