import { DomainError } from '@estudio/core';
import { customer_note } from '@estudio/db';
import { and, eq } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { insertRow, liveCustomer } from './replica-rows.ts';

/**
 * The server's addCustomerNote (`server/src/services/customer/customer-notes.ts`) on the replica: the note shows on
 * the card and at the scan at once, with the mutation's temporary id until the server's row replaces it. Who wrote
 * it is the server's to record (the signed-in account of the push): null here until then.
 */
export const addCustomerNote: Mutator<'addCustomerNote'> = async ({ tx, now, tempId }, args) => {
  const who = await liveCustomer(tx, args.customer_id);
  await insertRow(tx, 'customer_note', {
    customer_note_id: tempId,
    customer_id: who.customer_id,
    kind: args.kind,
    body: args.body,
    created_by: null,
    created_at: now.toISOString(),
  });
  return ['customer_note'];
};

/** The server's removeCustomerNote on the replica: the note must be this customer's (who may remove it, the server judges). */
export const removeCustomerNote: Mutator<'removeCustomerNote'> = async ({ tx }, args) => {
  const removed = await tx
    .delete(customer_note)
    .where(and(eq(customer_note.customer_note_id, args.customer_note_id), eq(customer_note.customer_id, args.customer_id)))
    .returning({ id: customer_note.customer_note_id });
  if (!removed.length) throw new DomainError('customer-note/not-found');
  return ['customer_note'];
};
