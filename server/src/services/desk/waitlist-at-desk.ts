import { DomainError, type DeskMutationArgs } from '@estudio/core';
import { and, eq } from 'drizzle-orm';
import { waitlist } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { joinWaitlist } from '../waitlist/join-waitlist.ts';
import { leaveWaitlist } from '../waitlist/leave-waitlist.ts';
import type { WaitlistOutput } from '../waitlist/waitlist-output.ts';

/** Staff add a customer to a full class's waitlist: the portal's join, with staff naming the customer. */
export function joinWaitlistAtDesk(db: Db, staffId: number, input: DeskMutationArgs<'joinWaitlist'>, now: Date = new Date()): Promise<WaitlistOutput> {
  return joinWaitlist(db, input, { customer_id: staffId, role: 'staff' }, now);
}

/**
 * Staff take a customer off a class's waitlist. The entry is named by
 * customer and class, not by its id: an entry made offline has no server id
 * yet. No entry: waitlist/not-found.
 */
export async function leaveWaitlistAtDesk(db: Db, staffId: number, input: DeskMutationArgs<'leaveWaitlist'>): Promise<void> {
  const [entry] = await db
    .select({ id: waitlist.waitlist_id })
    .from(waitlist)
    .where(and(eq(waitlist.single_class_id, input.single_class_id), eq(waitlist.customer_id, input.customer_id)));
  if (!entry) throw new DomainError('waitlist/not-found');
  await leaveWaitlist(db, entry.id, { customer_id: staffId, role: 'staff' });
}
