import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '@estudio/db';
import { customer, customer_note } from '@estudio/db';
import { mayRemoveCustomerNote, sortCustomerNotes, type CustomerNoteKind, type Role } from '@estudio/core';

/** A note on the customer's card, from the replica. */
export interface DeskCustomerNote {
  customer_note_id: number;
  kind: CustomerNoteKind;
  body: string;
  /** "Name Last name" of who wrote it; null while the note waits to be sent, or when that account is gone. */
  created_by_name: string | null;
  created_at: string;
  /** Written at this desk and not yet on the server: it cannot be removed until it is. */
  pending: boolean;
  /** The signed-in account may remove it (core's mayRemoveCustomerNote). */
  removable: boolean;
}

const author = alias(customer, 'author');

/** The customer's notes as the replica has them, alerts first; `me` is the signed-in account. */
export async function customerNotes(db: Db, customerId: number, me: { customer_id: number; role: Role } | null): Promise<DeskCustomerNote[]> {
  const rows = await db
    .select({
      customer_note_id: customer_note.customer_note_id,
      kind: customer_note.kind,
      body: customer_note.body,
      created_by: customer_note.created_by,
      name: author.name,
      last_name: author.last_name,
      created_at: customer_note.createdAt,
    })
    .from(customer_note)
    .leftJoin(author, eq(author.customer_id, customer_note.created_by))
    .where(eq(customer_note.customer_id, customerId));
  return sortCustomerNotes(
    rows.map((r) => {
      const pending = r.customer_note_id < 0;
      return {
        customer_note_id: r.customer_note_id,
        kind: r.kind,
        body: r.body,
        created_by_name: r.name === null ? null : `${r.name} ${r.last_name ?? ''}`.trim(),
        created_at: r.created_at.toISOString(),
        pending,
        removable: !pending && me !== null && mayRemoveCustomerNote(me.role, r, me.customer_id),
      };
    }),
  );
}

/**
 * The customer's alerts, newest first, as one SQL value for the scan's panel (read in the scan's own statement, on
 * the notes' customer index). Health notes are not in the replica (decision 087): the card reads them from the server.
 */
export function customerAlertsSql(customerId: SQL | AnyColumn): SQL<string[]> {
  return sql<string[]>`(select coalesce(json_agg(n.body order by n.created_at desc, n.customer_note_id desc), '[]'::json)
    from customer_note n where n.customer_id = ${customerId} and n.kind = 'alert')`;
}
