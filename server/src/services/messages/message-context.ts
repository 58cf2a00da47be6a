import type { Config } from '../../config.ts';

/**
 * What a service needs to write a message: the portal's origin for links, and
 * which channels the environment configures (messaging_settings in the
 * database may configure more). Built once per process from the Config.
 */
export interface MessageContext {
  publicUrl: string;
  environmentChannels: { email: boolean; whatsapp: boolean };
  /** The language the studio's WhatsApp templates were approved in, unless the settings say otherwise. */
  whatsappTemplateLanguage: string;
}

export function messageContextOf(
  config: Pick<Config, 'PUBLIC_URL'> & Partial<Pick<Config, 'SMTP_HOST' | 'WHATSAPP_ACCESS_TOKEN' | 'WHATSAPP_PHONE_NUMBER_ID' | 'WHATSAPP_TEMPLATE_LANGUAGE'>>,
): MessageContext {
  return {
    publicUrl: config.PUBLIC_URL.replace(/\/$/, ''),
    environmentChannels: {
      email: Boolean(config.SMTP_HOST),
      whatsapp: Boolean(config.WHATSAPP_ACCESS_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID),
    },
    whatsappTemplateLanguage: config.WHATSAPP_TEMPLATE_LANGUAGE ?? 'es_MX',
  };
}
