import { z } from '../zod.ts';
import { paymentKinds } from '../rules/refunds.ts';
import { calendarDate } from './dates.ts';
import { reportRangeInput, salesReportOutput } from './admin-operations.ts';
import { id, money as moneyText } from './fields.ts';

/**
 * The owner's money (decision 034): refunds, the day's cash-up and
 * the exports. Money travels as strings with two decimals.
 */


/** POST /api/purchases/{id}/refund: a reason always; the amount only for a partial refund (default: all that can go back). */
export const purchaseRefundInput = z.object({
  id,
  reason: z
    .string({ error: 'Escribe el motivo del reembolso.' })
    .trim()
    .min(3, { error: 'Escribe el motivo del reembolso (al menos 3 letras).' })
    .max(500, { error: 'El motivo puede tener hasta 500 caracteres.' }),
  amount: z
    .union([z.string().trim(), z.number()])
    .refine((v) => /^\d{1,10}(\.\d{1,2})?$/.test(typeof v === 'number' ? String(v) : v), { error: 'El importe debe ser una cantidad en pesos con hasta dos decimales.' })
    .transform((v) => (typeof v === 'number' ? v.toFixed(2) : v))
    .nullish(),
});
export type PurchaseRefundInput = z.infer<typeof purchaseRefundInput>;

export const paymentKind = z.enum(paymentKinds);

/** A refund as stored: the refund invoice of the purchase plus who, why and how. */
export const refundOutput = z.object({
  purchase_id: z.number(),
  /** The purchase after the refund: 'revoked' (its access ended). */
  purchase_status: z.string(),
  amount: moneyText,
  method: paymentKind,
  reason: z.string(),
  /** The provider's refund id (Stripe 're_…'); null for cash and desk payments. */
  provider_refund_id: z.string().nullable(),
  /** Credit rows the refund removed. */
  credits_removed: z.number(),
  refunded_at: z.string(),
  refunded_by: z.number(),
});
export const purchaseRefundOutput = z.object({ refund: refundOutput });

/** How much of a purchase can still be refunded, for the admin's form. */
export const refundQuoteOutput = z.object({
  purchase_id: z.number(),
  paid: moneyText,
  used: z.number(),
  refundable: moneyText,
  method: paymentKind,
  /** Whether the server asks the card provider to give the money back (else staff give it). */
  through_provider: z.boolean(),
  already_refunded: z.boolean(),
});

const methodRow = z.object({ method: paymentKind, count: z.number(), total: moneyText });

/** The money of a range by payment method: sales, refunds and what stays. */
export const salesByMethodOutput = z.object({
  by_method: z.array(methodRow),
  refunds: z.object({ count: z.number(), total: moneyText, by_method: z.array(methodRow) }),
  /** Sales minus refunds of the range. */
  net: moneyText,
  /** Card sales paid in meses sin intereses, by plan (decision 082). */
  installments: z.array(z.object({ count: z.number(), sales: z.number(), total: moneyText })),
});

/** GET /api/reports/cash_up?date=: the cash that should be in the drawer at the end of a studio day. */
export const cashUpInput = z.object({ date: calendarDate('La fecha') });
export const cashUpOutput = z.object({
  date: z.string(),
  sales: z.object({ count: z.number(), total: moneyText }),
  refunds: z.object({ count: z.number(), total: moneyText }),
  /** Cash sales minus cash refunds of the day. */
  expected_cash: moneyText,
  lines: z.array(
    z.object({
      kind: z.enum(['sale', 'refund']),
      at: z.string(),
      /** The purchase of a package sold or refunded; null for a product line. */
      purchase_id: z.number().nullable(),
      /** The product line of a counter sale; null for a package. */
      product_sale_id: z.number().nullable(),
      customer: z.string(),
      title: z.string(),
      amount: moneyText,
    }),
  ),
});

export const exportKinds = ['customers', 'purchases', 'reservations', 'attendance', 'coach_pay'] as const;
export type ExportKind = (typeof exportKinds)[number];
export const reportExportInput = z.intersection(reportRangeInput, z.object({ kind: z.enum(exportKinds, { error: 'Elige qué exportar: clientes, compras, reservaciones, asistencia o pago a coaches.' }) }));
export const reportExportOutput = z.object({ filename: z.string(), content_type: z.string(), content: z.string() });

/** GET /api/reports/sales: the sales plus their split by payment method, the refunds and the net. */
export const salesWithRefundsOutput = salesReportOutput.extend(salesByMethodOutput.shape);
