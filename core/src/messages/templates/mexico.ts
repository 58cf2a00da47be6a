import { formatClabe } from '../../rules/clabe.ts';
import { formatMXN } from '../../rules/money.ts';
import { formatDate, formatDateTime, type DateInput } from '../../rules/time.ts';
import { texts } from '../../texts.ts';
import type { MessageAttachment, MessageParts } from '../compose.ts';

/**
 * Mexico's money messages (decisions 080-084): the OXXO voucher or SPEI
 * details of a purchase or a renewal, a voucher that expired, a transfer that
 * arrived short or over, and an invoice (CFDI) with its PDF and XML. The
 * voucher and transfer details go by WhatsApp too: the customer pays from her
 * phone at the store or in her bank's app.
 */

const mxnCents = (cents: number) => texts.thanks.mxn(formatMXN(cents));
const orderNumber = texts.thanks.order;

export interface VoucherFacts {
  name: string | null;
  purchaseId: number;
  title: string;
  channel: 'oxxo' | 'spei';
  amountCents: number;
  reference: string | null;
  /** OXXO: when the voucher expires. */
  expiresAt: DateInput | null;
  /** SPEI: the customer's own CLABE and its bank. */
  clabe: string | null;
  bankName: string | null;
  /** Stripe's printable voucher or transfer page. */
  hostedUrl: string | null;
  orderUrl: string;
  /** A renewal of a subscription: when the period it pays starts. */
  renewalDue?: DateInput | null;
  tz: string;
}

/** The voucher (OXXO) or transfer details (SPEI) of a purchase or a renewal. */
export function paymentInstructions(f: VoucherFacts): MessageParts {
  const renewal = f.renewalDue !== undefined && f.renewalDue !== null;
  const amount = mxnCents(f.amountCents);
  if (f.channel === 'oxxo') {
    const expires = f.expiresAt ? formatDateTime(f.expiresAt, f.tz) : '';
    return {
      kind: renewal ? 'renewal-instructions' : 'payment-instructions',
      subject: renewal ? `Tu ficha OXXO para renovar «${f.title}»` : `Tu ficha OXXO: ${orderNumber(f.purchaseId)}`,
      greetingName: f.name,
      paragraphs: [
        renewal
          ? `Tu suscripción «${f.title}» se renueva el ${formatDate(f.renewalDue as DateInput, f.tz)}. Paga esta ficha en cualquier OXXO para mantenerla activa.`
          : `Para completar tu compra de «${f.title}», paga esta ficha en cualquier OXXO antes de que venza. Tu lugar queda apartado hasta entonces.`,
        'Muestra la referencia en caja y paga en efectivo. OXXO cobra una comisión por el servicio. Te avisaremos en cuanto recibamos el pago (a más tardar el siguiente día hábil).',
      ],
      details: [
        ['Orden', orderNumber(f.purchaseId)],
        ['Referencia', f.reference ?? ''],
        ['Monto', amount],
        ['Vence', expires],
      ],
      action: { label: f.hostedUrl ? 'Ver la ficha para imprimir' : 'Ver mi orden', url: f.hostedUrl ?? f.orderUrl },
      footnotes: [`También puedes ver tu ficha en tu orden: ${f.orderUrl}`],
      whatsapp: {
        template: renewal ? 'estudio_renovacion_ficha' : 'estudio_ficha_oxxo',
        parameters: [f.name ?? '', f.title, amount, f.reference ?? '', expires, f.hostedUrl ?? f.orderUrl],
      },
    };
  }
  const clabe = f.clabe ? formatClabe(f.clabe) : '';
  return {
    kind: renewal ? 'renewal-instructions' : 'payment-instructions',
    subject: renewal ? `Datos para renovar «${f.title}» por transferencia` : `Datos para tu transferencia: ${orderNumber(f.purchaseId)}`,
    greetingName: f.name,
    paragraphs: [
      renewal
        ? `Tu suscripción «${f.title}» se renueva el ${formatDate(f.renewalDue as DateInput, f.tz)}. Transfiere ${amount} por SPEI a tu CLABE del estudio para mantenerla activa.`
        : `Para completar tu compra de «${f.title}», transfiere ${amount} por SPEI desde tu banca en línea. Se confirma en cuanto llega el dinero.`,
      'Esta CLABE es solo tuya: cada transferencia a ella se abona a tus compras en el estudio. Si transfieres de menos, te diremos cuánto falta; si transfieres de más, el resto queda a tu favor.',
    ],
    details: [
      ['Orden', orderNumber(f.purchaseId)],
      ['Banco', f.bankName ?? ''],
      ['CLABE', clabe],
      ['Referencia', f.reference ?? ''],
      ['Monto', amount],
    ],
    action: { label: 'Ver mi orden', url: f.orderUrl },
    whatsapp: {
      template: renewal ? 'estudio_renovacion_transferencia' : 'estudio_datos_transferencia',
      parameters: [f.name ?? '', f.title, amount, clabe, f.reference ?? '', f.orderUrl],
    },
  };
}

/**
 * An OXXO voucher expired unpaid, or a SPEI transfer's time ran out before the
 * whole amount arrived: the place is free again. What a customer did
 * transfer stays hers in her CLABE's balance (Stripe keeps it for her next
 * transfer payment, or the studio refunds it).
 */
export function voucherExpired(f: { name: string | null; purchaseId: number; title: string; buyUrl: string; channel?: 'oxxo' | 'spei'; receivedCents?: number }): MessageParts {
  const spei = f.channel === 'spei';
  const kept = spei && (f.receivedCents ?? 0) > 0 ? [`Los ${mxnCents(f.receivedCents ?? 0)} que alcanzaste a transferir quedan a tu favor en tu CLABE del estudio: se usan en tu siguiente compra por transferencia, o pide en recepción que te los devolvamos.`] : [];
  return {
    kind: 'voucher-expired',
    subject: spei ? `Terminó el plazo de tu transferencia de «${f.title}»` : `Tu ficha OXXO de «${f.title}» venció`,
    greetingName: f.name,
    paragraphs: [
      spei
        ? `El plazo para tu transferencia de «${f.title}» (${orderNumber(f.purchaseId)}) terminó sin que recibiéramos el pago completo, así que liberamos tu lugar.`
        : `La ficha OXXO de tu compra de «${f.title}» (${orderNumber(f.purchaseId)}) venció sin que recibiéramos el pago, así que liberamos tu lugar.`,
      ...kept,
      'Si aún quieres el paquete, puedes comprarlo de nuevo cuando quieras.',
    ],
    details: [['Orden', orderNumber(f.purchaseId)]],
    action: { label: 'Comprar de nuevo', url: f.buyUrl },
    whatsapp: null,
  };
}

/** A SPEI transfer arrived short of the purchase, or over it. */
export function transferReceived(
  f: { name: string | null; purchaseId: number; title: string; receivedCents: number; remainingCents: number; overpaidCents: number; clabe: string | null; orderUrl: string },
): MessageParts {
  const short = f.remainingCents > 0;
  return {
    kind: 'transfer-received',
    subject: short ? `Recibimos parte de tu transferencia: ${orderNumber(f.purchaseId)}` : `Recibimos tu transferencia con ${mxnCents(f.overpaidCents)} de más`,
    greetingName: f.name,
    paragraphs: short
      ? [
          `Recibimos ${mxnCents(f.receivedCents)} para tu compra de «${f.title}». Faltan ${mxnCents(f.remainingCents)} para completarla.`,
          `Transfiere el resto a la misma CLABE${f.clabe ? ` (${formatClabe(f.clabe)})` : ''}. Tu lugar sigue apartado mientras tanto.`,
        ]
      : [
          `Recibimos tu pago de «${f.title}» y ${mxnCents(f.overpaidCents)} de más.`,
          'Lo que pagaste de más queda a tu favor en tu CLABE del estudio y se usa en tu siguiente compra o renovación por transferencia. Si prefieres que te lo devolvamos, pídelo en recepción.',
        ],
    details: [
      ['Orden', orderNumber(f.purchaseId)],
      ['Recibido', mxnCents(f.receivedCents)],
      ...(short ? ([['Falta', mxnCents(f.remainingCents)]] as [string, string][]) : ([['A tu favor', mxnCents(f.overpaidCents)]] as [string, string][])),
    ],
    action: { label: 'Ver mi orden', url: f.orderUrl },
    whatsapp: null,
  };
}

/** A stamped invoice: its folio, total, and the PDF and XML attached. */
export function cfdiIssued(f: {
  name: string | null;
  kind: 'invoice' | 'credit_note';
  title: string;
  uuid: string;
  series: string | null;
  folio: string | null;
  total: string;
  legalName: string;
  rfc: string;
  attachments: MessageAttachment[];
  purchasesUrl: string;
}): MessageParts {
  const what = f.kind === 'credit_note' ? 'nota de crédito' : 'factura';
  return {
    kind: 'cfdi-issued',
    subject: f.kind === 'credit_note' ? `Tu nota de crédito de «${f.title}»` : `Tu factura de «${f.title}»`,
    greetingName: f.name,
    paragraphs: [`Te enviamos la ${what} de «${f.title}» a nombre de ${f.legalName} (RFC ${f.rfc}). Adjuntamos el PDF y el XML.`],
    details: [
      ['Folio fiscal (UUID)', f.uuid],
      ...(f.series || f.folio ? ([['Serie y folio', `${f.series ?? ''}${f.folio ?? ''}`]] as [string, string][]) : []),
      ['Total', texts.thanks.mxn(formatMXN(Math.round(Number(f.total) * 100)))],
    ],
    action: { label: 'Ver mis compras', url: f.purchasesUrl },
    attachments: f.attachments,
    whatsapp: null,
  };
}
