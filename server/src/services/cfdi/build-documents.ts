import { fromCents, genericRfcs, toCents, type AppConfigMap } from '@estudio/core';
import type { cfdi, CfdiReceiver } from '@estudio/db/schema/cfdi';

type CfdiRow = typeof cfdi.$inferSelect;

/** The receiver of a global invoice: the public in general, at the studio's own postcode (CFDI 4.0). */
export function publicoEnGeneral(settings: AppConfigMap): CfdiReceiver {
  return { rfc: genericRfcs.publicoEnGeneral, legal_name: 'PUBLICO EN GENERAL', tax_regime: '616', cfdi_use: 'S01', postcode: settings.fiscal_postcode, email: null };
}

/** IVA as facturapi takes it: prices include it (tax_included), at the studio's rate. */
function taxes(settings: AppConfigMap) {
  const rate = Number(settings.cfdi_iva_rate);
  return [{ type: 'IVA', rate: Number.isFinite(rate) ? rate / 100 : 0.16 }];
}

function customerOf(r: CfdiReceiver) {
  return {
    legal_name: r.legal_name,
    tax_id: r.rfc,
    tax_system: r.tax_regime,
    ...(r.email ? { email: r.email } : {}),
    address: { zip: r.postcode },
  };
}

const issuedFrom = (settings: AppConfigMap) => (settings.fiscal_postcode ? { address: { zip: settings.fiscal_postcode } } : {});

export interface InvoiceLine {
  title: string;
  /** A membership (subscription or unlimited) takes the memberships' SAT key. */
  membership: boolean;
  installments: number | null;
}

/** An invoice to a person (tipo I) for one charge: one line, the package, IVA included. */
export function personalInvoiceBody(doc: CfdiRow, line: InvoiceLine, settings: AppConfigMap): Record<string, unknown> {
  return {
    type: 'I',
    customer: customerOf(doc.receiver),
    use: doc.receiver.cfdi_use,
    payment_form: doc.payment_form,
    payment_method: 'PUE',
    ...(settings.cfdi_series ? { series: settings.cfdi_series } : {}),
    ...issuedFrom(settings),
    external_id: `cfdi-${doc.cfdi_id}`,
    idempotency_key: `cfdi-${doc.cfdi_id}`,
    items: [
      {
        quantity: 1,
        product: {
          description: line.installments ? `${line.title} (${line.installments} meses sin intereses)` : line.title,
          product_key: line.membership ? settings.sat_product_key_memberships : settings.sat_product_key_classes,
          unit_key: settings.sat_unit_key,
          price: Number(doc.total),
          tax_included: true,
          taxes: taxes(settings),
          sku: doc.charge_id ? `C${doc.charge_id}` : undefined,
        },
      },
    ],
  };
}

/**
 * The global invoice (tipo I to XAXX010101000, uso S01, InformacionGlobal):
 * one line per sale, as the SAT asks (ClaveProdServ 01010101, unit ACT, the
 * sale's number as its identifier: C and the charge, P and the product sale), at most 5,000 lines a document.
 */
export type GlobalLine = { charge_id: number; amount: string } | { product_sale_id: number; amount: string };

export function globalInvoiceBody(doc: CfdiRow, lines: GlobalLine[], settings: AppConfigMap): Record<string, unknown> {
  return {
    type: 'I',
    customer: customerOf(publicoEnGeneral(settings)),
    use: 'S01',
    payment_form: doc.payment_form,
    payment_method: 'PUE',
    global: { periodicity: doc.global_periodicity, months: doc.global_months, year: doc.global_year },
    ...(settings.cfdi_global_series ? { series: settings.cfdi_global_series } : {}),
    ...issuedFrom(settings),
    external_id: `cfdi-${doc.cfdi_id}`,
    idempotency_key: `cfdi-${doc.cfdi_id}`,
    items: lines.map((l) => ({
      quantity: 1,
      product: { description: 'Venta', product_key: '01010101', unit_key: 'ACT', price: Number(l.amount), tax_included: true, taxes: taxes(settings), sku: 'charge_id' in l ? `C${l.charge_id}` : `P${l.product_sale_id}` },
    })),
  };
}

/**
 * A credit note (tipo E, CFDI de egreso) for money given back of an invoiced
 * sale: related to the invoice it corrects (relationship 01, nota de crédito),
 * to the same receiver, use G02 for a person (devoluciones) or S01 for the public.
 */
export function creditNoteBody(doc: CfdiRow, relatedUuid: string, settings: AppConfigMap): Record<string, unknown> {
  const toPublic = doc.receiver.rfc === genericRfcs.publicoEnGeneral;
  return {
    type: 'E',
    customer: customerOf(doc.receiver),
    use: toPublic ? 'S01' : 'G02',
    payment_form: doc.payment_form,
    ...(settings.cfdi_credit_note_series ? { series: settings.cfdi_credit_note_series } : {}),
    ...issuedFrom(settings),
    related_documents: [{ relationship: '01', documents: [relatedUuid] }],
    external_id: `cfdi-${doc.cfdi_id}`,
    idempotency_key: `cfdi-${doc.cfdi_id}`,
    items: [{ quantity: 1, product: { description: 'Devolución', product_key: '84111506', unit_key: 'ACT', price: Number(doc.total), tax_included: true, taxes: taxes(settings) } }],
  };
}

export const sumMoney = (amounts: readonly string[]) => fromCents(amounts.reduce((n, a) => n + toCents(a), 0));
