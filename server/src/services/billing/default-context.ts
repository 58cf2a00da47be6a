import type { MessageContext } from '../messages/message-context.ts';

let fallback: MessageContext | null = null;

/**
 * The message context of this process, for the receipts of grants whose
 * caller carries none: cash marked paid at the desk (applied inside the sync
 * push), staff's 'Marcar pagado' and 'Dar acceso'. buildServer sets it from
 * its Config; callers that have one (checkout, the Stripe webhook, the clock)
 * pass their own, which wins (decision 024).
 */
export function setReceiptMessageContext(ctx: MessageContext | null): void {
  fallback = ctx;
}

export function receiptMessageContext(explicit?: MessageContext | null): MessageContext | null {
  return explicit ?? fallback;
}
