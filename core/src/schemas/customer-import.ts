import { z } from '../zod.ts';
import { bookingImportFields, creditImportFields, customerImportFields } from '../rules/import-files.ts';

/** A customers file as text, as the console read it: under the API's 1 MB body (about 12,000 customers); larger files go through the command. */
export const customerImportCsv = z
  .string({ error: 'Elige un archivo CSV.' })
  .min(1, { error: 'El archivo está vacío.' })
  .max(900_000, { error: 'El archivo es muy grande para la consola (más de 900 KB): impórtalo con el comando import-customers.' });

/** Which column (from 0) holds each field, as the person mapped them; absent: the headers are recognised. */
export const customerImportColumns = z.partialRecord(z.enum(customerImportFields), z.number().int().min(0).max(200));

export const customerImportInput = z.object({
  csv: customerImportCsv,
  columns: customerImportColumns.optional(),
  /** true: say what would happen and save nothing. */
  dry_run: z.boolean(),
});
export type CustomerImportInput = z.infer<typeof customerImportInput>;

/** One line of any import file: its fate, its reasons in Spanish, and whom it is about. */
const importLineOutput = z.object({
  line: z.number(),
  outcome: z.enum(['new', 'existing', 'repeated', 'refused']),
  reasons: z.array(z.string()),
  customer_id: z.number().nullable(),
  matched_by: z.enum(['email', 'phone']).nullable(),
  name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});
const importCounts = z.object({ new: z.number(), existing: z.number(), repeated: z.number(), refused: z.number() });

export const customerImportOutput = z.object({
  header: z.array(z.string()),
  columns: customerImportColumns,
  counts: importCounts,
  lines: z.array(importLineOutput),
});
export type CustomerImportOutput = z.infer<typeof customerImportOutput>;

/** The credits and the bookings files (decision 127): the same file, columns and dry run as the customers file. */
const recordImportInput = <F extends readonly [string, ...string[]]>(fields: F) =>
  z.object({
    csv: customerImportCsv,
    columns: z.partialRecord(z.enum(fields), z.number().int().min(0).max(200)).optional(),
    dry_run: z.boolean(),
  });

const recordImportOutput = <F extends readonly [string, ...string[]]>(fields: F) =>
  z.object({
    header: z.array(z.string()),
    columns: z.partialRecord(z.enum(fields), z.number()),
    counts: importCounts,
    /** detail: what the line brings, in Spanish ('5 clases de Barre, hasta el 31/12/2026'). */
    lines: z.array(importLineOutput.extend({ detail: z.string() })),
  });

export const creditImportInput = recordImportInput(creditImportFields);
export type CreditImportInput = z.infer<typeof creditImportInput>;
export const creditImportOutput = recordImportOutput(creditImportFields);
export type CreditImportOutput = z.infer<typeof creditImportOutput>;
export const bookingImportInput = recordImportInput(bookingImportFields);
export type BookingImportInput = z.infer<typeof bookingImportInput>;
export const bookingImportOutput = recordImportOutput(bookingImportFields);
export type BookingImportOutput = z.infer<typeof bookingImportOutput>;
