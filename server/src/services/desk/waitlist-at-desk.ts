import { DomainError, type DeskMutationArgs } from '@estudio/core';
import { and, eq } from 'drizzle-orm';
import { waitlist } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { joinWaitlist } from '../waitlist/join-waitlist.ts';
import { leaveWaitlist } from '../waitlist/leave-waitlist.ts';
import type { WaitlistOutput } from '../waitlist/waitlist-output.ts';

/** Staff add a customer to a full class's waitlist: the portal's join, with staff naming the customer; the activity log says who. */
export function joinWaitlistAtDesk(db: Db, actor: StaffActor, input: DeskMutationArgs<'joinWaitlist'>, now: Date = new Date()): Promise<WaitlistOutput> {
  return db.transaction(async (tx) => {
    const entry = await joinWaitlist(tx, input, { customer_id: actor.customer_id, role: 'staff' }, now);
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'waitlist.join',
      entity: 'customer',
      entityId: input.customer_id,
      changes: { customer_id: input.customer_id, single_class_id: input.single_class_id },
    });
    return entry;
  });
}

/**
 * Staff take a customer off a class's waitlist. The entry is named by
 * customer and class, not by its id: an entry made offline has no server id
 * yet. No entry: waitlist/not-found.
 */
export async function leaveWaitlistAtDesk(db: Db, actor: StaffActor, input: DeskMutationArgs<'leaveWaitlist'>): Promise<void> {
  await db.transaction(async (tx) => {
    const [entry] = await tx
      .select({ id: waitlist.waitlist_id })
      .from(waitlist)
      .where(and(eq(waitlist.single_class_id, input.single_class_id), eq(waitlist.customer_id, input.customer_id)));
    if (!entry) throw new DomainError('waitlist/not-found');
    await leaveWaitlist(tx, entry.id, { customer_id: actor.customer_id, role: 'staff' });
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'waitlist.leave',
      entity: 'customer',
      entityId: input.customer_id,
      changes: { customer_id: input.customer_id, single_class_id: input.single_class_id },
    });
  });
}
