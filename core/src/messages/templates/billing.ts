import { declineMessage } from '../../rules/checkout-errors.ts';
import { formatMXN, toCents } from '../../rules/money.ts';
import { formatDate, formatDateTime, type DateInput } from '../../rules/time.ts';
import { texts } from '../../texts.ts';
import type { MessageParts } from '../compose.ts';

/**
 * Billing messages (decision 024): the receipt of a payment, the
 * renewal of a subscription (its receipt), a charge that was declined, the
 * subscription cancelled after the last retry, and credits about to expire.
 * Receipts and renewals go by e-mail only (a document to keep, and a paid
 * WhatsApp conversation per charge would cost the studio for no action);
 * a declined charge, a cancellation and expiring credits ask the customer
 * to do something soon, so they also go by WhatsApp when the studio has it.
 * A cash or transfer order set aside tells how to pay it and until when
 * (estudio_orden_apartada: {{1}} name, {{2}} order, {{3}} package, {{4}} total,
 * {{5}} where to pay, {{6}} deadline).
 */

/** '$1,500.00 MXN', as the portal's thank-you page writes an amount. */
const mxn = (amount: string) => texts.thanks.mxn(formatMXN(toCents(amount)));

/** The portal's words for an order number ('Orden #0042'), as its thank-you page says it. */
export const orderNumber = texts.thanks.order;

const classesText = (n: number) => (n === -1 ? 'Ilimitadas' : n === 1 ? '1 clase' : `${n} clases`);

export interface ReceiptFacts {
  /** The customer's first name. */
  name: string | null;
  purchaseId: number;
  title: string;
  /** Package price before the discount ('1500.00'). */
  amount: string;
  /** What was charged now. */
  total: string;
  /** The discount's code and the amount it took off, when there was one. */
  discount: { code: string; off: string } | null;
  /** 'Tarjeta Visa terminación 4242', 'Efectivo', 'PayPal'… */
  paymentMethod: string;
  paidAt: DateInput;
  /** class_amount: -1 unlimited, 0 none (online, fee). */
  classes: number;
  /** End of the access (credits' expiry), or null when they do not expire. */
  expiresAt: DateInput | null;
  /** The next charge of a subscription, or null. */
  nextCharge: DateInput | null;
  /** Nothing was paid: a free offer, a gift, a free trial. */
  free: boolean;
  /** The studio gave it ('Regalo del estudio'). */
  gift: boolean;
  /** The order page in the portal (/gracias/{id}). */
  orderUrl: string;
  tz: string;
}

function receiptDetails(f: ReceiptFacts): [string, string][] {
  const rows: [string, string][] = [
    ['Orden', orderNumber(f.purchaseId)],
    ['Paquete', f.title],
  ];
  if (!f.free) {
    if (f.discount) rows.push(['Precio', mxn(f.amount)], ['Descuento', `${f.discount.code} (−${mxn(f.discount.off)})`]);
    rows.push(['Total pagado', mxn(f.total)], ['Método de pago', f.paymentMethod]);
  }
  rows.push(['Fecha', formatDateTime(f.paidAt, f.tz)]);
  if (f.classes !== 0) rows.push(['Clases', classesText(f.classes)]);
  // A subscription's classes last until its next charge, which renews them: one line says both.
  if (f.nextCharge) rows.push(['Siguiente cargo', formatDate(f.nextCharge, f.tz)]);
  else if (f.expiresAt) rows.push([f.classes === 1 || f.classes === -1 ? 'Vence el' : 'Vencen el', formatDate(f.expiresAt, f.tz)]);
  return rows;
}

/**
 * The receipt of a paid purchase (card, saved card, PayPal, cash at the
 * desk). A purchase that cost nothing (a free offer 'Obtener Oferta', a gift,
 * a free trial) gets a confirmation with the same facts and no amounts: there
 * is no payment to prove.
 */
export function purchaseReceipt(f: ReceiptFacts): MessageParts {
  const subject = f.free ? `Tu paquete «${f.title}» está listo` : `Recibo de tu compra: ${orderNumber(f.purchaseId)}`;
  const first = f.gift
    ? `El estudio te regaló «${f.title}». Ya puedes usarlo.`
    : f.free
      ? f.nextCharge
        ? `Tu prueba gratis de «${f.title}» ya empezó. No te cobramos nada hoy.`
        : `Tu paquete «${f.title}» ya está activo. No tuvo costo.`
      : `Gracias por tu compra. Recibimos tu pago de ${mxn(f.total)} por «${f.title}».`;
  return {
    kind: 'purchase-receipt',
    subject,
    greetingName: f.name,
    paragraphs: [first],
    details: receiptDetails(f),
    action: { label: 'Ver mi orden', url: f.orderUrl },
    footnotes: f.nextCharge
      ? [`Tu suscripción se renueva sola: el ${formatDate(f.nextCharge, f.tz)} te cobraremos con tu tarjeta guardada. Puedes cancelarla en Mis Compras.`]
      : [],
    whatsapp: null,
  };
}

export interface CounterReceiptFacts {
  name: string | null;
  /** The first line's purchase or product sale: the receipt's number. */
  saleNumber: number;
  /** Each line as the desk's printed receipt says it: '10 Clases (con VERANO200)', 'Agua natural 600 ml × 2'. */
  lines: { title: string; amount: string }[];
  total: string;
  /** 'Efectivo', 'Tarjeta ···· 4242 · aut. A1B2C3', 'Efectivo $100.00 + Tarjeta ···· 5555 · aut. DIV123 $80.00'. */
  paymentMethod: string;
  paidAt: DateInput;
  /** Where the customer sees her purchases (Mis Compras). */
  purchasesUrl: string;
  tz: string;
}

/**
 * The receipt of a sale at the counter (decision 111): the whole cart in one
 * message, packages and products, as the 80 mm receipt printed at the desk,
 * instead of one receipt per package and none for the products.
 */
export function counterReceipt(f: CounterReceiptFacts): MessageParts {
  return {
    kind: 'purchase-receipt',
    subject: `Recibo de tu compra en recepción: ${orderNumber(f.saleNumber)}`,
    greetingName: f.name,
    paragraphs: [`Gracias por tu compra. Recibimos tu pago de ${mxn(f.total)} en la recepción del estudio.`],
    details: [
      ...f.lines.map((l): [string, string] => [l.title, mxn(l.amount)]),
      ['Total pagado', mxn(f.total)],
      ['Método de pago', f.paymentMethod],
      ['Fecha', formatDateTime(f.paidAt, f.tz)],
    ],
    action: { label: 'Ver mis compras', url: f.purchasesUrl },
    footnotes: [texts.cashDrawer.receiptNotInvoice],
    whatsapp: null,
  };
}

/** The receipt of one renewal of a subscription: each charge has its own. */
export function subscriptionRenewed(f: ReceiptFacts): MessageParts {
  return {
    kind: 'subscription-renewed',
    subject: `Tu suscripción «${f.title}» se renovó`,
    greetingName: f.name,
    paragraphs: [`Renovamos tu suscripción «${f.title}» y recibimos tu pago de ${mxn(f.total)}. Tus clases del nuevo periodo ya están en tu cuenta.`],
    details: receiptDetails(f),
    action: { label: 'Ver mi orden', url: f.orderUrl },
    footnotes: ['Este correo es tu recibo de este cargo. Puedes cancelar tu suscripción en Mis Compras.'],
    whatsapp: null,
  };
}

export interface PaymentFailedFacts {
  name: string | null;
  purchaseId: number;
  title: string;
  total: string;
  /** The provider's decline code ('insufficient_funds'), 'no_card' when no card is saved, or null. */
  declineCode: string | null;
  /** Last digits of the card that was tried, when known. */
  cardDigits: string | null;
  /** When the charge is tried again, or null when the provider did not say. */
  nextAttempt: DateInput | null;
  methodsUrl: string;
  tz: string;
}

/** What failed, in the customer's words: the spec's decline texts without the apology. */
export function failureReason(declineCode: string | null): string {
  if (declineCode === 'no_card') return 'No tienes una tarjeta guardada para cobrar tu suscripción.';
  return declineMessage(declineCode).replace(/^Lo sentimos\.\s*/, '');
}

export function paymentFailed(f: PaymentFailedFacts): MessageParts {
  const reason = failureReason(f.declineCode);
  const card = f.cardDigits ? ` con tu tarjeta terminación ${f.cardDigits}` : '';
  const when = f.nextAttempt
    ? `Lo intentaremos de nuevo el ${formatDateTime(f.nextAttempt, f.tz)}. Si cambias tu tarjeta antes, usaremos la nueva.`
    : 'Lo intentaremos de nuevo en los próximos días. Si cambias tu tarjeta antes, usaremos la nueva.';
  return {
    kind: 'payment-failed',
    subject: `No pudimos cobrar tu suscripción «${f.title}»`,
    greetingName: f.name,
    paragraphs: [`No pudimos cobrar ${mxn(f.total)}${card} para renovar «${f.title}».`, reason, when],
    details: [
      ['Orden', orderNumber(f.purchaseId)],
      ['Importe', mxn(f.total)],
      ...(f.nextAttempt ? ([['Siguiente intento', formatDate(f.nextAttempt, f.tz)]] as [string, string][]) : []),
    ],
    action: { label: 'Cambiar mi tarjeta', url: f.methodsUrl },
    footnotes: ['Mientras no se complete el pago, tus clases de este periodo no estarán disponibles.'],
    whatsapp: {
      template: 'estudio_pago_rechazado',
      parameters: [f.name ?? '', f.title, reason, f.nextAttempt ? formatDate(f.nextAttempt, f.tz) : 'los próximos días', f.methodsUrl],
    },
  };
}

export interface SubscriptionCancelledFacts {
  name: string | null;
  purchaseId: number;
  title: string;
  /** 'payment': every retry was declined; 'provider': the payment provider ended it. */
  reason: 'payment' | 'provider';
  packagesUrl: string;
}

export function subscriptionCancelled(f: SubscriptionCancelledFacts): MessageParts {
  const why =
    f.reason === 'payment'
      ? `Cancelamos tu suscripción «${f.title}» porque no pudimos cobrarla después de varios intentos.`
      : `Tu suscripción «${f.title}» terminó.`;
  return {
    kind: 'subscription-cancelled',
    subject: `Tu suscripción «${f.title}» se canceló`,
    greetingName: f.name,
    paragraphs: [why, 'Ya no te haremos más cargos. Cuando quieras volver, puedes comprarla de nuevo en Paquetes.'],
    details: [['Orden', orderNumber(f.purchaseId)]],
    action: { label: 'Ver paquetes', url: f.packagesUrl },
    whatsapp: { template: 'estudio_suscripcion_cancelada', parameters: [f.name ?? '', f.title, f.packagesUrl] },
  };
}

export interface CreditsExpiringFacts {
  name: string | null;
  /** Unused classes of the credit row (-1 unlimited). */
  classes: number;
  title: string | null;
  /** The class type the credits are for, when they are restricted to one. */
  classType: string | null;
  expiresAt: DateInput;
  bookUrl: string;
  tz: string;
}

export function creditsExpiring(f: CreditsExpiringFacts): MessageParts {
  const date = formatDate(f.expiresAt, f.tz);
  const what = f.classes === -1 ? 'Tu acceso ilimitado' : f.classes === 1 ? 'Te queda 1 clase que' : `Te quedan ${f.classes} clases que`;
  const of = f.title ? ` de «${f.title}»` : '';
  const sentence =
    f.classes === -1
      ? `${what}${of} vence el ${formatDateTime(f.expiresAt, f.tz)}.`
      : `${what}${of} vence${f.classes === 1 ? '' : 'n'} el ${formatDateTime(f.expiresAt, f.tz)}.`;
  return {
    kind: 'credits-expiring',
    subject: f.classes === -1 ? `Tu acceso vence el ${date}` : `Tus clases vencen el ${date}`,
    greetingName: f.name,
    paragraphs: [sentence, f.classes === 1 || f.classes === -1 ? 'Aparta tu lugar antes de que venza.' : 'Aparta tu lugar antes de que venzan.'],
    details: [
      ['Clases', classesText(f.classes)],
      ...(f.classType ? ([['Tipo de clase', f.classType]] as [string, string][]) : []),
      [f.classes === 1 || f.classes === -1 ? 'Vence el' : 'Vencen el', date],
    ],
    action: { label: 'Reservar una clase', url: f.bookUrl },
    whatsapp: { template: 'estudio_creditos_por_vencer', parameters: [f.name ?? '', classesText(f.classes), date, f.bookUrl] },
  };
}

export interface PurchasePending {
  name: string | null;
  purchaseId: number;
  title: string;
  /** What to pay ('1500.00'). */
  total: string;
  /** The studio's transfer details (app config): null when it has none (pay at the desk). */
  bank: { name: string; clabe: string; beneficiary: string } | null;
  /** The concept to write on the transfer ('Orden 0042'). */
  reference: string;
  /** When the order lapses if unpaid (formatDateTime, studio time). */
  payBy: string;
  orderUrl: string;
}

/** A cash or transfer order set aside: how to pay it, and until when. */
export function purchasePending(input: PurchasePending): MessageParts {
  const details: [string, string][] = [
    ['Orden', orderNumber(input.purchaseId)],
    ['Paquete', input.title],
    ['Total a pagar', mxn(input.total)],
  ];
  if (input.bank) {
    if (input.bank.name) details.push(['Banco', input.bank.name]);
    details.push(['CLABE', input.bank.clabe]);
    if (input.bank.beneficiary) details.push(['Beneficiario', input.bank.beneficiary]);
    details.push(['Referencia (concepto)', input.reference]);
  }
  details.push(['Paga antes del', input.payBy]);
  const how = input.bank
    ? 'Transfiere desde tu banco a esta cuenta y escribe la referencia en el concepto; envíanos tu comprobante por WhatsApp o muéstralo en recepción. También puedes pagar en efectivo en recepción.'
    : 'Paga en efectivo en recepción y menciona tu número de orden; para pagar por transferencia, pide los datos de la cuenta en recepción o por WhatsApp.';
  return {
    kind: 'purchase-pending',
    subject: `Tu orden ${orderNumber(input.purchaseId)} está apartada: ${input.title}`,
    greetingName: input.name,
    paragraphs: [
      `Apartamos tu orden de ${input.title}. Tus clases se activan en cuanto registremos tu pago.`,
      how,
      `Si no recibimos el pago antes del ${input.payBy}, la orden vence y liberamos tu lugar.`,
    ],
    details,
    action: { label: 'Ver mi orden', url: input.orderUrl },
    whatsapp: {
      template: 'estudio_orden_apartada',
      parameters: [input.name ?? '', orderNumber(input.purchaseId), input.title, mxn(input.total), input.bank ? `CLABE ${input.bank.clabe}, referencia ${input.reference}` : 'en recepción', input.payBy],
    },
  };
}
