import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { DeliveryFailure, type MessageSender, type OutgoingMessage, type SentMessage } from './types.ts';

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user: string | null;
  password: string | null;
  /** The From header: "Estudio" <hola@estudio.mx>. */
  from: string;
  /** The right-hand side of the Message-ID (the portal's host name). */
  messageIdDomain: string;
  /** Socket, greeting and connection timeouts (kept under the claim's lease). */
  timeoutMs: number;
}

/**
 * The Message-ID of an outbox row: the same for every attempt, so a receiver
 * that gets the message twice (a process died after the server accepted it,
 * before the row was marked sent: decision 022) can tell it is one message.
 */
export const messageIdOf = (message: Pick<OutgoingMessage, 'id' | 'stamp'>, domain: string) => `<mensaje-${message.id}.${message.stamp}@${domain}>`;

/** A text/calendar attachment says its method, so Gmail and Apple Mail offer to add the event. */
function contentTypeOf(attachment: { contentType: string; content: string }): string {
  if (!/^text\/calendar/i.test(attachment.contentType) || /method=/i.test(attachment.contentType)) return attachment.contentType;
  const method = /^METHOD:(\w+)/m.exec(attachment.content)?.[1] ?? 'PUBLISH';
  return `text/calendar; charset=utf-8; method=${method}`;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

/** The server's answer without its status code, for staff ("550 5.1.1 <x>: no existe" → "5.1.1 <x>: no existe"). */
const serverText = (e: SmtpError) => (e.response ?? e.message).replace(/^\d{3}[ -]/, '').slice(0, 300);

/** Nodemailer's connection error codes, in words (staff never read ESOCKET). */
const connectionProblems: Record<string, string> = {
  ECONNECTION: 'nadie respondió en esa dirección y puerto',
  ECONNREFUSED: 'nadie respondió en esa dirección y puerto',
  ETIMEDOUT: 'no respondió a tiempo',
  EDNS: 'no se encontró un servidor con ese nombre',
  ECONNRESET: 'la conexión se cortó (¿el puerto o la conexión segura no corresponden?)',
  ESOCKET: 'la conexión se cortó (¿el puerto o la conexión segura no corresponden?)',
  EPROTOCOL: 'lo que respondió no es un servidor de correo (¿el puerto o la conexión segura no corresponden?)',
};

/** Nodemailer's error as a DeliveryFailure with a reason staff can act on. */
export function smtpFailure(error: unknown): DeliveryFailure {
  const e = error as SmtpError;
  if (e.code === 'EAUTH' || e.responseCode === 535 || e.responseCode === 530) {
    return new DeliveryFailure(
      `El servidor de correo rechazó el usuario o la contraseña SMTP (${serverText(e)}). Revísalos en Mensajes › Configuración de envío; el mensaje se enviará cuando estén bien.`,
      { permanent: false, setup: true, retryAfterMs: 10 * 60_000, cause: error },
    );
  }
  if (typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600) {
    const who = e.command === 'RCPT TO' || e.code === 'EENVELOPE' ? 'El servidor de correo rechazó al destinatario' : 'El servidor de correo rechazó el mensaje';
    return new DeliveryFailure(`${who}: ${e.responseCode} ${serverText(e)}`, { permanent: true, cause: error });
  }
  if (typeof e.responseCode === 'number' && e.responseCode >= 400 && e.responseCode < 500) {
    return new DeliveryFailure(`El servidor de correo pidió intentarlo más tarde: ${e.responseCode} ${serverText(e)}`, { permanent: false, cause: error });
  }
  // nodemailer reports a refused or unknown address as ESOCKET; the system's code is in its message.
  const systemCode = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET)\b/.exec(e.message ?? '')?.[1];
  const connection = connectionProblems[systemCode === 'ENOTFOUND' || systemCode === 'EAI_AGAIN' ? 'EDNS' : (systemCode ?? e.code ?? '')];
  if (connection) {
    return new DeliveryFailure(`No se pudo conectar con el servidor de correo: ${connection}. Revisa el servidor y el puerto en Mensajes › Configuración de envío; se intentará de nuevo.`, {
      permanent: false,
      cause: error,
    });
  }
  return new DeliveryFailure('El envío del correo falló por un error inesperado del servidor de correo; se intentará de nuevo.', { permanent: false, cause: error });
}

/** E-mail through SMTP with nodemailer (a small pool of connections per process). */
export class SmtpSender implements MessageSender {
  readonly channel = 'email' as const;
  private readonly transport: Transporter;

  constructor(private readonly settings: SmtpSettings) {
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
      pool: true,
      maxConnections: 3,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    });
  }

  async send(message: OutgoingMessage): Promise<SentMessage> {
    const messageId = message.id > 0 ? messageIdOf(message, this.settings.messageIdDomain) : undefined;
    const headers: Record<string, string> = {};
    if (message.unsubscribeUrl) {
      headers['List-Unsubscribe'] = `<${message.unsubscribeUrl}>`;
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    }
    try {
      const info = (await this.transport.sendMail({
        from: this.settings.from,
        to: message.recipient,
        subject: message.subject ?? '',
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.attachments?.length
          ? { attachments: message.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: contentTypeOf(a), ...(a.encoding ? { encoding: a.encoding } : {}) })) }
          : {}),
        ...(messageId ? { messageId } : {}),
        headers,
      })) as { messageId: string; rejected?: unknown[] };
      if (Array.isArray(info.rejected) && info.rejected.length > 0) {
        throw new DeliveryFailure(`El servidor de correo rechazó al destinatario ${message.recipient}.`, { permanent: true });
      }
      return { providerMessageId: info.messageId };
    } catch (error) {
      if (error instanceof DeliveryFailure) throw error;
      throw smtpFailure(error);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
