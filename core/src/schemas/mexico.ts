import { z } from '../zod.ts';
import { id, isoDateTime, money } from './fields.ts';

/**
 * The API contract of Mexico's money (decisions 080-086): OXXO vouchers and
 * SPEI transfers at checkout, meses sin intereses, the customer's tax profile,
 * CFDI 4.0 invoices per purchase, the studio's PAC account.
 */


export const paymentChannelEnum = z.enum(['oxxo', 'spei']);

export const checkoutVoucherInput = z.object({
  class_package_id: id,
  discountCode: z
    .string()
    .trim()
    .max(64)
    .nullish()
    .transform((v) => (v ? v : undefined)),
  channel: paymentChannelEnum,
});

export const checkoutOptionsOutput = z.object({
  /** OXXO vouchers are offered (Stripe configured and the studio's setting on). */
  oxxo: z.boolean(),
  /** SPEI transfers to the customer's own CLABE are offered. */
  spei: z.boolean(),
  /** Meses sin intereses from this amount ('1000.00'); null when the studio does not offer them. */
  installments_min_amount: money.nullable(),
});

export const installmentPlanOutput = z.object({
  count: z.number(),
  /** What each monthly statement shows. */
  monthly: money,
});

/** The voucher or transfer of a pending purchase, as the order page shows it. */
export const paymentInstructionsOutput = z.object({
  channel: paymentChannelEnum,
  reference: z.string().nullable(),
  expires_at: isoDateTime.nullable(),
  hosted_url: z.string().nullable(),
  clabe: z.string().nullable(),
  bank_name: z.string().nullable(),
  amount: money,
  received: money,
  remaining: money,
  /** SPEI: sent over the amount; it stays in the customer's balance for the next transfer payment. */
  overpaid: money,
});

export const cfdiStateEnum = z.enum(['none', 'pending', 'stamped', 'failed', 'cancelling', 'cancelled', 'global']);

/** A purchase's invoice, as Mis Compras and the desk show it. */
export const purchaseCfdiOutput = z.object({
  state: cfdiStateEnum,
  cfdi_id: z.number().nullable(),
  uuid: z.string().nullable(),
  /** No PAC configured yet: the request waits (decision 084). */
  waiting_for_pac: z.boolean(),
  failure_reason: z.string().nullable(),
  /** The customer may ask for it now (paid, in the window, not on a global invoice, not asked yet). */
  can_request: z.boolean(),
  /** Until when it may be asked for. */
  request_until: isoDateTime.nullable(),
  credit_notes: z.array(z.object({ cfdi_id: z.number(), uuid: z.string().nullable(), total: money, state: cfdiStateEnum })),
});
export type PurchaseCfdiOutput = z.infer<typeof purchaseCfdiOutput>;

// ---------- Tax profile (Mi Información) ----------

export const taxProfileInput = z.object({
  rfc: z.string().max(20),
  legal_name: z.string().max(300),
  tax_regime: z.string().max(3),
  cfdi_use: z.string().max(4),
  postcode: z.string().max(10),
  email: z.string().trim().max(254).nullish(),
});
export type TaxProfileBody = z.infer<typeof taxProfileInput>;

export const taxProfileOutput = z.object({
  tax_profile: z
    .object({
      rfc: z.string(),
      legal_name: z.string(),
      tax_regime: z.string(),
      cfdi_use: z.string(),
      postcode: z.string(),
      email: z.string().nullable(),
      /** 'fisica' or 'moral', from the RFC. */
      persona: z.enum(['fisica', 'moral']),
      updatedAt: isoDateTime,
    })
    .nullable(),
});

export const cfdiRequestInput = z.object({ purchase_id: id });
export const cfdiFileInput = z.object({ id, format: z.enum(['pdf', 'xml']) });
export const cfdiFileOutput = z.object({ filename: z.string(), content_type: z.string(), base64: z.string() });

export const cfdiDocumentOutput = z.object({
  cfdi_id: z.number(),
  kind: z.enum(['invoice', 'global', 'credit_note']),
  status: z.enum(['pending', 'stamped', 'failed', 'cancelling', 'cancelled']),
  purchase_id: z.number().nullable(),
  total: money,
  uuid: z.string().nullable(),
  series: z.string().nullable(),
  folio: z.string().nullable(),
  receiver: z.object({ rfc: z.string(), legal_name: z.string() }),
  failure_reason: z.string().nullable(),
  cancel_motive: z.string().nullable(),
  waiting_for_pac: z.boolean(),
  createdAt: isoDateTime,
  stampedAt: isoDateTime.nullable(),
});
export const cfdiOneOutput = z.object({ cfdi: cfdiDocumentOutput });

/** The desk's invoice issue for a customer: her own profile, or one typed at the counter. */
export const deskCfdiInput = z.object({ purchase_id: id, tax_profile: taxProfileInput.optional() });

export const cfdiListInput = z.object({
  kind: z.enum(['invoice', 'global', 'credit_note']).optional(),
  status: z.enum(['pending', 'stamped', 'failed', 'cancelling', 'cancelled']).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const cfdiListOutput = z.object({ cfdis: z.array(cfdiDocumentOutput), total: z.number() });

/** The desk's view of a customer's invoices: her tax profile and each purchase's invoice state. */
export const cfdiForCustomerOutput = taxProfileOutput.extend({
  purchases: z.array(z.object({ purchase_id: z.number(), cfdi: purchaseCfdiOutput })),
});

// ---------- The PAC account (owner) ----------

export const pacSettingsOutput = z.object({
  facturapi_key_set: z.boolean(),
  webhook_secret_set: z.boolean(),
  /** Invoices waiting for a PAC or a retry. */
  pending: z.number(),
});
export const pacSettingsUpdateInput = z.object({
  facturapi_key: z.string().trim().max(200).nullish(),
  webhook_secret: z.string().trim().max(200).nullish(),
});
