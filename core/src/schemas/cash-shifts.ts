import { z } from '../zod.ts';
import { fromCents, toCents } from '../rules/money.ts';
import { id, isoDateTime, money as moneyText } from './fields.ts';

/**
 * A shift at the cash drawer (turno de caja): a staff member opens it with the
 * float in the drawer, the desk's cash sales and cash refunds made by that
 * person while it is open belong to it, and it closes with the cash counted.
 * Cards, terminals, transfers, OXXO and SPEI are listed beside it but never
 * counted as drawer cash.
 */

/** An amount of pesos typed at the counter: "500", "500.5", "1,250.00", 0 included. */
export const drawerAmount = (what: string) =>
  z
    .union([z.string().trim(), z.number()], { error: `Escribe ${what} en pesos.` })
    .transform((v) => (typeof v === 'number' ? String(v) : v.replace(/[$,\s]/g, '')))
    .refine((v) => /^\d{1,8}(\.\d{1,2})?$/.test(v), { error: `Escribe ${what} en pesos, con hasta dos decimales.` })
    .transform((v) => fromCents(toCents(v)));

/** Why the count differs from what was expected: required when it does. */
export const cashShiftNote = z
  .string({ error: 'Escribe por qué no cuadra la caja.' })
  .trim()
  .max(500, { error: 'La explicación puede tener hasta 500 caracteres.' });

/** POST /cash_shifts */
export const cashShiftOpenInput = z.strictObject({ opening_float: drawerAmount('el fondo inicial') });
/** PUT /cash_shifts/{id}/close */
export const cashShiftCloseInput = z.strictObject({ id, counted_cash: drawerAmount('el efectivo contado'), note: cashShiftNote.nullish() });
/** GET /cash_shifts?from=&to=&staff_id=: Recepción reads its own shifts; an administrator every shift. */
export const cashShiftListInput = z.strictObject({
  from: z.iso.date({ error: 'La fecha inicial debe ser AAAA-MM-DD.' }).optional(),
  to: z.iso.date({ error: 'La fecha final debe ser AAAA-MM-DD.' }).optional(),
  staff_id: z.coerce.number({ error: 'El miembro del personal debe ser un número.' }).int().positive().optional(),
});
export const cashShiftIdInput = z.strictObject({ id });

const moneyCount = z.object({ count: z.number().int(), total: moneyText });

export const cashShiftLine = z.object({
  kind: z.enum(['sale', 'refund']),
  at: isoDateTime,
  /** The purchase of a package sold or refunded; null for a product line. */
  purchase_id: z.number().int().nullable(),
  /** The product line of a counter sale; null for a package. */
  product_sale_id: z.number().int().nullable(),
  customer: z.string(),
  title: z.string(),
  amount: moneyText,
  /** How it was paid: only 'cash' is drawer money. */
  method: z.string(),
  /** A card on the counter's terminal: its slip's last four digits and authorization; null otherwise. */
  terminal: z.object({ last4: z.string(), authorization: z.string() }).nullable(),
  in_drawer: z.boolean(),
});

export const cashShiftOutput = z.object({
  cash_shift_id: z.number().int(),
  staff_id: z.number().int().nullable(),
  staff_name: z.string().nullable(),
  opened_at: isoDateTime,
  opening_float: moneyText,
  closed_at: isoDateTime.nullable(),
  closed_by: z.number().int().nullable(),
  cash_sales: moneyCount,
  cash_refunds: moneyCount,
  /** Sales taken in the shift by card, terminal or transfer: listed to match the terminal's slip, never drawer cash. */
  other_sales: moneyCount,
  /** Float plus cash sales minus cash refunds: what should be in the drawer (at the close, as it stood then). */
  expected_cash: moneyText,
  counted_cash: moneyText.nullable(),
  /** Counted minus expected: negative is missing money. */
  difference: moneyText.nullable(),
  note: z.string().nullable(),
  lines: z.array(cashShiftLine),
});
export type CashShiftOutput = z.infer<typeof cashShiftOutput>;
export const cashShiftEnvelope = z.object({ cash_shift: cashShiftOutput });
export const cashShiftCurrentOutput = z.object({ cash_shift: cashShiftOutput.nullable() });
export const cashShiftsOutput = z.object({ cash_shifts: z.array(cashShiftOutput) });

/** A close whose count does not balance needs a word on why; true when that word is missing. */
export function drawerNoteMissing(differenceCents: number, note: string | null | undefined): boolean {
  return differenceCents !== 0 && !note?.trim();
}

/** Counted minus expected, in cents: the drawer's difference. */
export function drawerDifferenceCents(countedCash: string, expectedCash: string): number {
  return toCents(countedCash) - toCents(expectedCash);
}


/**
 * The change to hand back for cash received at the counter, in cents; null when
 * the customer gave less than the total (the sale waits for the rest).
 */
export function changeDueCents(totalCents: number, tenderedCents: number): number | null {
  return tenderedCents >= totalCents ? tenderedCents - totalCents : null;
}
