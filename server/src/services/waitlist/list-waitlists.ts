import { DomainError, type Role } from '@estudio/core';
import { and, asc, eq, gt } from 'drizzle-orm';
import { waitlist } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { toWaitlistOutputs, type WaitlistOutput, type WaitlistRow } from './waitlist-output.ts';

/**
 * The customer's waitlist entries for classes that have not started yet,
 * soonest first: an entry for a past class can no longer turn into a place.
 */
export async function listWaitlists(db: Db, customerId: number, now: Date = new Date()): Promise<WaitlistOutput[]> {
  const rows = await db
    .select({ w: waitlist })
    .from(waitlist)
    .innerJoin(single_class, eq(single_class.single_class_id, waitlist.single_class_id))
    .where(and(eq(waitlist.customer_id, customerId), gt(single_class.class_date, now)))
    .orderBy(asc(single_class.class_date), asc(waitlist.waitlist_id));
  return toWaitlistOutputs(
    db,
    rows.map((r) => r.w),
  );
}

export interface WaitlistCaller {
  customer_id: number;
  role: Role;
}

export const isStaff = (caller: WaitlistCaller): boolean => caller.role === 'staff' || caller.role === 'admin';

/** The entry if the caller may see it: their own, or any for staff and admin. Otherwise waitlist/not-found. */
export async function findWaitlistFor(db: Db, id: number, caller: WaitlistCaller): Promise<WaitlistRow> {
  const [row] = await db.select().from(waitlist).where(eq(waitlist.waitlist_id, id));
  if (!row || (!isStaff(caller) && row.customer_id !== caller.customer_id)) throw new DomainError('waitlist/not-found');
  return row;
}
