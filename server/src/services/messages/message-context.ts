import type { Config } from '../../config.ts';

/**
 * What a service needs to write a message: the portal's origin for links, and
 * which channels the environment configures (messaging_settings in the
 * database may configure more). Built once per process from the Config.
 */
export interface MessageContext {
  publicUrl: string;
  /** Which sending fields the environment sets; each empty messaging setting falls back to its field (resolveMessaging). */
  environment: { smtpHost: boolean; whatsappPhoneNumberId: boolean; whatsappAccessToken: boolean };
  /** The language the studio's WhatsApp templates were approved in, unless the settings say otherwise. */
  whatsappTemplateLanguage: string;
}

export function messageContextOf(
  config: Pick<Config, 'PUBLIC_URL'> & Partial<Pick<Config, 'SMTP_HOST' | 'WHATSAPP_ACCESS_TOKEN' | 'WHATSAPP_PHONE_NUMBER_ID' | 'WHATSAPP_TEMPLATE_LANGUAGE'>>,
): MessageContext {
  return {
    publicUrl: config.PUBLIC_URL.replace(/\/$/, ''),
    environment: {
      smtpHost: Boolean(config.SMTP_HOST),
      whatsappPhoneNumberId: Boolean(config.WHATSAPP_PHONE_NUMBER_ID),
      whatsappAccessToken: Boolean(config.WHATSAPP_ACCESS_TOKEN),
    },
    whatsappTemplateLanguage: config.WHATSAPP_TEMPLATE_LANGUAGE ?? 'es_MX',
  };
}
