import { z } from '../zod.ts';

/**
 * The API contract of a customer's messages: the channels they
 * choose in Mi Información, the stop link of every optional message, and
 * their private calendar feed. Inputs are strict: an unknown field is a 400
 * that names it.
 */

/** GET /api/customer/messages: the customer's switches, where each channel goes, and the calendar feed. */
export const messagePreferencesOutput = z.object({
  email_enabled: z.boolean(),
  whatsapp_enabled: z.boolean(),
  /** Where e-mails go (the account's e-mail). */
  email: z.string(),
  /** Where WhatsApp messages go; null without a phone. */
  phone: z.string().nullable(),
  /** Without a phone: how to get WhatsApp messages (Spanish, for people). */
  phone_hint: z.string().nullable(),
  /** The private feed of the customer's bookings (Google Calendar, Apple Calendar). */
  calendar_url: z.string(),
  /** The stop link every optional message carries (the customer's own; the portal's page asks before stopping anything). */
  stop_url: z.string(),
});
export type MessagePreferencesOutput = z.infer<typeof messagePreferencesOutput>;

/** PUT /api/customer/messages: either switch, or both. */
export const messagePreferencesInput = z.strictObject({
  email_enabled: z.boolean().optional(),
  whatsapp_enabled: z.boolean().optional(),
});
export type MessagePreferencesInput = z.infer<typeof messagePreferencesInput>;

/** The random stop token of an optional message's link (base64url). */
const stopToken = z.string({ error: 'Falta el código del enlace.' }).trim().min(1, { error: 'Falta el código del enlace.' }).max(200);

export const messageChannel = z.enum(['email', 'whatsapp'], { error: 'El canal debe ser email o whatsapp.' });
export type MessageChannel = z.infer<typeof messageChannel>;

/** GET /api/messages/stop?token=…: what the link would stop. */
export const messageStopPreviewInput = z.strictObject({ token: stopToken });

/** POST /api/messages/stop: one channel, or both when `channel` is omitted. */
export const messageStopInput = z.strictObject({ token: stopToken, channel: messageChannel.optional() });

/** What a stop link shows before and after: never the whole address, only enough to recognise it. */
export const messageStopOutput = z.object({
  studio_name: z.string(),
  /** The e-mail masked ('lu•••@correo.mx'). */
  email: z.string().nullable(),
  /** The phone masked ('•••• 4321'); null without one. */
  phone: z.string().nullable(),
  email_enabled: z.boolean(),
  whatsapp_enabled: z.boolean(),
});
export type MessageStopOutput = z.infer<typeof messageStopOutput>;

/** POST /api/customer/messages/calendar: the new feed URL (the old one stops working). */
export const calendarLinkOutput = z.object({ calendar_url: z.string() });

/**
 * The UID of a reservation's calendar event, the same in the confirmation's
 * invitation and in the feed, so a calendar that has both shows one event
 * (and removes it when the feed says it was cancelled). The portal's host
 * makes it unique across studios: `reservacion-<id>@<host>`.
 */
export function reservationEventUid(reservationId: number, publicUrl: string): string {
  let host = '';
  try {
    host = new URL(publicUrl).hostname;
  } catch {
    host = '';
  }
  return `reservacion-${reservationId}@${host || 'estudio'}`;
}
