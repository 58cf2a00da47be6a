import { localDate, studioDayRange, studioTimeZone, type ImportContact } from '@estudio/core';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { import_line, type importLineKinds } from '@estudio/db/schema/imports';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

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

export const countOutcomes = (lines: readonly RecordImportLine[]) => ({
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
 * The studio's live customers a file names, by e-mail and by phone. Credits and bookings belong to customers the
 * studio has: the customers file comes first.
 */
export async function customersByContact(db: Db, contacts: readonly ImportContact[]) {
  const emails = [...new Set(contacts.flatMap((c) => (c.email ? [c.email] : [])))];
  const phones = [...new Set(contacts.flatMap((c) => (c.phone ? [c.phone] : [])))];
  const byEmail = new Map<string, KnownCustomer>();
  const byPhone = new Map<string, KnownCustomer>();
  const columns = {
    customer_id: customer.customer_id,
    name: customer.name,
    last_name: customer.last_name,
    email: customer.email,
    phone: customer.phone,
    has_unlimited: customer.has_unlimited,
  };
  for (let i = 0; i < Math.max(emails.length, phones.length); i += 1000) {
    const someEmails = emails.slice(i, i + 1000);
    const somePhones = phones.slice(i, i + 1000);
    const match = [someEmails.length ? inArray(customer.email, someEmails) : null, somePhones.length ? inArray(customer.phone, somePhones) : null].filter((m) => m !== null);
    const rows = await db
      .select(columns)
      .from(customer)
      .where(and(isNull(customer.deletedAt), match.length === 2 ? sql`(${match[0]} or ${match[1]})` : match[0]));
    for (const r of rows) {
      byEmail.set(r.email, r);
      if (r.phone) byPhone.set(r.phone, r);
    }
  }
  return (contact: ImportContact): { who: KnownCustomer; by: 'email' | 'phone' } | null => {
    const mail = contact.email ? byEmail.get(contact.email) : undefined;
    if (mail) return { who: mail, by: 'email' };
    const tel = contact.phone ? byPhone.get(contact.phone) : undefined;
    return tel ? { who: tel, by: 'phone' } : null;
  };
}

export const unknownCustomerReason = (contact: ImportContact) =>
  `No hay ningún cliente con ${contact.email ? `el correo ${contact.email}` : `el teléfono ${contact.phone ?? ''}`}: importa primero el archivo de clientes.`;

/** The keys of `kind` already imported, among `keys`. */
export async function importedKeys(db: Db, kind: (typeof importLineKinds)[number], keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 1000) {
    const rows = await db
      .select({ key: import_line.key })
      .from(import_line)
      .where(and(eq(import_line.kind, kind), inArray(import_line.key, keys.slice(i, i + 1000))));
    for (const r of rows) found.add(r.key);
  }
  return found;
}

/** The studio's zone and today's date on its calendar. */
export async function studioToday(db: Db, now: Date): Promise<{ tz: string; today: string }> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  return { tz, today: localDate(now, tz) };
}

/** The instant a day ends on the studio's clock: a credit 'until 31/12' is good all that day. */
export const endOfStudioDay = (day: string, tz: string): Date => new Date(studioDayRange(day, day, tz).to.getTime() + 1);
