import { DomainError, texts, type MessageChannel, type MessagePreferencesInput, type MessagePreferencesOutput, type MessageStopOutput } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { message_preference } from '@estudio/db/schema/outbox';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { MessageContext } from './message-context.ts';
import { calendarUrlOf, newToken, preferencesOf, stopUrlOf } from './queue-message.ts';

/**
 * What a customer controls of their messages: the channels of the
 * optional ones (Mi Información), the stop link every optional message
 * carries, and the private calendar feed's token.
 */

type PreferenceRow = typeof message_preference.$inferSelect;

const phoneOf = (phone: string | null | undefined) => (phone && phone.trim() !== '' ? phone.trim() : null);

function preferencesView(ctx: MessageContext, person: { email: string; phone: string | null }, row: PreferenceRow): MessagePreferencesOutput {
  const phone = phoneOf(person.phone);
  return {
    email_enabled: row.email_enabled,
    whatsapp_enabled: row.whatsapp_enabled,
    email: person.email,
    phone,
    phone_hint: phone ? null : texts.customerMessages.noPhoneHint,
    calendar_url: calendarUrlOf(ctx, row.calendar_token),
    stop_url: stopUrlOf(ctx, row.stop_token),
  };
}

async function personOf(db: Db, customerId: number) {
  const [person] = await db.select({ email: customer.email, phone: customer.phone }).from(customer).where(eq(customer.customer_id, customerId));
  if (!person) throw new DomainError('customer/not-found');
  return person;
}

/** GET /api/customer/messages. The row (and its tokens) is made the first time. */
export async function messagePreferences(db: Db, ctx: MessageContext, customerId: number): Promise<MessagePreferencesOutput> {
  const person = await personOf(db, customerId);
  return preferencesView(ctx, person, await preferencesOf(db, customerId));
}

/**
 * The customer's answer to the optional messages (reminders, expiring credits, promotions) when her account is made:
 * at sign-up in the portal, or at the counter where staff ask her. They need her own consent, separate from the
 * account's necessary messages, so both channels stay off unless she said yes (decision 120). Call it in the
 * transaction that creates the customer.
 */
export async function recordOptionalMessagesChoice(db: Db, customerId: number, consent: boolean): Promise<void> {
  await db
    .insert(message_preference)
    .values({
      customer_id: customerId,
      email_enabled: consent,
      whatsapp_enabled: consent,
      optional_consent_at: consent ? new Date() : null,
      stop_token: newToken(),
      calendar_token: newToken(),
    })
    .onConflictDoUpdate({
      target: message_preference.customer_id,
      set: { email_enabled: consent, whatsapp_enabled: consent, optional_consent_at: consent ? new Date() : null },
    });
}

/** PUT /api/customer/messages: the switches sent, and the record as stored. */
export async function updateMessagePreferences(db: Db, ctx: MessageContext, customerId: number, input: MessagePreferencesInput): Promise<MessagePreferencesOutput> {
  const person = await personOf(db, customerId);
  const stored = await preferencesOf(db, customerId);
  const set: Partial<Pick<PreferenceRow, 'email_enabled' | 'whatsapp_enabled'>> = {};
  if (input.email_enabled !== undefined) set.email_enabled = input.email_enabled;
  if (input.whatsapp_enabled !== undefined) set.whatsapp_enabled = input.whatsapp_enabled;
  if (Object.keys(set).length === 0) return preferencesView(ctx, person, stored);
  // Turning a channel on is the customer's consent to the optional messages on it: when she gave it is kept.
  const consenting = (set.email_enabled === true && !stored.email_enabled) || (set.whatsapp_enabled === true && !stored.whatsapp_enabled);
  const [row] = await db
    .update(message_preference)
    .set({ ...set, ...(consenting ? { optional_consent_at: new Date() } : {}) })
    .where(eq(message_preference.customer_id, customerId))
    .returning();
  if (!row) throw new DomainError('customer/not-found');
  return preferencesView(ctx, person, row);
}

/** POST /api/customer/messages/calendar: a new private token; the old feed URL answers 404 from now on. */
export async function renewCalendarLink(db: Db, ctx: MessageContext, customerId: number): Promise<{ calendar_url: string }> {
  await preferencesOf(db, customerId);
  const [row] = await db
    .update(message_preference)
    .set({ calendar_token: newToken() })
    .where(eq(message_preference.customer_id, customerId))
    .returning({ calendar_token: message_preference.calendar_token });
  if (!row) throw new DomainError('customer/not-found');
  return { calendar_url: calendarUrlOf(ctx, row.calendar_token) };
}

/** 'lu•••@correo.mx': enough for the owner to recognise, nothing for a stranger holding a forwarded link. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, local.length - 1) || 1)}•••${email.slice(at)}`;
}

/** '•••• 4321'. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `•••• ${digits.slice(-4)}`;
}

async function byStopToken(db: Db, token: string) {
  const [found] = await db
    .select({ prefs: message_preference, email: customer.email, phone: customer.phone, deletedAt: customer.deletedAt })
    .from(message_preference)
    .innerJoin(customer, eq(customer.customer_id, message_preference.customer_id))
    .where(eq(message_preference.stop_token, token));
  if (!found || found.deletedAt) throw new DomainError('messages/stop-link-invalid');
  return found;
}

async function stopView(db: Db, found: Awaited<ReturnType<typeof byStopToken>>, prefs: PreferenceRow): Promise<MessageStopOutput> {
  const settings = await loadStudioSettings(db);
  const phone = phoneOf(found.phone);
  return {
    studio_name: settings.business_name,
    email: found.email ? maskEmail(found.email) : null,
    phone: phone ? maskPhone(phone) : null,
    email_enabled: prefs.email_enabled,
    whatsapp_enabled: prefs.whatsapp_enabled,
  };
}

/** GET /api/messages/stop?token=: what the link would stop. Changes nothing (mail scanners open links). */
export async function stopPreview(db: Db, token: string): Promise<MessageStopOutput> {
  const found = await byStopToken(db, token);
  return stopView(db, found, found.prefs);
}

/** POST /api/messages/stop (and the e-mails' one-click POST): turns the optional messages off on one channel, or both. */
export async function stopMessages(db: Db, token: string, channel?: MessageChannel): Promise<MessageStopOutput> {
  const found = await byStopToken(db, token);
  const set = channel === 'email' ? { email_enabled: false } : channel === 'whatsapp' ? { whatsapp_enabled: false } : { email_enabled: false, whatsapp_enabled: false };
  const [row] = await db.update(message_preference).set(set).where(eq(message_preference.stop_token, token)).returning();
  if (!row) throw new DomainError('messages/stop-link-invalid');
  return stopView(db, found, row);
}

/**
 * The List-Unsubscribe target of an optional e-mail (RFC 8058): a mail
 * client POSTs `List-Unsubscribe=One-Click` here and the customer's optional
 * messages stop. A GET (an older client, a person) is sent to the portal's
 * page, which asks before stopping anything.
 */
export const oneClickStopUrlOf = (ctx: MessageContext, stopToken: string) => `${ctx.publicUrl}/api/messages/one-click?token=${encodeURIComponent(stopToken)}`;
