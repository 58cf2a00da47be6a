import { DomainError, messageKinds, outboxPageSize, withoutPrivateLinks, type MessageKind, type OutboxMessageOutput } from '@estudio/core';
import { and, count, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { Actor } from '../admin-schedule/save-class.ts';

type OutboxRow = typeof outbox_message.$inferSelect;

/** The kind's Spanish name; a kind no longer in the catalogue reads as a plain message, never as its key. */
const kindLabel = (kind: string): string => (Object.hasOwn(messageKinds, kind) ? messageKinds[kind as MessageKind].label : messageKinds.general.label);

/**
 * A message as staff see it. `customerName`: the full name of the customer it
 * is for, when known (the list looks it up; other callers may leave it out).
 * Links that act as the customer (reset, invitation, e-mail change, stop) are
 * cut: the customer receives them, staff never read them.
 */
export function toOutboxOutput(row: OutboxRow, customerName: string | null = null): OutboxMessageOutput {
  return {
    outbox_message_id: row.outbox_message_id,
    channel: row.channel,
    recipient: row.recipient,
    subject: row.subject === null ? null : withoutPrivateLinks(row.subject),
    body: withoutPrivateLinks(row.body),
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    kind: row.kind,
    kind_label: kindLabel(row.kind),
    customer_id: row.customer_id,
    customer_name: customerName,
    next_attempt_at: row.next_attempt_at.toISOString(),
  };
}

export interface OutboxFilters {
  status?: OutboxRow['status'] | undefined;
  channel?: OutboxRow['channel'] | undefined;
  page: number;
}

/** GET /api/outbox: messages by status and channel, newest first, 50 per page. */
export async function listOutbox(db: Db, filters: OutboxFilters): Promise<{ total: number; outbox_messages: OutboxMessageOutput[] }> {
  const where: SQL[] = [];
  if (filters.status) where.push(eq(outbox_message.status, filters.status));
  if (filters.channel) where.push(eq(outbox_message.channel, filters.channel));
  const [total] = await db.select({ n: count() }).from(outbox_message).where(and(...where));
  // Whom it is for: the message's customer, or, for one written without its customer (a password e-mail),
  // the customer with that address (e-mails are stored lower-case). One customer at most either way.
  const forCustomer = or(
    eq(customer.customer_id, outbox_message.customer_id),
    and(isNull(outbox_message.customer_id), eq(outbox_message.channel, 'email'), eq(customer.email, sql`lower(${outbox_message.recipient})`)),
  );
  const rows = await db
    .select({ message: outbox_message, name: customer.name, last_name: customer.last_name })
    .from(outbox_message)
    .leftJoin(customer, forCustomer)
    .where(and(...where))
    .orderBy(desc(outbox_message.createdAt), desc(outbox_message.outbox_message_id))
    .limit(outboxPageSize)
    .offset((filters.page - 1) * outboxPageSize);
  return {
    total: Number(total?.n ?? 0),
    outbox_messages: rows.map((r) => toOutboxOutput(r.message, r.name === null ? null : `${r.name} ${r.last_name ?? ''}`.trim())),
  };
}

/**
 * POST /api/outbox/{id}/retry: a failed message goes back to pending so the
 * sender picks it up again; its attempts and last error are kept. The status
 * changes only from 'failed' (a conditional update, so a sender marking it
 * sent at the same moment wins cleanly); a sent message is 409.
 */
export async function retryOutboxMessage(db: Db, id: number, actor: Actor): Promise<OutboxMessageOutput> {
  return db.transaction(async (tx) => {
    const [retried] = await tx
      .update(outbox_message)
      // Due now: the delivery worker takes it on its next poll.
      .set({ status: 'pending', next_attempt_at: new Date(), claimed_until: null })
      .where(and(eq(outbox_message.outbox_message_id, id), eq(outbox_message.status, 'failed')))
      .returning();
    if (!retried) {
      const [row] = await tx.select({ status: outbox_message.status }).from(outbox_message).where(eq(outbox_message.outbox_message_id, id));
      if (!row) throw new DomainError('outbox/not-found');
      throw new DomainError(row.status === 'sent' ? 'outbox/already-sent' : 'outbox/not-failed');
    }
    await recordAudit(tx, { actorId: actor.customerId, action: 'retry', entity: 'outbox_message', entityId: id, changes: { status: { from: 'failed', to: 'pending' } } });
    return toOutboxOutput(retried);
  });
}
