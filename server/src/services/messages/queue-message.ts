import { randomBytes } from 'node:crypto';
import { compose, isOptionalMessage, messageBrand, type MessageParts } from '@estudio/core';
import { eq, inArray } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { message_preference, messaging_settings, outbox_message, type outboxChannels } from '@estudio/db/schema/outbox';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { MessageContext } from './message-context.ts';

export type Channel = (typeof outboxChannels)[number];

/** A private token (stop link, calendar feed): 24 random bytes, URL-safe. */
export const newToken = () => randomBytes(24).toString('base64url');

/**
 * A customer's channel preferences and private tokens, made the first time they are needed: with the optional
 * messages off, since nobody said yes to them (decision 120; every customer from before that rule has her row).
 */
export async function preferencesOf(db: Db, customerId: number): Promise<typeof message_preference.$inferSelect> {
  const [existing] = await db.select().from(message_preference).where(eq(message_preference.customer_id, customerId));
  if (existing) return existing;
  await db
    .insert(message_preference)
    .values({ customer_id: customerId, stop_token: newToken(), calendar_token: newToken() })
    .onConflictDoNothing({ target: message_preference.customer_id });
  const [made] = await db.select().from(message_preference).where(eq(message_preference.customer_id, customerId));
  if (!made) throw new Error(`message preferences of customer ${customerId} were not stored`);
  return made;
}

/**
 * Which channels can deliver now, and the WhatsApp templates' language: the
 * same field-by-field fallback as the worker's resolveMessaging (a phone
 * number id in the settings and a token in the environment configure WhatsApp).
 */
export async function configuredChannels(db: Db, ctx: MessageContext): Promise<Record<Channel, boolean> & { whatsappLanguage: string }> {
  const [row] = await db.select().from(messaging_settings).where(eq(messaging_settings.messaging_settings_id, 1));
  return {
    email: ctx.environment.smtpHost || Boolean(row?.smtp_host),
    whatsapp: (ctx.environment.whatsappPhoneNumberId || Boolean(row?.whatsapp_phone_number_id)) && (ctx.environment.whatsappAccessToken || Boolean(row?.whatsapp_access_token)),
    whatsappLanguage: row?.whatsapp_template_language || ctx.whatsappTemplateLanguage,
  };
}

/** The stop link of an optional message (the portal's page that turns the customer's messages off). */
export const stopUrlOf = (ctx: MessageContext, stopToken: string) => `${ctx.publicUrl}/mensajes/baja?token=${encodeURIComponent(stopToken)}`;

/** The private calendar feed of a customer's bookings (Google/Apple Calendar subscribe to it). */
export const calendarUrlOf = (ctx: MessageContext, calendarToken: string) => `${ctx.publicUrl}/api/calendar/${encodeURIComponent(calendarToken)}.ics`;

export interface CustomerMessage {
  customerId: number;
  /** The template's parts; `compose` lays them out in the studio's brand. */
  parts: MessageParts;
  /** One message per fact: 'reminder:123'. The channel is appended, so a job that runs twice queues each once. */
  dedupeKey?: string;
  /** Channels to use (default: e-mail, and WhatsApp when the template has one). */
  channels?: readonly Channel[];
}

/**
 * Queues a message to a customer in the caller's transaction.
 * Channels: the customer's e-mail, and WhatsApp to their phone when the
 * message has a WhatsApp template; an optional message only where the
 * customer left that channel on, with a stop link. Of those, only the
 * channels the studio configured are used; when none of them is configured
 * (the embedded default) the rows stay in the outbox, readable at the desk.
 * Returns the number of rows queued (0 for a deleted customer or a repeat).
 */
export function queueCustomerMessage(db: Db, ctx: MessageContext, message: CustomerMessage): Promise<number> {
  return queueCustomerMessages(db, ctx, [message]);
}

/**
 * queueCustomerMessage for several customers at once (a cancelled class, a
 * freed place): the customers, their preferences, the configured channels and
 * the studio's brand are read once for all of them, not once per message.
 * Returns the number of rows queued.
 */
export async function queueCustomerMessages(db: Db, ctx: MessageContext, messages: readonly CustomerMessage[]): Promise<number> {
  if (messages.length === 0) return 0;
  const ids = [...new Set(messages.map((m) => m.customerId))];
  const people = new Map(
    (
      await db
        .select({ id: customer.customer_id, email: customer.email, phone: customer.phone, deletedAt: customer.deletedAt })
        .from(customer)
        .where(inArray(customer.customer_id, ids))
    ).map((p) => [p.id, p]),
  );
  const stored = new Map((await db.select().from(message_preference).where(inArray(message_preference.customer_id, ids))).map((p) => [p.customer_id, p]));
  // Read the first time a message has somewhere to go, then kept for the rest.
  let shared: { configured: Awaited<ReturnType<typeof configuredChannels>>; brand: ReturnType<typeof messageBrand> } | null = null;

  const rows: (typeof outbox_message.$inferInsert)[] = [];
  for (const message of messages) {
    const person = people.get(message.customerId);
    if (!person || person.deletedAt) continue;
    const optional = isOptionalMessage(message.parts.kind);
    const prefs = stored.get(message.customerId) ?? (await preferencesOf(db, message.customerId));
    const wanted = message.channels ?? (['email', 'whatsapp'] as const);
    const reachable: Channel[] = [];
    if (wanted.includes('email') && person.email && (!optional || prefs.email_enabled)) reachable.push('email');
    if (wanted.includes('whatsapp') && message.parts.whatsapp && person.phone && (!optional || prefs.whatsapp_enabled)) reachable.push('whatsapp');
    if (reachable.length === 0) continue;
    shared ??= { configured: await configuredChannels(db, ctx), brand: messageBrand(await loadStudioSettings(db), ctx.publicUrl) };
    const { configured, brand } = shared;
    const deliverable = reachable.filter((c) => configured[c]);
    const channels = deliverable.length > 0 ? deliverable : reachable;

    const content = compose(message.parts, brand, optional ? stopUrlOf(ctx, prefs.stop_token) : null);
    for (const channel of channels) {
      rows.push({
        channel,
        recipient: channel === 'email' ? person.email : (person.phone as string),
        kind: content.kind,
        customer_id: message.customerId,
        subject: channel === 'email' ? content.subject : null,
        body: channel === 'email' ? content.text : (content.whatsapp?.text ?? content.text),
        html: channel === 'email' ? content.html : null,
        attachments: channel === 'email' ? (content.attachments ?? null) : null,
        whatsapp_template:
          channel === 'whatsapp' && content.whatsapp
            ? { name: content.whatsapp.template, language: configured.whatsappLanguage, parameters: content.whatsapp.parameters }
            : null,
        dedupe_key: message.dedupeKey ? `${message.dedupeKey}:${channel}` : null,
      });
    }
  }
  if (rows.length === 0) return 0;
  // One statement for every row; a repeated fact (its dedupe key already stored) is skipped.
  const queued = await db.insert(outbox_message).values(rows).onConflictDoNothing({ target: outbox_message.dedupe_key }).returning({ id: outbox_message.outbox_message_id });
  return queued.length;
}

export interface EmailMessage {
  to: string;
  parts: MessageParts;
  customerId?: number | null;
  dedupeKey?: string;
}

/**
 * Queues an e-mail to an address that may not be a customer yet (a password
 * reset, the owner's daily summary). Transactional: no stop link.
 */
export function queueEmail(db: Db, ctx: MessageContext, message: EmailMessage): Promise<number> {
  return queueEmails(db, ctx, [message]);
}

/**
 * queueEmail for many at once (the invitations to create a password): the studio's brand read once, one statement
 * for every row; a repeated fact (its dedupe key already stored) is skipped. Returns the number of rows queued.
 */
export async function queueEmails(db: Db, ctx: MessageContext, messages: readonly EmailMessage[]): Promise<number> {
  if (messages.length === 0) return 0;
  const brand = messageBrand(await loadStudioSettings(db), ctx.publicUrl);
  const rows = messages.map((message) => {
    const content = compose(message.parts, brand, null);
    return {
      channel: 'email' as const,
      recipient: message.to,
      kind: content.kind,
      customer_id: message.customerId ?? null,
      subject: content.subject,
      body: content.text,
      html: content.html,
      attachments: content.attachments ?? null,
      dedupe_key: message.dedupeKey ? `${message.dedupeKey}:email` : null,
    };
  });
  const queued = await db.insert(outbox_message).values(rows).onConflictDoNothing({ target: outbox_message.dedupe_key }).returning({ id: outbox_message.outbox_message_id });
  return queued.length;
}
