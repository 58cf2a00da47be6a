import {
  businessDaysLeft,
  DomainError,
  localDate,
  privacyRequestDueDay,
  studioDayjs,
  studioTimeZone,
  type PrivacyRequestAdminOutput,
  type PrivacyRequestAnsweredOutput,
  type PrivacyRequestAnswerInput,
  type PrivacyRequestInput,
  type PrivacyRequestOutput,
  type PrivacyRequestStatus,
} from '@estudio/core';
import { privacyRequestAnswered } from '@estudio/core/messages/templates/privacy';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { file } from '@estudio/db/schema/content';
import { customer } from '@estudio/db/schema/customer';
import { privacy_request } from '@estudio/db/schema/privacy';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { removeFile } from '../files/files.ts';
import { messagingChannels } from '../messages/channels.ts';
import { messageContextOf } from '../messages/message-context.ts';
import { queueCustomerMessage, queueEmail } from '../messages/queue-message.ts';
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

/** Her request's answer, as the e-mail says it: on the studio's calendar ('3 de marzo de 2026'). */
const receivedOn = (at: Date, zone: string) => studioDayjs(at, zone).locale('es').format('D [de] MMMM [de] YYYY');

/**
 * The owner answers, in one transaction with the activity log: done or refused, with the text she reads. A
 * cancellation done anonymises her (anonymiseCustomer); her uploaded files go after the commit, bytes included.
 * The same transaction queues the e-mail that tells her (decision 128): which request, its outcome and the answer,
 * a necessary message. A cancellation's goes to the address she had before it was blanked, and only when the studio
 * sends e-mail: a message that might never leave would keep her address after her data was cancelled.
 */
export async function answerPrivacyRequest(db: Db, config: Config, actor: StaffActor, input: PrivacyRequestAnswerInput, now: Date = new Date()): Promise<PrivacyRequestAnsweredOutput> {
  const ctx = messageContextOf(config);
  const emailConfigured = (await messagingChannels(db, config)).email;
  const answered = await db.transaction(async (tx) => {
    const [request] = await tx.select().from(privacy_request).where(eq(privacy_request.privacy_request_id, input.privacy_request_id)).for('update');
    if (!request) throw new DomainError('privacy-request/not-found');
    if (request.status !== 'pending') throw new DomainError('privacy-request/answered');
    const anonymise = request.kind === 'cancellation' && input.status === 'done';
    // Read before anonymising: her address and name are what the last message needs.
    const [who] = await tx.select({ email: customer.email, name: customer.name }).from(customer).where(eq(customer.customer_id, request.customer_id));
    if (anonymise) await anonymiseCustomer(tx, request.customer_id, now);
    const [row] = await tx
      .update(privacy_request)
      .set({ status: input.status, answer: input.answer, answered_by: actor.customer_id, answeredAt: now, updatedAt: now })
      .where(eq(privacy_request.privacy_request_id, request.privacy_request_id))
      .returning();
    if (!row) throw new Error('privacy_request update returned nothing');

    const settings = await loadStudioSettings(tx);
    const parts = privacyRequestAnswered({
      businessName: settings.business_name,
      name: who?.name ?? null,
      kind: row.kind,
      status: input.status,
      answer: input.answer,
      receivedOn: receivedOn(row.createdAt, studioTimeZone(settings)),
      accountUrl: anonymise ? null : `${ctx.publicUrl}/mystudio/informacion`,
    });
    const dedupeKey = `privacy-answer:${row.privacy_request_id}`;
    let queued = 0;
    if (!anonymise) queued = await queueCustomerMessage(tx, ctx, { customerId: row.customer_id, parts, channels: ['email'], dedupeKey });
    else if (emailConfigured && who && !who.email.endsWith('.invalid')) queued = await queueEmail(tx, ctx, { to: who.email, parts, customerId: row.customer_id, dedupeKey });

    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'privacy-request.answer',
      entity: 'privacy_request',
      entityId: row.privacy_request_id,
      changes: { customer_id: row.customer_id, kind: row.kind, status: row.status, anonymised: anonymise, message_queued: queued > 0 },
    });
    return { row, anonymise, queued: queued > 0 };
  });
  if (answered.anonymise) {
    const files = await db.select({ id: file.file_id }).from(file).where(and(eq(file.customer_id, answered.row.customer_id)));
    for (const { id } of files) await removeFile(db, config, { customer_id: actor.customer_id, role: 'admin' }, id).catch(() => undefined);
  }
  return { privacy_request: toOutput(answered.row), message: { queued: answered.queued, email_configured: emailConfigured } };
}
