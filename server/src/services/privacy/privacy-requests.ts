import {
  businessDaysLeft,
  DomainError,
  localDate,
  privacyRequestDueDay,
  studioTimeZone,
  type PrivacyRequestAdminOutput,
  type PrivacyRequestAnswerInput,
  type PrivacyRequestInput,
  type PrivacyRequestOutput,
  type PrivacyRequestStatus,
} from '@estudio/core';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { file } from '@estudio/db/schema/content';
import { customer } from '@estudio/db/schema/customer';
import { privacy_request } from '@estudio/db/schema/privacy';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { removeFile } from '../files/files.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { anonymiseCustomer } from './anonymise-customer.ts';

type Row = typeof privacy_request.$inferSelect;

function toOutput(row: Row): PrivacyRequestOutput {
  return {
    privacy_request_id: row.privacy_request_id,
    customer_id: row.customer_id,
    kind: row.kind,
    details: row.details,
    status: row.status,
    due_on: row.due_on,
    answer: row.answer,
    answeredAt: row.answeredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

const studioDay = async (db: Db, now: Date) => localDate(now, studioTimeZone(await loadStudioSettings(db)));

/** Requests waiting for an answer one customer may have: enough for every right at once, not a flood. */
export const pendingPrivacyRequestsLimit = 5;

/**
 * She asks, from Mi Información: recorded with the day the law's deadline falls on, counted from the studio's today.
 * The count of her pending requests is checked under a lock on her row, so parallel sends cannot pass it together.
 */
export async function submitPrivacyRequest(db: Db, customerId: number, input: PrivacyRequestInput, now: Date = new Date()): Promise<PrivacyRequestOutput> {
  const dueOn = privacyRequestDueDay(await studioDay(db, now));
  return db.transaction(async (tx) => {
    await tx.select({ id: customer.customer_id }).from(customer).where(eq(customer.customer_id, customerId)).for('update');
    const [pending] = await tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(privacy_request)
      .where(and(eq(privacy_request.customer_id, customerId), eq(privacy_request.status, 'pending')));
    if ((pending?.n ?? 0) >= pendingPrivacyRequestsLimit) throw new DomainError('privacy-request/too-many');
    const [row] = await tx
    .insert(privacy_request)
      .values({ customer_id: customerId, kind: input.kind, details: input.details, due_on: dueOn, createdAt: now, updatedAt: now })
      .returning();
    if (!row) throw new Error('privacy_request insert returned nothing');
    return toOutput(row);
  });
}

/** Her requests, newest first, with the studio's answers. */
export async function listOwnPrivacyRequests(db: Db, customerId: number): Promise<PrivacyRequestOutput[]> {
  const rows = await db.select().from(privacy_request).where(eq(privacy_request.customer_id, customerId)).orderBy(desc(privacy_request.createdAt), desc(privacy_request.privacy_request_id));
  return rows.map(toOutput);
}

/** The owner's list: pending first by deadline (the latest late at the top), then the answered, newest first. */
export async function listPrivacyRequests(db: Db, filter: { status?: PrivacyRequestStatus | undefined }, now: Date = new Date()): Promise<PrivacyRequestAdminOutput[]> {
  const today = await studioDay(db, now);
  const rows = await db
    .select({ request: privacy_request, name: customer.name, last_name: customer.last_name, email: customer.email })
    .from(privacy_request)
    .innerJoin(customer, eq(customer.customer_id, privacy_request.customer_id))
    .where(filter.status ? eq(privacy_request.status, filter.status) : undefined)
    .orderBy(sql`${privacy_request.status} <> 'pending'`, asc(sql`case when ${privacy_request.status} = 'pending' then ${privacy_request.due_on} end`), desc(privacy_request.createdAt))
    .limit(500);
  return rows.map((r) => ({
    ...toOutput(r.request),
    customer_name: `${r.name} ${r.last_name}`.trim(),
    customer_email: r.email,
    business_days_left: r.request.status === 'pending' ? businessDaysLeft(today, r.request.due_on) : 0,
  }));
}

/**
 * The owner answers, in one transaction with the activity log: done or refused, with the text she reads. A
 * cancellation done anonymises her (anonymiseCustomer); her uploaded files go after the commit, bytes included.
 */
export async function answerPrivacyRequest(db: Db, config: Config, actor: StaffActor, input: PrivacyRequestAnswerInput, now: Date = new Date()): Promise<PrivacyRequestOutput> {
  const answered = await db.transaction(async (tx) => {
    const [request] = await tx.select().from(privacy_request).where(eq(privacy_request.privacy_request_id, input.privacy_request_id)).for('update');
    if (!request) throw new DomainError('privacy-request/not-found');
    if (request.status !== 'pending') throw new DomainError('privacy-request/answered');
    const anonymise = request.kind === 'cancellation' && input.status === 'done';
    if (anonymise) await anonymiseCustomer(tx, request.customer_id, now);
    const [row] = await tx
      .update(privacy_request)
      .set({ status: input.status, answer: input.answer, answered_by: actor.customer_id, answeredAt: now, updatedAt: now })
      .where(eq(privacy_request.privacy_request_id, request.privacy_request_id))
      .returning();
    if (!row) throw new Error('privacy_request update returned nothing');
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'privacy-request.answer',
      entity: 'privacy_request',
      entityId: row.privacy_request_id,
      changes: { customer_id: row.customer_id, kind: row.kind, status: row.status, anonymised: anonymise },
    });
    return { row, anonymise };
  });
  if (answered.anonymise) {
    const files = await db.select({ id: file.file_id }).from(file).where(and(eq(file.customer_id, answered.row.customer_id)));
    for (const { id } of files) await removeFile(db, config, { customer_id: actor.customer_id, role: 'admin' }, id).catch(() => undefined);
  }
  return toOutput(answered.row);
}
