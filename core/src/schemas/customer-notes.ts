import { z } from '../zod.ts';
import { bodyId, id, isoDateTime } from './fields.ts';

/**
 * Notes and alerts staff keep on a customer: a plain note (a preference), an
 * alert (shown at every scan: "debe dinero", "lesión de rodilla") or a health
 * note, which is sensitive: staff and the coach of a class the customer is
 * booked in read it; the customer's own answers never carry it.
 */
export const customerNoteKinds = ['note', 'alert', 'health'] as const;
export type CustomerNoteKind = (typeof customerNoteKinds)[number];
export const customerNoteKind = z.enum(customerNoteKinds, { error: 'Elige si es una nota, una alerta o una nota de salud.' });

/**
 * The kinds a desk keeps in its replica and may write offline; a health note goes to the server only, with the
 * connection (decision 087: health data does not sit on the reception PC's disk).
 */
export const deskNoteKind = z.enum(['note', 'alert'], { error: 'Las notas de salud se guardan en el servidor: necesitan conexión.' });

/** The longest note: a few lines at the counter, not a file. */
export const customerNoteMaxLength = 500;
export const customerNoteBody = z
  .string({ error: 'Escribe la nota.' })
  .trim()
  .min(1, { error: 'Escribe la nota.' })
  .max(customerNoteMaxLength, { error: `La nota puede tener hasta ${customerNoteMaxLength} caracteres.` });

/** The kinds shown at the counter's scan, beside the verdict. */
export const noteKindsShownAtScan: readonly CustomerNoteKind[] = ['alert', 'health'];

/** POST /customer/notes */
export const customerNoteCreateInput = z.strictObject({ customer_id: bodyId, kind: customerNoteKind, body: customerNoteBody });
/** DELETE /customer/notes/{id}?customer_id=: whose note it is, checked against the note. */
export const customerNoteRemoveInput = z.strictObject({ id, customer_id: id });

export const customerNoteOutput = z.object({
  customer_note_id: z.number().int(),
  customer_id: z.number().int(),
  kind: customerNoteKind,
  body: z.string(),
  created_by: z.number().int().nullable(),
  /** "Name Last name" of who wrote it; null when that account is gone. */
  created_by_name: z.string().nullable(),
  created_at: isoDateTime,
});
export type CustomerNoteOutput = z.infer<typeof customerNoteOutput>;
export const customerNotesOutput = z.object({ notes: z.array(customerNoteOutput) });
export const customerNoteEnvelope = z.object({ note: customerNoteOutput });

/** Alerts first, then health notes, then notes; the newest first within each. */
export function sortCustomerNotes<T extends { kind: CustomerNoteKind; created_at: string | Date; customer_note_id: number }>(notes: readonly T[]): T[] {
  const rank: Record<CustomerNoteKind, number> = { alert: 0, health: 1, note: 2 };
  return [...notes].sort(
    (a, b) => rank[a.kind] - rank[b.kind] || new Date(b.created_at).getTime() - new Date(a.created_at).getTime() || b.customer_note_id - a.customer_note_id,
  );
}
