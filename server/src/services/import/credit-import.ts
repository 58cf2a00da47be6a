import { type CreditImportInput, type CreditImportOutput, foldHeader, importDayText, parseCsv, readCreditRow, recognizeCreditColumns, type CreditImportField, type ImportedCredit } from '@estudio/core';
import { isNull } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { syncUnlimitedMembership } from '../credits/credit-rules.ts';
import { lockCustomers } from '../reservations/booking-locks.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { chunks } from '../chunks.ts';
import {
  claimImportLines,
  consoleImportOutput,
  countOutcomes,
  customersByContact,
  endOfStudioDay,
  importBatchSize,
  importedEarlierReason,
  importedKeys,
  importedMeanwhileReason,
  linkImportLines,
  studioToday,
  unknownCustomerReason,
  type RecordImportLine,
} from './import-lines.ts';

type Columns = Partial<Record<CreditImportField, number>>;

export interface CreditImportPlan {
  header: string[];
  columns: Columns;
  lines: (RecordImportLine & { credit: ImportedCredit | null; key: string | null; class_type_id: number | null; credits: number | null })[];
  counts: ReturnType<typeof countOutcomes>;
  tz: string;
}

const creditDetail = (credits: number, expires: string | null, typeName: string | null, packageTitle: string | null) =>
  [
    credits === -1 ? 'Ilimitado' : `${credits} ${credits === 1 ? 'clase' : 'clases'}`,
    typeName ? ` de ${typeName}` : '',
    expires ? `, hasta el ${importDayText(expires)}` : ', sin vencimiento',
    packageTitle ? ` (${packageTitle})` : '',
  ].join('');

/**
 * The credits file's dry run (decision 127): each line is a balance of classes (or a running unlimited membership)
 * that will be given to the customer it names, one already brought over by an earlier run, or refused with its
 * reasons: a customer the studio does not have, a class type or package it does not sell, a balance already expired.
 */
export async function planCreditImport(db: Db, csv: string, columns?: Columns, now: Date = new Date()): Promise<CreditImportPlan> {
  const [header = [], ...rows] = parseCsv(csv);
  const mapping = columns ?? recognizeCreditColumns(header);
  const { tz, today } = await studioToday(db, now);
  const read = rows.map((row, i) => ({ line: i + 2, result: readCreditRow(row, mapping, today) }));
  const find = await customersByContact(db, read.flatMap((r) => (r.result.ok ? [r.result.credit] : [])));
  const types = new Map((await db.select({ id: class_type.class_type_id, name: class_type.name }).from(class_type)).map((t) => [foldHeader(t.name), t]));
  const packages = new Map(
    (await db.select({ id: class_package.class_package_id, title: class_package.title, amount: class_package.class_amount }).from(class_package).where(isNull(class_package.deletedAt))).map((p) => [
      foldHeader(p.title),
      p,
    ]),
  );
  const occurrences = new Map<string, number>();
  const lines: CreditImportPlan['lines'] = read.map(({ line, result }) => {
    const blank = { line, customer_id: null, matched_by: null, name: null, last_name: null, email: null, phone: null, detail: '', credit: null, key: null, class_type_id: null, credits: null };
    if (!result.ok) return { ...blank, email: result.contact.email, phone: result.contact.phone, outcome: 'refused', reasons: result.reasons };
    const c = result.credit;
    const reasons: string[] = [];
    const found = find(c);
    if (!found) reasons.push(unknownCustomerReason(c));
    const type = c.class_type ? types.get(foldHeader(c.class_type)) : undefined;
    if (c.class_type && !type) reasons.push(`El estudio no tiene el tipo de clase «${c.class_type}»: créalo en Tipos de clase o corrige el nombre.`);
    const pack = c.package ? packages.get(foldHeader(c.package)) : undefined;
    if (c.package && !pack) reasons.push(`El estudio no tiene el paquete «${c.package}»: créalo en Paquetes o corrige el nombre.`);
    const credits = c.credits ?? (pack?.amount === -1 ? -1 : null);
    if (credits === null && pack) reasons.push(`Falta el número de clases que le quedan del paquete «${pack.title}».`);
    if (credits === -1 && !c.expires) reasons.push('Una membresía ilimitada necesita su fecha de fin.');
    const who = found?.who;
    const person = who ? { customer_id: who.customer_id, matched_by: found.by, name: who.name, last_name: who.last_name, email: who.email, phone: who.phone } : { email: c.email, phone: c.phone };
    if (reasons.length || !who || credits === null) return { ...blank, ...person, outcome: 'refused', reasons, credit: c };
    // The same balance twice for one person is two balances (two packages alike): which time it appears is in its key.
    const content = [who.customer_id, credits, c.expires ?? '', type?.id ?? '', pack?.id ?? ''].join('|');
    const n = (occurrences.get(content) ?? 0) + 1;
    occurrences.set(content, n);
    const detail = creditDetail(credits, c.expires, type ? c.class_type : null, pack?.title ?? null);
    return { ...blank, ...person, outcome: 'new', reasons: [], detail, credit: c, key: `${content}#${n}`, class_type_id: type?.id ?? null, credits };
  });
  const already = await importedKeys(
    db,
    'credit',
    lines.flatMap((l) => (l.key ? [l.key] : [])),
  );
  for (const l of lines) {
    if (l.key && already.has(l.key)) {
      l.outcome = 'existing';
      l.reasons = [importedEarlierReason];
    }
  }
  return { header, columns: mapping, lines, counts: countOutcomes(lines), tz };
}

/**
 * The real run: each new balance given as a credit row of its customer, one transaction per batch, customers locked
 * first in one order (as every booking locks), the line's key kept so a second run gives nothing twice, and the
 * batch in the activity log. An unlimited membership makes her a member until its end date. Nobody is e-mailed.
 */
export async function runCreditImport(db: Db, actor: StaffActor, csv: string, options: { columns?: Columns; batchSize?: number; now?: Date } = {}): Promise<CreditImportPlan> {
  const now = options.now ?? new Date();
  const plan = await planCreditImport(db, csv, options.columns, now);
  const fresh = plan.lines.filter((l) => l.outcome === 'new');
  for (const batch of chunks(fresh, options.batchSize ?? importBatchSize)) {
    await db.transaction(async (tx) => {
      await lockCustomers(
        tx as Tx,
        batch.map((l) => l.customer_id!),
      );
      const claimed = await claimImportLines(
        tx,
        'credit',
        batch.map((l) => l.key!),
      );
      const mine = batch.filter((l) => claimed.has(l.key!));
      for (const l of batch) {
        if (!claimed.has(l.key!)) {
          l.outcome = 'existing';
          l.reasons = [importedMeanwhileReason];
        }
      }
      if (!mine.length) return;
      const made = await tx
        .insert(available_classes)
        .values(
          mine.map((l) => ({
            customer_id: l.customer_id!,
            available_classes: l.credits!,
            expiration_date: l.credit!.expires ? endOfStudioDay(l.credit!.expires, plan.tz) : null,
            class_type_id: l.class_type_id,
          })),
        )
        .returning({ id: available_classes.available_class_id });
      // The rows come back in the order they were given: each claimed line names the credit row it made.
      await linkImportLines(
        tx,
        mine.map((l, k) => ({ lineId: claimed.get(l.key!)!, entityId: made[k]!.id })),
      );
      for (const customerId of new Set(mine.filter((l) => l.credits === -1).map((l) => l.customer_id!))) await syncUnlimitedMembership(tx, customerId, now);
      await recordAudit(tx, {
        ...auditedBy(actor),
        action: 'credits.import',
        entity: 'customer',
        entityId: null,
        changes: { given: mine.length, lines: mine.map((l, k) => ({ line: l.line, customer_id: l.customer_id, available_class_id: made[k]?.id ?? null, detail: l.detail })) },
      });
    });
  }
  plan.counts = countOutcomes(plan.lines);
  return plan;
}

/** The console's import (POST /api/import/credits): the dry run or the real run, each line as the screen lists it. */
export async function importCreditsFromConsole(db: Db, actor: StaffActor, input: CreditImportInput): Promise<CreditImportOutput> {
  const plan = input.dry_run ? await planCreditImport(db, input.csv, input.columns) : await runCreditImport(db, actor, input.csv, input.columns ? { columns: input.columns } : {});
  return consoleImportOutput(plan);
}
