import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, money, tstz, updatedAt } from './columns.ts';
import { customer } from './customer.ts';
import { product_sale } from './products.ts';
import { invoice, purchase } from './purchases.ts';

/**
 * A customer's tax profile for CFDI 4.0 invoices (decision 084), edited in Mi
 * Información: RFC, the name as the SAT registers it, regime, CFDI use and
 * fiscal postcode, checked by core's taxProfileProblem before it is saved.
 */
export const tax_profile = pgTable('tax_profile', {
  customer_id: integer('customer_id')
    .primaryKey()
    .references(() => customer.customer_id, { onDelete: 'cascade' }),
  rfc: text('rfc').notNull(),
  legal_name: text('legal_name').notNull(),
  tax_regime: text('tax_regime').notNull(),
  cfdi_use: text('cfdi_use').notNull(),
  postcode: text('postcode').notNull(),
  /** Where the invoices go; the account's e-mail when null. */
  email: text('email'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const cfdiKinds = ['invoice', 'global', 'credit_note'] as const;
/**
 * pending: waiting to be stamped (no PAC configured yet, or being sent);
 * stamped: valid at the SAT; failed: the PAC refused it (reason kept, it can be sent again);
 * cancelling: a cancellation asked for and not yet accepted; cancelled.
 */
export const cfdiStatuses = ['pending', 'stamped', 'failed', 'cancelling', 'cancelled'] as const;

/** The receiver as the CFDI names it, copied when the document is made (a later profile change does not rewrite it). */
export interface CfdiReceiver {
  rfc: string;
  legal_name: string;
  tax_regime: string;
  cfdi_use: string;
  postcode: string;
  email: string | null;
}

/**
 * One CFDI 4.0 document of the studio (decision 084): an invoice to a person
 * for one charge, the global invoice of a period (its charges in
 * cfdi_global_charge), or a credit note (egreso) related to another. The PAC
 * is called after the row is committed ('pending'), by the clock's sender,
 * with the row's id as the idempotency key, so a request is never lost when
 * no PAC is configured and never stamped twice.
 */
export const cfdi = pgTable(
  'cfdi',
  {
    cfdi_id: integer('cfdi_id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: cfdiKinds }).notNull(),
    status: text('status', { enum: cfdiStatuses }).notNull().default('pending'),
    /** The charge (a paid `invoice` row) an invoice or credit note is for; null for a global invoice. */
    charge_id: integer('charge_id').references(() => invoice.invoice_id, { onDelete: 'restrict' }),
    purchase_id: integer('purchase_id').references(() => purchase.purchase_id, { onDelete: 'restrict' }),
    customer_id: integer('customer_id').references(() => customer.customer_id, { onDelete: 'set null' }),
    /** A credit note's invoice (or global invoice). */
    related_cfdi_id: integer('related_cfdi_id'),
    receiver: jsonb('receiver').$type<CfdiReceiver>().notNull(),
    total: money('total').notNull(),
    /** c_FormaPago of the money received ('01' cash, '03' transfer, '04' credit card…). */
    payment_form: text('payment_form').notNull(),
    /** A global invoice's period: 'month:2026-11-01', its SAT months key and year. */
    period_key: text('period_key'),
    global_months: text('global_months'),
    global_year: integer('global_year'),
    global_periodicity: text('global_periodicity'),
    /** Who asked: the customer herself, or staff at the desk (null for the clock's global invoices). */
    requested_by: integer('requested_by').references(() => customer.customer_id, { onDelete: 'set null' }),
    provider_id: text('provider_id'),
    uuid: text('uuid'),
    series: text('series'),
    folio: text('folio'),
    xml: text('xml'),
    pdf_base64: text('pdf_base64'),
    failure_reason: text('failure_reason'),
    cancel_motive: text('cancel_motive'),
    /** facturapi's cancellation_status while cancelling (pending: the receiver must accept; verifying: the SAT). */
    cancellation_status: text('cancellation_status'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: tstz('next_attempt_at').defaultNow().notNull(),
    claimed_until: tstz('claimed_until'),
    stampedAt: tstz('stamped_at'),
    cancelledAt: tstz('cancelled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One live personal invoice per charge: two requests at once store one (the second answers the first).
    uniqueIndex('cfdi_invoice_charge_key').on(t.charge_id).where(sql`${t.kind} = 'invoice' and ${t.status} <> 'cancelled'`),
    uniqueIndex('cfdi_provider_id_key').on(t.provider_id),
    // One global invoice per period and payment form.
    uniqueIndex('cfdi_global_period_key').on(t.period_key, t.payment_form).where(sql`${t.kind} = 'global'`),
    index('cfdi_due_idx').on(t.next_attempt_at).where(sql`${t.status} in ('pending', 'cancelling')`),
    index('cfdi_purchase_id_idx').on(t.purchase_id),
    check('cfdi_kind_check', sql`${t.kind} in ('invoice', 'global', 'credit_note')`),
    check('cfdi_status_check', sql`${t.status} in ('pending', 'stamped', 'failed', 'cancelling', 'cancelled')`),
    check('cfdi_total_check', sql`${t.total} >= 0`),
  ],
);

/** The charges a global invoice carries (one line each); a charge is on one global invoice at most. */
export const cfdi_global_charge = pgTable(
  'cfdi_global_charge',
  {
    cfdi_id: integer('cfdi_id')
      .notNull()
      .references(() => cfdi.cfdi_id, { onDelete: 'cascade' }),
    charge_id: integer('charge_id')
      .notNull()
      .references(() => invoice.invoice_id, { onDelete: 'restrict' }),
    /** The amount on the line: the charge less what was refunded before the global invoice was made. */
    amount: money('amount').notNull(),
  },
  (t) => [uniqueIndex('cfdi_global_charge_key').on(t.charge_id), index('cfdi_global_charge_cfdi_idx').on(t.cfdi_id)],
);

/**
 * The products sold at the counter on a global invoice (decision 114): each sale line once, as the charges above.
 * A product sale is never invoiced to a person, so all of them go on the global invoice of their period.
 */
export const cfdi_global_product_sale = pgTable(
  'cfdi_global_product_sale',
  {
    cfdi_id: integer('cfdi_id')
      .notNull()
      .references(() => cfdi.cfdi_id, { onDelete: 'cascade' }),
    product_sale_id: integer('product_sale_id')
      .notNull()
      .references(() => product_sale.product_sale_id, { onDelete: 'restrict' }),
    amount: money('amount').notNull(),
  },
  (t) => [uniqueIndex('cfdi_global_product_sale_key').on(t.product_sale_id), index('cfdi_global_product_sale_cfdi_idx').on(t.cfdi_id)],
);

/**
 * The studio's PAC account (facturapi): the secret key and the webhook secret,
 * written by the owner and never read back (as the messaging settings), each
 * falling back to FACTURAPI_KEY / FACTURAPI_WEBHOOK_SECRET.
 */
export const pac_settings = pgTable(
  'pac_settings',
  {
    pac_settings_id: integer('pac_settings_id').primaryKey(),
    facturapi_key: text('facturapi_key'),
    webhook_secret: text('webhook_secret'),
    updatedAt: updatedAt(),
  },
  (t) => [check('pac_settings_single_row', sql`${t.pac_settings_id} = 1`)],
);
