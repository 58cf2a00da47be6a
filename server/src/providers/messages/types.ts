import type { OutboxAttachment, OutboxWhatsAppTemplate } from '@estudio/db/schema/outbox';

/** One message as a sender sends it (an outbox row, or the admin's test message). */
export interface OutgoingMessage {
  /** The outbox row's id; a sender derives its idempotency key from it (the e-mail's Message-ID). */
  id: number;
  /** A stable per-row value (the row's creation time in ms): with the id it makes the Message-ID unique across databases. */
  stamp: number;
  kind: string;
  recipient: string;
  subject: string | null;
  text: string;
  html: string | null;
  attachments: OutboxAttachment[] | null;
  whatsappTemplate: OutboxWhatsAppTemplate | null;
  /** The stop link of an optional message (List-Unsubscribe); null for transactional ones. */
  unsubscribeUrl: string | null;
}

export interface SentMessage {
  /** The provider's id of what it accepted: the SMTP Message-ID, the WhatsApp wamid. */
  providerMessageId: string;
}

/** A channel's sender. `send` resolves when the provider accepted the message, or throws a DeliveryFailure. */
export interface MessageSender {
  readonly channel: 'email' | 'whatsapp';
  send(message: OutgoingMessage): Promise<SentMessage>;
  close(): Promise<void>;
}

/**
 * Why a provider did not accept a message. `reason` is Spanish, for staff:
 * it is the row's last_error in the desk's 'Mensajes' screen.
 * - permanent: the message can never go (invalid number, mailbox refused): failed now.
 * - temporary: try again later (after `retryAfterMs` when the provider says).
 * - setup: the studio's configuration is at fault (expired token, wrong SMTP
 *   password), not the message: it waits without using up its attempts.
 */
export class DeliveryFailure extends Error {
  override name = 'DeliveryFailure';
  readonly permanent: boolean;
  readonly setup: boolean;
  readonly retryAfterMs: number | undefined;
  constructor(reason: string, options: { permanent: boolean; setup?: boolean; retryAfterMs?: number; cause?: unknown }) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.permanent = options.permanent;
    this.setup = options.setup ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
  get reason(): string {
    return this.message;
  }
}
