import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns.ts';

export const outboxChannels = ['email', 'whatsapp'] as const;
export const outboxStatuses = ['pending', 'sent', 'failed'] as const;

/**
 * Messages to send (password recovery mail, waitlist WhatsApp...). Written in
 * the same transaction as the change that causes them; a sender drains it.
 */
export const outbox_message = pgTable(
  'outbox_message',
  {
    outbox_message_id: integer('outbox_message_id').primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: outboxChannels }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    status: text('status', { enum: outboxStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    createdAt: createdAt(),
    sentAt: tstz('sent_at'),
  },
  (t) => [
    index('outbox_message_status_idx').on(t.status, t.createdAt),
    check('outbox_message_channel_check', sql`${t.channel} in ('email', 'whatsapp')`),
    check('outbox_message_status_check', sql`${t.status} in ('pending', 'sent', 'failed')`),
  ],
);
