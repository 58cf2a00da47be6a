import { DomainError } from '../errors.ts';

/** A card decline: 402 'payment/card-declined' carrying the provider's decline code. */
export class PaymentDeclinedError extends DomainError {
  readonly decline_code: string;
  constructor(declineCode: string) {
    super('payment/card-declined', declineMessage(declineCode));
    this.decline_code = declineCode;
  }
}

export const purchaseErrorTexts = {
  insufficientFunds: 'Lo sentimos. Tu tarjeta ha sido rechazada por fondos insuficientes.',
  stolen: 'Lo sentimos. Esta tarjeta ha sido reportada como robada o perdida y no puede utilizarse.',
  declined: 'Lo sentimos. Tu tarjeta ha sido rechazada por tu banco. Comunícate con tu banco para saber más.',
  expired: 'Lo sentimos. Tu tarjeta ha expirado',
  incorrectCvc: 'Lo sentimos. El CVV de tu tarjeta es incorrecto',
  incorrectNumber: 'Lo sentimos. El número de la tarjeta es incorrecto.',
  noMethod: 'No has seleccionado un método de pago.',
  peopleLimit: 'Lo sentimos, se ha alcanzado el límite de personas para este paquete.',
  customerLimit: 'Lo sentimos, ya has alcanzado el límite de compras de este paquete.',
  fallback: 'Hubo un error al procesar tu compra. Inténtalo más tarde.',
} as const;

/** The spec's message for a decline code (purchase error table). */
export function declineMessage(declineCode: string | null | undefined): string {
  switch (declineCode) {
    case 'insufficient_funds':
      return purchaseErrorTexts.insufficientFunds;
    case 'lost_card':
    case 'stolen_card':
      return purchaseErrorTexts.stolen;
    case 'expired_card':
      return purchaseErrorTexts.expired;
    case 'incorrect_cvc':
      return purchaseErrorTexts.incorrectCvc;
    case 'incorrect_number':
      return purchaseErrorTexts.incorrectNumber;
    default:
      return purchaseErrorTexts.declined;
  }
}

export interface PurchaseErrorBody {
  code?: string;
  message?: string;
  decline_code?: string;
}

/**
 * Spec §8, purchase error mapping (customer checkout): the message the portal
 * shows for a failed purchase answer. `body` is the ApiErrorBody (or nothing).
 */
export function purchaseErrorMessage(status: number | null | undefined, body?: PurchaseErrorBody | null): string {
  const message = body?.message?.trim();
  if (status === 402 || body?.decline_code) return declineMessage(body?.decline_code);
  if (status === 400) return purchaseErrorTexts.noMethod;
  if (status === 412) return message || purchaseErrorTexts.peopleLimit;
  if (status === 409) return purchaseErrorTexts.customerLimit;
  if (message) return message;
  return purchaseErrorTexts.fallback;
}
