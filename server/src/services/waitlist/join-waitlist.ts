import { DomainError } from '@estudio/core';
import { waitlist } from '@estudio/db/schema/reservations';
import { isUniqueViolation, type Db } from '../../db.ts';
import type { WaitlistCaller } from './list-waitlists.ts';
import { toWaitlistOutput, type WaitlistOutput } from './waitlist-output.ts';
import { assertAutoBookOn, assertCanWait, waitingCustomer } from './waitlist-rules.ts';

/**
 * POST /waitlist ('Anotada en lista de espera.'). A customer joins for
 * themself; staff and admin may name another customer with customer_id. The
 * unique index waitlist_class_customer_key settles two simultaneous joins.
 */
export async function joinWaitlist(
  db: Db,
  input: { single_class_id: number; customer_id?: number | undefined; auto_book?: boolean | undefined },
  caller: WaitlistCaller,
  now: Date = new Date(),
): Promise<WaitlistOutput> {
  const customerId = await waitingCustomer(db, input.customer_id, caller);
  await assertCanWait(db, input.single_class_id, customerId, now);
  if (input.auto_book) await assertAutoBookOn(db);
  try {
    const [row] = await db.insert(waitlist).values({ single_class_id: input.single_class_id, customer_id: customerId, auto_book: input.auto_book ?? false }).returning();
    if (!row) throw new DomainError('waitlist/not-found');
    return await toWaitlistOutput(db, row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('waitlist/already-joined');
    throw error;
  }
}
