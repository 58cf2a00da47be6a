import { z } from '../zod.ts';

/**
 * The admin's messaging settings: how the studio sends e-mail
 * (SMTP) and WhatsApp (Cloud API). GET /api/messaging/settings answers the
 * record as stored without its secrets (only whether each is set); PUT takes
 * any subset of the fields, '' clears one (it then falls back to the
 * environment), unknown fields are refused naming the field.
 */
const hostname = /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const ipv4 = /^(\d{1,3}\.){3}\d{1,3}$/;
/** A bare e-mail address a mail server takes (no name, no brackets, no quotes): hola@estudio.mx. */
export const isMailAddress = (value: string): boolean => /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(value);
/** hola@estudio.mx, Estudio <hola@estudio.mx> or "Estudio, Polanco" <hola@estudio.mx>. */
export function isValidFrom(value: string): boolean {
  const named = /^(?:"[^"\r\n]{1,100}"|[^"<>\r\n]{1,100})\s*<([^<>\s]+)>$/.exec(value);
  return isMailAddress(named ? (named[1] as string) : value);
}

const isLoopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
/** https://graph.facebook.com/v21.0; http only to this machine (a local test server). */
export function isValidApiBase(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
  } catch {
    return false;
  }
}

const clearable = (max: number, valid: (v: string) => boolean, error: string) =>
  z
    .string({ error })
    .trim()
    .max(max, { error })
    .refine((v) => v === '' || valid(v), { error })
    .optional();

export const messagingSettingsUpdateInput = z.strictObject({
  smtp_host: clearable(253, (v) => hostname.test(v) || ipv4.test(v), 'Escribe el servidor SMTP como nombre o dirección, por ejemplo smtp.gmail.com.'),
  smtp_port: z
    .number({ error: 'El puerto SMTP debe ser un número entre 1 y 65535.' })
    .int({ error: 'El puerto SMTP debe ser un número entre 1 y 65535.' })
    .min(1, { error: 'El puerto SMTP debe ser un número entre 1 y 65535.' })
    .max(65535, { error: 'El puerto SMTP debe ser un número entre 1 y 65535.' })
    .nullable()
    .optional(),
  smtp_secure: z.boolean({ error: 'Indica con sí o no si el servidor SMTP usa TLS desde el inicio (puerto 465).' }).nullable().optional(),
  smtp_user: clearable(255, () => true, 'El usuario SMTP es demasiado largo.'),
  smtp_password: clearable(1000, () => true, 'La contraseña SMTP es demasiado larga.'),
  smtp_from: clearable(300, isValidFrom, 'Escribe el remitente como correo (hola@estudio.mx) o con nombre: Estudio <hola@estudio.mx>.'),
  whatsapp_phone_number_id: clearable(64, (v) => /^\d{5,32}$/.test(v), 'El identificador del número de WhatsApp son solo dígitos (WhatsApp Manager › Número de teléfono › ID).'),
  whatsapp_access_token: clearable(4000, (v) => !/\s/.test(v), 'El token de acceso de WhatsApp no debe llevar espacios.'),
  whatsapp_api_base: clearable(300, isValidApiBase, 'La dirección de la API de WhatsApp debe empezar con https://, por ejemplo https://graph.facebook.com/v21.0.'),
  whatsapp_template_language: clearable(10, (v) => /^[a-z]{2,3}(_[A-Z]{2})?$/.test(v), 'El idioma de las plantillas de WhatsApp se escribe como es_MX o es.'),
});
export type MessagingSettingsUpdateInput = z.input<typeof messagingSettingsUpdateInput>;

const channelState = z.object({
  configured: z.boolean(),
  /** Where the channel's configuration comes from: these settings, the server's environment, or nowhere (messages wait). */
  source: z.enum(['settings', 'environment']).nullable(),
});

export const messagingSettingsOutput = z.object({
  smtp_host: z.string().nullable(),
  smtp_port: z.number().nullable(),
  smtp_secure: z.boolean().nullable(),
  smtp_user: z.string().nullable(),
  smtp_password_set: z.boolean(),
  smtp_from: z.string().nullable(),
  whatsapp_phone_number_id: z.string().nullable(),
  whatsapp_access_token_set: z.boolean(),
  whatsapp_api_base: z.string().nullable(),
  whatsapp_template_language: z.string().nullable(),
  email: channelState,
  whatsapp: channelState,
});
export type MessagingSettingsOutput = z.infer<typeof messagingSettingsOutput>;

export const messagingTestInput = z.strictObject({
  channel: z.enum(['email', 'whatsapp'], { error: 'Elige el canal: email o whatsapp.' }),
  recipient: z.string({ error: 'Escribe a quién enviar la prueba.' }).trim().min(1, { error: 'Escribe a quién enviar la prueba.' }).max(254),
});
export const messagingTestOutput = z.object({ sent: z.literal(true), provider_message_id: z.string() });

/** GET /api/messaging/channels: which channels the studio can send by, for the portal's and the console's words (decision 079). */
export const messagingChannelsOutput = z.object({ email: z.boolean(), whatsapp: z.boolean() });
export type MessagingChannels = z.infer<typeof messagingChannelsOutput>;
