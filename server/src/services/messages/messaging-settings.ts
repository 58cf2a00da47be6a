import { compose, DomainError, isMailAddress, messageBrand, whatsappRecipient, type MessagingSettingsOutput, type MessagingSettingsUpdateInput } from '@estudio/core';
import { and, eq, gt, inArray } from 'drizzle-orm';
import { messaging_settings, outbox_message } from '@estudio/db/schema/outbox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { SmtpSender, type SmtpSettings } from '../../providers/messages/smtp.ts';
import { DeliveryFailure, type MessageSender } from '../../providers/messages/types.ts';
import { WhatsAppCloudSender, type WhatsAppSettings } from '../../providers/messages/whatsapp-cloud.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

type SettingsRow = typeof messaging_settings.$inferSelect;
/** The admin making the change. */
interface Actor {
  customerId: number;
}
type EnvConfig = Pick<
  Config,
  | 'PUBLIC_URL'
  | 'SMTP_HOST'
  | 'SMTP_PORT'
  | 'SMTP_SECURE'
  | 'SMTP_USER'
  | 'SMTP_PASSWORD'
  | 'SMTP_FROM'
  | 'WHATSAPP_PHONE_NUMBER_ID'
  | 'WHATSAPP_ACCESS_TOKEN'
  | 'WHATSAPP_API_BASE'
  | 'WHATSAPP_TEMPLATE_LANGUAGE'
  | 'MESSAGE_CLAIM_LEASE_MS'
>;

export interface ResolvedMessaging {
  email: (SmtpSettings & { source: 'settings' | 'environment' }) | null;
  whatsapp: (WhatsAppSettings & { source: 'settings' | 'environment'; templateLanguage: string }) | null;
}

/** A provider must answer well within the claim's lease, or another process could take the row while it is in flight. */
export const timeoutOf = (config: Pick<Config, 'MESSAGE_CLAIM_LEASE_MS'>) => Math.max(1_000, Math.min(30_000, Math.floor(config.MESSAGE_CLAIM_LEASE_MS / 3)));

const hostOf = (publicUrl: string) => {
  try {
    return new URL(publicUrl).hostname || 'estudio.local';
  } catch {
    return 'estudio.local';
  }
};

/** "Estudio Demo" <hola@estudio.mx>: the studio's name and contact e-mail, unless a From is set. */
function defaultFrom(businessName: string, studioEmail: string, user: string | null, publicUrl: string): string {
  const address = [studioEmail, user ?? ''].find(isMailAddress) ?? `no-responder@${hostOf(publicUrl)}`;
  return `"${businessName.replace(/["\r\n\\]/g, '')}" <${address}>`;
}

async function settingsRow(db: Db): Promise<SettingsRow | undefined> {
  const [row] = await db.select().from(messaging_settings).where(eq(messaging_settings.messaging_settings_id, 1));
  return row;
}

/**
 * A failure's reason as the admin's test reads it: the notes about the queue
 * ("se intentará de nuevo", "se enviará cuando…") are true for queued
 * messages, not for a one-off test.
 */
export function withoutQueueNote(reason: string): string {
  return reason.replace(/;\s*(se intentará de nuevo|el mensaje se enviará[^.]*)\.?$/i, '.').replace(/\.\.$/, '.');
}

/**
 * How each channel sends now: the studio's messaging settings, each empty
 * field falling back to the environment (SMTP_*, WHATSAPP_*). A channel
 * without a host (SMTP) or without a phone number id and token (WhatsApp) is
 * not configured: its messages wait in the outbox.
 */
export async function resolveMessaging(db: Db, config: EnvConfig): Promise<ResolvedMessaging> {
  const row = await settingsRow(db);
  const timeoutMs = timeoutOf(config);
  let email: ResolvedMessaging['email'] = null;
  const host = row?.smtp_host || config.SMTP_HOST;
  if (host) {
    const studio = await loadStudioSettings(db);
    const secure = row?.smtp_secure ?? config.SMTP_SECURE ?? (row?.smtp_port ?? config.SMTP_PORT) === 465;
    const user = row?.smtp_user || config.SMTP_USER || null;
    email = {
      source: row?.smtp_host ? 'settings' : 'environment',
      host,
      port: row?.smtp_port ?? config.SMTP_PORT ?? (secure ? 465 : 587),
      secure,
      user,
      password: row?.smtp_password || config.SMTP_PASSWORD || null,
      from: row?.smtp_from || config.SMTP_FROM || defaultFrom(studio.business_name, studio.email, user, config.PUBLIC_URL),
      messageIdDomain: hostOf(config.PUBLIC_URL),
      timeoutMs,
    };
  }
  let whatsapp: ResolvedMessaging['whatsapp'] = null;
  const phoneNumberId = row?.whatsapp_phone_number_id || config.WHATSAPP_PHONE_NUMBER_ID;
  const accessToken = row?.whatsapp_access_token || config.WHATSAPP_ACCESS_TOKEN;
  if (phoneNumberId && accessToken) {
    whatsapp = {
      source: row?.whatsapp_phone_number_id || row?.whatsapp_access_token ? 'settings' : 'environment',
      phoneNumberId,
      accessToken,
      apiBase: row?.whatsapp_api_base || config.WHATSAPP_API_BASE,
      templateLanguage: row?.whatsapp_template_language || config.WHATSAPP_TEMPLATE_LANGUAGE,
      timeoutMs,
    };
  }
  return { email, whatsapp };
}

function toOutput(row: SettingsRow | undefined, resolved: ResolvedMessaging): MessagingSettingsOutput {
  return {
    smtp_host: row?.smtp_host ?? null,
    smtp_port: row?.smtp_port ?? null,
    smtp_secure: row?.smtp_secure ?? null,
    smtp_user: row?.smtp_user ?? null,
    smtp_password_set: Boolean(row?.smtp_password),
    smtp_from: row?.smtp_from ?? null,
    whatsapp_phone_number_id: row?.whatsapp_phone_number_id ?? null,
    whatsapp_access_token_set: Boolean(row?.whatsapp_access_token),
    whatsapp_api_base: row?.whatsapp_api_base ?? null,
    whatsapp_template_language: row?.whatsapp_template_language ?? null,
    email: { configured: resolved.email !== null, source: resolved.email?.source ?? null },
    whatsapp: { configured: resolved.whatsapp !== null, source: resolved.whatsapp?.source ?? null },
  };
}

/** GET /api/messaging/settings: the record as stored, secrets only as "set". */
export async function getMessagingSettings(db: Db, config: EnvConfig): Promise<MessagingSettingsOutput> {
  return toOutput(await settingsRow(db), await resolveMessaging(db, config));
}

const secretFields = new Set(['smtp_password', 'whatsapp_access_token']);
const emailFields = new Set(['smtp_host', 'smtp_port', 'smtp_secure', 'smtp_user', 'smtp_password', 'smtp_from']);

/**
 * PUT /api/messaging/settings: stores the fields sent ('' or null clears one),
 * audited without the secrets. Messages of a changed channel that were
 * waiting for a retry (an expired token, a wrong password) become due now.
 */
export async function updateMessagingSettings(db: Db, config: EnvConfig, actor: Actor, input: MessagingSettingsUpdateInput): Promise<MessagingSettingsOutput> {
  const values: Partial<Omit<SettingsRow, 'messaging_settings_id' | 'updatedAt'>> = {};
  for (const [key, value] of Object.entries(input) as [keyof typeof values, unknown][]) {
    if (value === undefined) continue;
    (values as Record<string, unknown>)[key] = value === '' ? null : value;
  }
  await db.transaction(async (tx) => {
    const before = await settingsRow(tx);
    await tx
      .insert(messaging_settings)
      .values({ messaging_settings_id: 1, ...values })
      .onConflictDoUpdate({ target: messaging_settings.messaging_settings_id, set: { ...values, updatedAt: new Date() } });
    const changes: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const old = (before as Record<string, unknown> | undefined)?.[key] ?? null;
      if (old === value) continue;
      changes[key] = secretFields.has(key) ? (value === null ? 'borrado' : 'cambiado') : { from: old, to: value };
    }
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorId: actor.customerId, action: 'update', entity: 'messaging_settings', entityId: 1, changes });
      const channels = [
        ...(Object.keys(changes).some((k) => emailFields.has(k)) ? (['email'] as const) : []),
        ...(Object.keys(changes).some((k) => k.startsWith('whatsapp_')) ? (['whatsapp'] as const) : []),
      ];
      const now = new Date();
      if (channels.length > 0) {
        await tx
          .update(outbox_message)
          .set({ next_attempt_at: now })
          .where(and(eq(outbox_message.status, 'pending'), inArray(outbox_message.channel, channels), gt(outbox_message.next_attempt_at, now)));
      }
    }
  });
  return getMessagingSettings(db, config);
}

/** A sender for each configured channel. */
export function sendersOf(resolved: ResolvedMessaging): { email: MessageSender | null; whatsapp: MessageSender | null } {
  return {
    email: resolved.email ? new SmtpSender(resolved.email) : null,
    whatsapp: resolved.whatsapp ? new WhatsAppCloudSender(resolved.whatsapp) : null,
  };
}

/**
 * POST /api/messaging/test: one message now through the provider, not through
 * the outbox. WhatsApp sends Meta's 'hello_world' template (en_US), which
 * every WhatsApp Business account has; e-mail a short note in the studio's
 * colours. A refusal answers the provider's reason in Spanish.
 */
export async function sendTestMessage(db: Db, config: EnvConfig, input: { channel: 'email' | 'whatsapp'; recipient: string }): Promise<{ sent: true; provider_message_id: string }> {
  const resolved = await resolveMessaging(db, config);
  const stamp = Date.now();
  let sender: MessageSender;
  if (input.channel === 'email') {
    if (!resolved.email) throw new DomainError('messaging/email-not-configured');
    if (!isMailAddress(input.recipient)) throw new DomainError('messaging/invalid-email');
    sender = new SmtpSender(resolved.email);
  } else {
    if (!resolved.whatsapp) throw new DomainError('messaging/whatsapp-not-configured');
    if (!whatsappRecipient(input.recipient)) throw new DomainError('messaging/invalid-whatsapp');
    sender = new WhatsAppCloudSender(resolved.whatsapp);
  }
  const studio = await loadStudioSettings(db);
  const content = compose(
    {
      kind: 'general',
      subject: `Mensaje de prueba de ${studio.business_name}`,
      paragraphs: [`Este es un mensaje de prueba de ${studio.business_name}. Si lo recibes, el correo del estudio está bien configurado.`],
    },
    messageBrand(studio, config.PUBLIC_URL),
  );
  try {
    const sent = await sender.send({
      id: 0,
      stamp,
      kind: 'general',
      recipient: input.recipient,
      subject: content.subject,
      text: content.text,
      html: content.html,
      attachments: null,
      whatsappTemplate: { name: 'hello_world', language: 'en_US', parameters: [] },
      unsubscribeUrl: null,
    });
    return { sent: true, provider_message_id: sent.providerMessageId };
  } catch (error) {
    if (error instanceof DeliveryFailure) throw new DomainError('messaging/test-failed', withoutQueueNote(error.reason));
    throw error;
  } finally {
    await sender.close();
  }
}
