import { eq } from 'drizzle-orm';
import { waitlist } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { findWaitlistFor, type WaitlistCaller } from './list-waitlists.ts';

/** DELETE /waitlist/{id} ('Eliminada de lista de espera.'): own entries; staff and admin any. */
export async function leaveWaitlist(db: Db, id: number, caller: WaitlistCaller): Promise<void> {
  const entry = await findWaitlistFor(db, id, caller);
  await db.delete(waitlist).where(eq(waitlist.waitlist_id, entry.waitlist_id));
}
