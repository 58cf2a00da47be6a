import { whatsappRecipient } from '@estudio/core';
import { DeliveryFailure, type MessageSender, type OutgoingMessage, type SentMessage } from './types.ts';

export interface WhatsAppSettings {
  /** The WhatsApp Business phone number's id (WhatsApp Manager), not the number itself. */
  phoneNumberId: string;
  accessToken: string;
  /** https://graph.facebook.com/v21.0 (tests: a loopback server). */
  apiBase: string;
  timeoutMs: number;
}

/** The Graph API's error answer (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes). */
interface GraphError {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number; error_data?: { details?: string } };
}

const rateLimitCodes = new Set([4, 80007, 130429, 131048, 131056]);
const tokenExpired =
  'El token de acceso de WhatsApp venció o no es válido. Un administrador debe renovarlo en Mensajes › Configuración de envío; el mensaje se enviará en cuanto se guarde el nuevo token.';

/** A Cloud API answer as a DeliveryFailure with a reason staff can act on. */
export function whatsappFailure(status: number, body: GraphError, retryAfter: string | null, templateName: string | null): DeliveryFailure {
  const error = body.error ?? {};
  const code = error.code ?? 0;
  const details = error.error_data?.details ?? error.message ?? '';
  const said = `(código ${code || status}${details ? `: ${details.slice(0, 200)}` : ''})`;
  if (status === 401 || code === 190) {
    return new DeliveryFailure(tokenExpired, { permanent: false, setup: true, retryAfterMs: 15 * 60_000 });
  }
  if (status === 429 || rateLimitCodes.has(code)) {
    const seconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
    return new DeliveryFailure(`WhatsApp pidió esperar antes de enviar más mensajes ${said}; se intentará de nuevo.`, {
      permanent: false,
      ...(seconds !== null ? { retryAfterMs: seconds * 1000 } : {}),
    });
  }
  if (code === 131026) return new DeliveryFailure(`El número no tiene WhatsApp o no puede recibir este mensaje ${said}.`, { permanent: true });
  if (code === 131030) return new DeliveryFailure(`El número no está entre los destinatarios permitidos de la cuenta de WhatsApp ${said}.`, { permanent: true });
  if (code === 100 && /\bto\b|phone|recipient/i.test(`${details} ${error.message ?? ''}`)) {
    return new DeliveryFailure(`El número de WhatsApp no es válido ${said}.`, { permanent: true });
  }
  if (code === 132000 || code === 132001 || code === 132005 || code === 132007 || code === 132012 || code === 132015 || code === 132016) {
    return new DeliveryFailure(
      `La plantilla de WhatsApp «${templateName ?? ''}» no está aprobada así en WhatsApp Manager ${said}. Regístrala con sus parámetros (ver la guía de mensajes); el mensaje se enviará después.`,
      { permanent: false, setup: true, retryAfterMs: 60 * 60_000 },
    );
  }
  if (status === 403 || code === 10 || (code >= 200 && code < 300)) {
    return new DeliveryFailure(`La cuenta de WhatsApp no tiene permiso para enviar mensajes ${said}. Revisa el token en Mensajes › Configuración de envío.`, {
      permanent: false,
      setup: true,
      retryAfterMs: 15 * 60_000,
    });
  }
  if (status >= 500 || code === 1 || code === 2 || code === 131000 || code === 131016) {
    return new DeliveryFailure(`WhatsApp no está disponible en este momento ${said}; se intentará de nuevo.`, { permanent: false });
  }
  return new DeliveryFailure(`WhatsApp rechazó el mensaje ${said}.`, { permanent: true });
}

/**
 * A template parameter as the Cloud API takes it: no new lines or tabs, no
 * more than 4 spaces in a row (error 132018), and never empty.
 */
export const templateText = (text: string) => text.replace(/[\r\n\t]+/g, ' ').replace(/ {4,}/g, '   ').trim() || '—';

/** WhatsApp through Meta's WhatsApp Business Cloud API: template messages (business-initiated). */
export class WhatsAppCloudSender implements MessageSender {
  readonly channel = 'whatsapp' as const;

  constructor(private readonly settings: WhatsAppSettings) {}

  async send(message: OutgoingMessage): Promise<SentMessage> {
    const to = whatsappRecipient(message.recipient);
    if (!to) throw new DeliveryFailure(`El número de WhatsApp no es válido: «${message.recipient}».`, { permanent: true });
    const template = message.whatsappTemplate;
    if (!template) throw new DeliveryFailure('El mensaje no tiene plantilla de WhatsApp.', { permanent: true });
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'template',
      template: {
        name: template.name,
        language: { code: template.language },
        ...(template.parameters.length
          ? { components: [{ type: 'body', parameters: template.parameters.map((text) => ({ type: 'text', text: templateText(text) })) }] }
          : {}),
      },
    };
    const url = `${this.settings.apiBase.replace(/\/$/, '')}/${encodeURIComponent(this.settings.phoneNumberId)}/messages`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.settings.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      throw new DeliveryFailure('No se pudo conectar con WhatsApp; se intentará de nuevo.', { permanent: false, cause: error });
    }
    let answer: GraphError & { messages?: { id?: string }[] } = {};
    try {
      answer = (await res.json()) as typeof answer;
    } catch {
      answer = {};
    }
    if (!res.ok || answer.error) throw whatsappFailure(res.status, answer, res.headers.get('retry-after'), template.name);
    const id = answer.messages?.[0]?.id;
    if (!id) throw new DeliveryFailure('WhatsApp respondió sin el identificador del mensaje; se intentará de nuevo.', { permanent: false });
    return { providerMessageId: id };
  }

  async close(): Promise<void> {}
}
