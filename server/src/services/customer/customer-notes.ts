import { DomainError, sortCustomerNotes, texts, type CustomerNoteKind, type CustomerNoteOutput, type DeskMutationArgs } from '@estudio/core';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { customer, customer_note } from '@estudio/db/schema/customer';
import type { DbOrTx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { assertMayRemoveNote, type StaffActor } from '../permissions/staff-permissions.ts';

/** A desk's note or alert, or over /api any kind (a health note included). */
export type AddCustomerNoteInput = Omit<DeskMutationArgs<'addCustomerNote'>, 'kind'> & { kind: CustomerNoteKind };
export type RemoveCustomerNoteInput = DeskMutationArgs<'removeCustomerNote'>;

const author = alias(customer, 'author');

/** A customer's notes, alerts and health notes as staff read them: alerts first, the newest first; `noteId`: that one only. */
export async function listCustomerNotes(db: DbOrTx, customerId: number, noteId?: number): Promise<CustomerNoteOutput[]> {
  const rows = await db
    .select({
      customer_note_id: customer_note.customer_note_id,
      customer_id: customer_note.customer_id,
      kind: customer_note.kind,
      body: customer_note.body,
      created_by: customer_note.created_by,
      author_name: author.name,
      author_last_name: author.last_name,
      created_at: customer_note.createdAt,
    })
    .from(customer_note)
    .leftJoin(author, eq(author.customer_id, customer_note.created_by))
    .where(and(eq(customer_note.customer_id, customerId), noteId === undefined ? undefined : eq(customer_note.customer_note_id, noteId)));
  return sortCustomerNotes(
    rows.map(({ author_name, author_last_name, created_at, ...row }) => ({
      ...row,
      created_by_name: author_name === null ? null : `${author_name} ${author_last_name ?? ''}`.trim(),
      created_at: created_at.toISOString(),
    })),
  );
}

/**
 * Staff write a note on a customer (POST /customer/notes, or a desk's push):
 * one row, written by the signed-in staff member, and its activity row in the
 * same transaction. A health note's text stays out of the activity log (it is
 * sensitive: the log is read by every administrator, the note only where it is needed).
 */
export async function addCustomerNote(db: Db, actor: StaffActor, input: AddCustomerNoteInput, now: Date = new Date()): Promise<CustomerNoteOutput> {
  const id = await db.transaction(async (tx) => {
    const [who] = await tx
      .select({ id: customer.customer_id })
      .from(customer)
      .where(and(eq(customer.customer_id, input.customer_id), isNull(customer.deletedAt)))
      .limit(1);
    if (!who) throw new DomainError('customer/unknown');
    const [row] = await tx
      .insert(customer_note)
      .values({ customer_id: input.customer_id, kind: input.kind, body: input.body, created_by: actor.customer_id, createdAt: actor.desk?.at ?? now })
      .returning({ id: customer_note.customer_note_id });
    if (!row) throw new Error('customer_note insert returned no row');
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'customer.note.add',
      entity: 'customer',
      entityId: input.customer_id,
      changes: { customer_note_id: row.id, kind: input.kind, ...(input.kind === 'health' ? {} : { body: input.body }) },
    });
    return row.id;
  });
  const [note] = await listCustomerNotes(db, input.customer_id, id);
  if (!note) throw new DomainError('customer-note/not-found');
  return note;
}

/**
 * Removes a note (DELETE /customer/notes/{id}, or a desk's push). The caller
 * names whose note it is; a note of another customer is not found, whoever
 * asks. Recepción removes the notes it wrote; an administrator any
 * (assertMayRemoveNote). The activity row keeps what was removed (a health
 * note's kind only).
 */
export async function removeCustomerNote(db: Db, actor: StaffActor, input: RemoveCustomerNoteInput): Promise<{ customer_note_id: number }> {
  return db.transaction(async (tx) => {
    const [note] = await tx
      .select()
      .from(customer_note)
      .where(and(eq(customer_note.customer_note_id, input.customer_note_id), eq(customer_note.customer_id, input.customer_id)))
      .for('update')
      .limit(1);
    if (!note) throw new DomainError('customer-note/not-found');
    await assertMayRemoveNote(tx, actor, note);
    await tx.delete(customer_note).where(eq(customer_note.customer_note_id, note.customer_note_id));
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'customer.note.remove',
      entity: 'customer',
      entityId: note.customer_id,
      changes: { customer_note_id: note.customer_note_id, kind: note.kind, ...(note.kind === 'health' ? {} : { body: note.body }), written_by: note.created_by },
    });
    return { customer_note_id: note.customer_note_id };
  });
}

/** The health notes staff wrote on these customers, as the coach's roster lists them beside the customer's own answers. */
export async function healthNotesOf(db: DbOrTx, customerIds: readonly number[]): Promise<Map<number, { label: string; text: string }[]>> {
  const byCustomer = new Map<number, { label: string; text: string }[]>();
  if (customerIds.length === 0) return byCustomer;
  const rows = await db
    .select({ customer_id: customer_note.customer_id, body: customer_note.body })
    .from(customer_note)
    .where(and(inArray(customer_note.customer_id, [...new Set(customerIds)]), eq(customer_note.kind, 'health')))
    .orderBy(asc(customer_note.customer_note_id));
  for (const row of rows) {
    const list = byCustomer.get(row.customer_id) ?? [];
    list.push({ label: texts.customerNotes.healthLabel, text: row.body });
    byCustomer.set(row.customer_id, list);
  }
  return byCustomer;
}
