import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './columns.ts';
import { customer } from './customer.ts';

export const outboxChannels = ['email', 'whatsapp'] as const;
export const outboxStatuses = ['pending', 'sent', 'failed'] as const;

/** A file sent with an e-mail (the booking's .ics invitation, an invoice's XML); binary files (a PDF) as base64. */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  content: string;
  encoding?: 'base64';
}

/**
 * A WhatsApp template message: business-initiated messages must use
 * a template approved in Meta's WhatsApp Manager; `parameters` fill its body's
 * {{1}}, {{2}}… in order. The row's `body` is the same text, for the desk.
 */
export interface OutboxWhatsAppTemplate {
  name: string;
  language: string;
  parameters: string[];
}

/**
 * Messages to send (password recovery mail, waitlist WhatsApp...). Written in
 * the same transaction as the change that causes them (or by a clock job);
 * the delivery worker drains it: it claims rows with FOR UPDATE
 * SKIP LOCKED and a lease (`claimed_until`), so two server processes never
 * send one message twice and a crashed process's claim lapses.
 */
export const outbox_message = pgTable(
  'outbox_message',
  {
    outbox_message_id: integer('outbox_message_id').primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: outboxChannels }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    /** The plain text (e-mail text part, or the WhatsApp text as the customer reads it). */
    body: text('body').notNull(),
    status: text('status', { enum: outboxStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    createdAt: createdAt(),
    sentAt: tstz('sent_at'),
    /** What the message is about ('booking-confirmation', 'password-reset'…; core messageKinds). */
    kind: text('kind').notNull().default('general'),
    /** Whom it is for, when a customer (channel preferences, the stop link). */
    customer_id: integer('customer_id').references(() => customer.customer_id, { onDelete: 'set null' }),
    /** The HTML part of an e-mail. */
    html: text('html'),
    attachments: jsonb('attachments').$type<OutboxAttachment[]>(),
    whatsapp_template: jsonb('whatsapp_template').$type<OutboxWhatsAppTemplate>(),
    /** One message per fact and channel ('reminder:123:email'): a job that runs twice queues it once. */
    dedupe_key: text('dedupe_key'),
    /**
     * Not before: the backoff after a temporary failure. The default is now()
     * cut to milliseconds, as the worker's JavaScript clock reads time: with
     * now()'s microseconds, a row queued in the millisecond a claim read its
     * clock was not yet due to that claim (the drain left it for the next poll).
     */
    next_attempt_at: tstz('next_attempt_at')
      .default(sql`date_trunc('milliseconds', now())`)
      .notNull(),
    /** A sender's lease: until then no other sender takes the row; after it, the row is free again (a crashed sender). */
    claimed_until: tstz('claimed_until'),
    /** The provider's id of what it accepted (SMTP Message-ID, WhatsApp wamid). */
    provider_message_id: text('provider_message_id'),
  },
  (t) => [
    index('outbox_message_status_idx').on(t.status, t.createdAt),
    index('outbox_message_due_idx').on(t.next_attempt_at).where(sql`${t.status} = 'pending'`),
    uniqueIndex('outbox_message_dedupe_key').on(t.dedupe_key),
    check('outbox_message_channel_check', sql`${t.channel} in ('email', 'whatsapp')`),
    check('outbox_message_status_check', sql`${t.status} in ('pending', 'sent', 'failed')`),
  ],
);

/**
 * A customer's channels: optional messages (reminders, waitlist,
 * expiring credits…) go only where they are on; transactional ones (password
 * reset, receipts, a class the studio cancelled) always go. The tokens are
 * random and private: one opens the customer's calendar feed, the other the
 * stop link in every optional message. A row is made the first time it is needed.
 */
export const message_preference = pgTable(
  'message_preference',
  {
    customer_id: integer('customer_id')
      .primaryKey()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    /**
     * The optional messages (reminders, expiring credits, promotions) need the customer's own consent, separate from
     * the account's necessary messages: off until given (decision 120). Customers from before that rule kept theirs.
     */
    email_enabled: boolean('email_enabled').notNull().default(false),
    whatsapp_enabled: boolean('whatsapp_enabled').notNull().default(false),
    /** When the customer (or staff, at her word at the counter) last turned an optional channel on. */
    optional_consent_at: tstz('optional_consent_at'),
    stop_token: text('stop_token').notNull(),
    calendar_token: text('calendar_token').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('message_preference_stop_token_key').on(t.stop_token), uniqueIndex('message_preference_calendar_token_key').on(t.calendar_token)],
);

/**
 * How the studio sends: SMTP and the WhatsApp Cloud API. One row
 * (id 1), admin-only; the password and token are never answered back. Empty
 * fields fall back to the environment (SMTP_*, WHATSAPP_*); with neither, the
 * channel is not configured and its messages wait in the outbox.
 */
export const messaging_settings = pgTable(
  'messaging_settings',
  {
    messaging_settings_id: integer('messaging_settings_id').primaryKey(),
    smtp_host: text('smtp_host'),
    smtp_port: integer('smtp_port'),
    /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
    smtp_secure: boolean('smtp_secure'),
    smtp_user: text('smtp_user'),
    smtp_password: text('smtp_password'),
    /** "Estudio Demo <hola@estudio.mx>"; defaults to the studio's name and contact e-mail. */
    smtp_from: text('smtp_from'),
    whatsapp_phone_number_id: text('whatsapp_phone_number_id'),
    whatsapp_access_token: text('whatsapp_access_token'),
    /** https://graph.facebook.com/v21.0 unless set (tests point it at a loopback server). */
    whatsapp_api_base: text('whatsapp_api_base'),
    /** The language code the studio's templates were approved in (es_MX). */
    whatsapp_template_language: text('whatsapp_template_language'),
    updatedAt: updatedAt(),
  },
  (t) => [check('messaging_settings_single_row', sql`${t.messaging_settings_id} = 1`)],
);

/**
 * The studio's clock (decision 021): one row per recurring job.
 * A process runs a job when it moves `locked_until` forward in a conditional
 * update (due, and not leased by another live process), so each run happens
 * once across processes; a crashed run's lease lapses and the job runs again
 * (every job is idempotent). `state` keeps what a job needs between runs.
 */
export const scheduled_job = pgTable('scheduled_job', {
  name: text('name').primaryKey(),
  next_run_at: tstz('next_run_at').notNull(),
  locked_until: tstz('locked_until'),
  locked_by: text('locked_by'),
  last_started_at: tstz('last_started_at'),
  last_finished_at: tstz('last_finished_at'),
  last_error: text('last_error'),
  runs: integer('runs').notNull().default(0),
  state: jsonb('state').$type<Record<string, unknown>>(),
});
