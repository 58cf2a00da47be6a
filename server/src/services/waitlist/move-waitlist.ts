import { DomainError } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { waitlist } from '@estudio/db/schema/reservations';
import { isUniqueViolation, type Db } from '../../db.ts';
import { findWaitlistFor, type WaitlistCaller } from './list-waitlists.ts';
import { toWaitlistOutput, type WaitlistOutput } from './waitlist-output.ts';
import { assertAutoBookOn, assertCanWait } from './waitlist-rules.ts';

/**
 * PUT /waitlist: moves an entry to another class, under the same rules as
 * joining, and/or changes the customer's choice to be booked automatically
 * (decision 088; only where the studio books from its waitlists).
 */
export async function moveWaitlist(
  db: Db,
  input: { waitlist_id: number; single_class_id?: number | undefined; auto_book?: boolean | undefined },
  caller: WaitlistCaller,
  now: Date = new Date(),
): Promise<WaitlistOutput> {
  let entry = await findWaitlistFor(db, input.waitlist_id, caller);
  if (input.auto_book !== undefined && input.auto_book !== entry.auto_book) {
    if (input.auto_book) await assertAutoBookOn(db);
    const [row] = await db.update(waitlist).set({ auto_book: input.auto_book }).where(eq(waitlist.waitlist_id, entry.waitlist_id)).returning();
    if (!row) throw new DomainError('waitlist/not-found');
    entry = row;
  }
  if (input.single_class_id === undefined || entry.single_class_id === input.single_class_id) return toWaitlistOutput(db, entry);
  await assertCanWait(db, input.single_class_id, entry.customer_id, now, entry.waitlist_id);
  try {
    const [row] = await db
      .update(waitlist)
      .set({ single_class_id: input.single_class_id, notifiedAt: null, createdAt: now })
      .where(eq(waitlist.waitlist_id, entry.waitlist_id))
      .returning();
    if (!row) throw new DomainError('waitlist/not-found');
    return await toWaitlistOutput(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('waitlist/already-joined');
    throw error;
  }
}
