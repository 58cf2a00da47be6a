import { parseCsv, readCustomerRow, recognizeCustomerColumns, type CustomerImportField, type CustomerImportInput, type CustomerImportOutput, type ImportedCustomer } from '@estudio/core';
import { customer, customer_note } from '@estudio/db/schema/customer';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { chunks } from '../chunks.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { contactFinder, countOutcomes, customersWithContacts, importBatchSize } from './import-lines.ts';

/** What the import does with one line of the file (its number as a spreadsheet shows it: the header is line 1). */
export interface CustomerImportLine {
  line: number;
  outcome: 'new' | 'existing' | 'repeated' | 'refused';
  reasons: string[];
  customer: ImportedCustomer | null;
  /** The customer it is (existing, or created by the real run). */
  customer_id: number | null;
  matched_by: 'email' | 'phone' | null;
}

export interface CustomerImportPlan {
  /** The file's first line, as written: the names the person maps columns by. */
  header: string[];
  columns: Partial<Record<CustomerImportField, number>>;
  lines: CustomerImportLine[];
  counts: Record<CustomerImportLine['outcome'], number>;
}

/**
 * The dry run (decision 125): what importing this customers file would do, line by line, writing nothing. Each
 * line is a new customer, one the studio already has (by e-mail, then phone), a repeat of an earlier line, or
 * refused with its reasons in Spanish. `columns` maps the fields by hand; by default the headers are recognised.
 */
export async function planCustomerImport(db: Db, csv: string, columns?: Partial<Record<CustomerImportField, number>>): Promise<CustomerImportPlan> {
  const [header = [], ...rows] = parseCsv(csv);
  const mapping = columns ?? recognizeCustomerColumns(header);
  const read = rows.map((row, i) => ({ line: i + 2, result: readCustomerRow(row, mapping) }));
  const ready = read.flatMap((r) => (r.result.ok ? [r.result.customer] : []));
  // Deleted customers too: their e-mail and phone stay taken.
  const find = contactFinder(await customersWithContacts(db, ready, false));
  const seenEmail = new Map<string, number>();
  const seenPhone = new Map<string, number>();
  const lines = read.map(({ line, result }): CustomerImportLine => {
    if (!result.ok) return { line, outcome: 'refused', reasons: result.reasons, customer: null, customer_id: null, matched_by: null };
    const c = result.customer;
    const earlier = (c.email && seenEmail.get(c.email)) || (c.phone && seenPhone.get(c.phone));
    if (c.email && !seenEmail.has(c.email)) seenEmail.set(c.email, line);
    if (c.phone && !seenPhone.has(c.phone)) seenPhone.set(c.phone, line);
    if (earlier) return { line, outcome: 'repeated', reasons: [`Es la misma persona que la línea ${earlier}.`], customer: c, customer_id: null, matched_by: null };
    const found = find(c);
    if (found) return { line, outcome: 'existing', reasons: [], customer: c, customer_id: found.who.customer_id, matched_by: found.by };
    if (!c.email) return { line, outcome: 'refused', reasons: ['Falta el correo: lo necesita su cuenta nueva.'], customer: c, customer_id: null, matched_by: null };
    return { line, outcome: 'new', reasons: [], customer: c, customer_id: null, matched_by: null };
  });
  return { header, columns: mapping, lines, counts: countOutcomes(lines) };
}

/**
 * The real run: the dry run's new customers created, one transaction per batch with its line in the activity log.
 * Run again on the same file, it creates nobody twice: they are then the studio's (by e-mail or phone), and a
 * customer created meanwhile by someone else is skipped by the unique e-mail and phone. Nobody is e-mailed.
 */
export async function runCustomerImport(
  db: Db,
  actor: StaffActor,
  csv: string,
  options: { columns?: Partial<Record<CustomerImportField, number>>; batchSize?: number } = {},
): Promise<CustomerImportPlan> {
  const plan = await planCustomerImport(db, csv, options.columns);
  const fresh = plan.lines.filter((l) => l.outcome === 'new');
  for (const batch of chunks(fresh, options.batchSize ?? importBatchSize)) {
    await db.transaction(async (tx) => {
      const made = await tx
        .insert(customer)
        .values(batch.map(({ customer: c }) => ({ uid: null, name: c!.name, last_name: c!.last_name, email: c!.email!, phone: c!.phone, birthdate: c!.birthdate })))
        .onConflictDoNothing()
        .returning({ id: customer.customer_id, email: customer.email });
      const idByEmail = new Map(made.map((m) => [m.email, m.id]));
      for (const l of batch) {
        const id = idByEmail.get(l.customer!.email!);
        if (id) l.customer_id = id;
        else {
          l.outcome = 'existing';
          l.reasons = ['Alguien la registró mientras se importaba.'];
        }
      }
      const notes = batch.flatMap((l) => (l.customer_id && l.customer?.notes ? [{ customer_id: l.customer_id, kind: 'note' as const, body: l.customer.notes.slice(0, 500), created_by: actor.customer_id }] : []));
      if (notes.length) await tx.insert(customer_note).values(notes);
      await recordAudit(tx, {
        ...auditedBy(actor),
        action: 'customer.import',
        entity: 'customer',
        entityId: null,
        changes: { created: made.length, lines: batch.filter((l) => l.customer_id && l.outcome === 'new').map((l) => ({ line: l.line, customer_id: l.customer_id })) },
      });
    });
  }
  plan.counts = countOutcomes(plan.lines);
  return plan;
}

/** The console's import (POST /api/import/customers): the dry run or the real run, each line as the screen lists it. */
export async function importCustomersFromConsole(db: Db, actor: StaffActor, input: CustomerImportInput): Promise<CustomerImportOutput> {
  const options = input.columns ? { columns: input.columns } : {};
  const plan = input.dry_run ? await planCustomerImport(db, input.csv, input.columns) : await runCustomerImport(db, actor, input.csv, options);
  return {
    header: plan.header,
    columns: plan.columns,
    counts: plan.counts,
    lines: plan.lines.map((l) => ({
      line: l.line,
      outcome: l.outcome,
      reasons: l.reasons,
      customer_id: l.customer_id,
      matched_by: l.matched_by,
      name: l.customer?.name ?? null,
      last_name: l.customer?.last_name ?? null,
      email: l.customer?.email ?? null,
      phone: l.customer?.phone ?? null,
    })),
  };
}
