import { localDate, studioDayRange, studioTimeZone, type ImportContact } from '@estudio/core';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { import_line, type importLineKinds } from '@estudio/db/schema/imports';
import type { Db } from '../../db.ts';
import { chunks } from '../chunks.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/** Lines a real run writes per transaction, each batch with its line in the activity log. */
export const importBatchSize = 500;
/** Values an IN list of the imports' lookups carries. */
export const importLookupSize = 1000;

export const importedEarlierReason = 'Ya se importó en una corrida anterior.';
export const importedMeanwhileReason = 'Otra importación la trajo al mismo tiempo.';

/** What the credits and bookings imports say about one line of their file (its number as a spreadsheet shows it). */
export interface RecordImportLine {
  line: number;
  outcome: 'new' | 'existing' | 'repeated' | 'refused';
  reasons: string[];
  customer_id: number | null;
  matched_by: 'email' | 'phone' | null;
  name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  /** What the line brings, in Spanish: '5 clases de Barre, hasta el 31/12/2026'. */
  detail: string;
}

/** A plan as the console's screen and the API list it: each line's fate, whom and what, without what the run keeps. */
export function consoleImportOutput<C>(plan: { header: string[]; columns: C; counts: ReturnType<typeof countOutcomes>; lines: readonly RecordImportLine[] }) {
  return {
    header: plan.header,
    columns: plan.columns,
    counts: plan.counts,
    lines: plan.lines.map(({ line, outcome, reasons, customer_id, matched_by, name, last_name, email, phone, detail }) => ({ line, outcome, reasons, customer_id, matched_by, name, last_name, email, phone, detail })),
  };
}

export const countOutcomes = (lines: readonly Pick<RecordImportLine, 'outcome'>[]) => ({
  new: lines.filter((l) => l.outcome === 'new').length,
  existing: lines.filter((l) => l.outcome === 'existing').length,
  repeated: lines.filter((l) => l.outcome === 'repeated').length,
  refused: lines.filter((l) => l.outcome === 'refused').length,
});

export interface KnownCustomer {
  customer_id: number;
  name: string;
  last_name: string;
  email: string;
  phone: string | null;
  has_unlimited: boolean;
}

/**
 * The studio's customers with any of these e-mails or phones, `live` only or deleted ones too (a deleted customer's
 * e-mail and phone stay taken), in lookups of {@link importLookupSize}.
 */
export async function customersWithContacts(db: Db, contacts: readonly ImportContact[], live: boolean): Promise<KnownCustomer[]> {
  const emails = [...new Set(contacts.flatMap((c) => (c.email ? [c.email] : [])))];
  const phones = [...new Set(contacts.flatMap((c) => (c.phone ? [c.phone] : [])))];
  const found: KnownCustomer[] = [];
  const emailLists = chunks(emails, importLookupSize);
  const phoneLists = chunks(phones, importLookupSize);
  for (let i = 0; i < Math.max(emailLists.length, phoneLists.length); i++) {
    const someEmails = emailLists[i] ?? [];
    const somePhones = phoneLists[i] ?? [];
    const rows = await db
      .select({
        customer_id: customer.customer_id,
        name: customer.name,
        last_name: customer.last_name,
        email: customer.email,
        phone: customer.phone,
        has_unlimited: customer.has_unlimited,
      })
      .from(customer)
      .where(
        and(
          live ? isNull(customer.deletedAt) : undefined,
          or(someEmails.length ? inArray(customer.email, someEmails) : undefined, somePhones.length ? inArray(customer.phone, somePhones) : undefined),
        ),
      );
    found.push(...rows);
  }
  return found;
}

/** Finds a contact among customers: by e-mail first, then by phone. */
export function contactFinder(customers: readonly KnownCustomer[]) {
  const byEmail = new Map<string, KnownCustomer>();
  const byPhone = new Map<string, KnownCustomer>();
  for (const c of customers) {
    byEmail.set(c.email, c);
    if (c.phone) byPhone.set(c.phone, c);
  }
  return (contact: ImportContact): { who: KnownCustomer; by: 'email' | 'phone' } | null => {
    const mail = contact.email ? byEmail.get(contact.email) : undefined;
    if (mail) return { who: mail, by: 'email' };
    const tel = contact.phone ? byPhone.get(contact.phone) : undefined;
    return tel ? { who: tel, by: 'phone' } : null;
  };
}

/**
 * The studio's live customers a file names, by e-mail and by phone. Credits and bookings belong to customers the
 * studio has: the customers file comes first.
 */
export async function customersByContact(db: Db, contacts: readonly ImportContact[]) {
  return contactFinder(await customersWithContacts(db, contacts, true));
}

export const unknownCustomerReason = (contact: ImportContact) =>
  `No hay ningún cliente con ${contact.email ? `el correo ${contact.email}` : `el teléfono ${contact.phone ?? ''}`}: importa primero el archivo de clientes.`;

/** The keys of `kind` already imported, among `keys`. */
export async function importedKeys(db: Db, kind: (typeof importLineKinds)[number], keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const some of chunks(keys, importLookupSize)) {
    const rows = await db
      .select({ key: import_line.key })
      .from(import_line)
      .where(and(eq(import_line.kind, kind), inArray(import_line.key, some)));
    for (const r of rows) found.add(r.key);
  }
  return found;
}

/**
 * Claims lines for this run, in its transaction: each key not imported yet gets its row (its record named later by
 * linkImportLines); a key another run claimed first is left out. Returns each claimed key's line id.
 */
export async function claimImportLines(tx: Db, kind: (typeof importLineKinds)[number], keys: readonly string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const claimed = await tx
    .insert(import_line)
    .values(keys.map((key) => ({ kind, key, entity_id: 0 })))
    .onConflictDoNothing()
    .returning({ id: import_line.import_line_id, key: import_line.key });
  return new Map(claimed.map((c) => [c.key, c.id]));
}

/** Names the record each claimed line made (the credit row or the booking), in one statement. */
export async function linkImportLines(tx: Db, made: readonly { lineId: number; entityId: number }[]): Promise<void> {
  if (made.length === 0) return;
  const lineIds = `{${made.map((m) => m.lineId).join(',')}}`;
  const entityIds = `{${made.map((m) => m.entityId).join(',')}}`;
  await tx.execute(
    sql`update ${import_line} set entity_id = made.entity_id from (select unnest(${lineIds}::int[]) as line_id, unnest(${entityIds}::int[]) as entity_id) as made where ${import_line.import_line_id} = made.line_id`,
  );
}

/** The studio's zone and today's date on its calendar. */
export async function studioToday(db: Db, now: Date): Promise<{ tz: string; today: string }> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  return { tz, today: localDate(now, tz) };
}

/** The instant a day ends on the studio's clock: a credit 'until 31/12' is good all that day. */
export const endOfStudioDay = (day: string, tz: string): Date => new Date(studioDayRange(day, day, tz).to.getTime() + 1);
