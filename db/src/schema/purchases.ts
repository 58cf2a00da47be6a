import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { cash_shift } from './cash.ts';
import { class_type } from './catalogue.ts';
import { createdAt, money, tstz, updatedAt } from './columns.ts';
import { customer } from './customer.ts';
import { discount } from './discounts.ts';
import { class_package, subscriptionPeriods } from './packages.ts';
import { payment_method, payment_source } from './payments.ts';

/** Stripe's asynchronous ways to pay (decision 080): an OXXO voucher, a SPEI transfer to the customer's own CLABE. */
export const paymentChannels = ['oxxo', 'spei'] as const;
export type PaymentChannel = (typeof paymentChannels)[number];

/**
 * What the customer needs to pay an OXXO voucher or a SPEI transfer, as Stripe
 * answered it (next_action), and what arrived so far. Amounts in centavos.
 */
export interface PaymentInstructions {
  channel: PaymentChannel;
  /** OXXO: the voucher's reference; SPEI: the transfer's reference. */
  reference: string | null;
  /** OXXO: when the voucher expires (ISO). */
  expires_at?: string | null;
  /** Stripe's page for the voucher or the transfer (printable). */
  hosted_url?: string | null;
  /** SPEI: the customer's own CLABE and its bank. */
  clabe?: string | null;
  bank_name?: string | null;
  amount_cents: number;
  /** SPEI: what arrived, what is still missing, what came over. */
  received_cents?: number;
  remaining_cents?: number;
  overpaid_cents?: number;
}

export const purchaseStatuses = ['active', 'completed', 'pending', 'failed', 'cancelled', 'revoked'] as const;
export const invoiceStatuses = ['pending', 'completed', 'failed', 'cancelled', 'refunded'] as const;
export const paidWith = ['cash', 'transfer'] as const;

/**
 * One order. The package's terms are copied at purchase time (title, amounts,
 * subscription terms) so later package edits do not rewrite history.
 */
export const purchase = pgTable(
  'purchase',
  {
    purchase_id: integer('purchase_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'restrict' }),
    class_package_id: integer('class_package_id')
      .notNull()
      .references(() => class_package.class_package_id, { onDelete: 'restrict' }),
    payment_method_id: integer('payment_method_id').references(() => payment_method.payment_method_id, {
      onDelete: 'set null',
    }),
    payment_source_id: integer('payment_source_id').references(() => payment_source.payment_source_id, {
      onDelete: 'set null',
    }),
    discount_id: integer('discount_id').references(() => discount.discount_id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    /** Package price before discount. */
    amount: money('amount').notNull(),
    /** What was charged (after discount; 0 for a trial or a gift). */
    total_payment: money('total_payment').notNull(),
    class_amount: integer('class_amount').notNull(),
    expiration_days: integer('expiration_days'),
    status: text('status', { enum: purchaseStatuses }).notNull().default('pending'),
    subscription_id: text('subscription_id'),
    subscription_interval: integer('subscription_interval'),
    subscription_period: text('subscription_period', { enum: subscriptionPeriods }),
    free_trial_length: integer('free_trial_length'),
    /** Unit of free_trial_length; days unless set. */
    free_trial_period: text('free_trial_period', { enum: subscriptionPeriods }),
    /** Granted by an admin (giveAccess) as a gift. */
    is_gift: boolean('is_gift').notNull().default(false),
    /** 'stripe', 'sandbox', 'paypal', 'cash' or 'admin'. */
    provider: text('provider'),
    /** PaymentIntent / PayPal order id: at most one purchase per provider payment. */
    provider_payment_id: text('provider_payment_id'),
    provider_session_id: text('provider_session_id'),
    cancel_reason: text('cancel_reason'),
    /** End of access (membership expiry or end of the paid cycle after a cancel). */
    expiration_date: tstz('expiration_date'),
    /**
     * When it was first paid or granted (markPurchasePaid): money received, or
     * access given at the desk. Never cleared: a cancelled, revoked or refunded
     * purchase that was paid still takes its caps' units for good, and one
     * never paid is neither a sale nor refundable.
     */
    paidAt: tstz('paid_at'),
    /** How staff collected an 'Efectivo' order: 'cash' at the counter or a bank 'transfer' (not drawer cash); null otherwise. */
    paid_with: text('paid_with', { enum: paidWith }),
    /** An admin gave this purchase's use of its caps back (with a reason, in the activity log): it no longer counts toward them. */
    limitReleasedAt: tstz('limit_released_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    cancelledAt: tstz('cancelled_at'),
    /** When its money went back (a refund, decision 034): read where its invoices are not (the desk's replica). */
    refundedAt: tstz('refunded_at'),
    /** Paid through Stripe with an OXXO voucher or a SPEI transfer (decision 080); null for cards and everything else. */
    payment_channel: text('payment_channel', { enum: paymentChannels }),
    /**
     * A pending purchase holds its place (and its caps) until this moment when set: an OXXO voucher's expiry,
     * never shorter (decision 080). Unset, the hold is the by-provider rule of decision 015.
     */
    hold_until: tstz('hold_until'),
    payment_instructions: jsonb('payment_instructions').$type<PaymentInstructions>(),
    /** Meses sin intereses: the number of monthly statements the card's bank splits the charge into (decision 082). */
    installments: integer('installments'),
    /** A card charged on the counter's terminal: the slip's last four digits and authorization (a desk sale). */
    terminal_last4: text('terminal_last4'),
    terminal_auth: text('terminal_auth'),
    /** A counter sale paid partly in cash and the rest by card: the part of this purchase's total paid in cash (null: all by its method). */
    cash_part: money('cash_part'),
    /** The shift at the cash drawer its money was taken in (a desk sale by the staff member whose drawer was open). */
    cash_shift_id: integer('cash_shift_id').references(() => cash_shift.cash_shift_id, { onDelete: 'set null' }),
  },
  (t) => [
    index('purchase_customer_id_idx').on(t.customer_id, t.createdAt),
    index('purchase_class_package_id_idx').on(t.class_package_id, t.status),
    // Decision 044: the reports' ranges (sales, cash-up, gifts by day of sale; active and cancelled customers).
    index('purchase_created_at_idx').on(t.createdAt),
    index('purchase_expiration_date_idx').on(t.expiration_date),
    index('purchase_cancelled_or_updated_idx').on(sql`coalesce(${t.cancelledAt}, ${t.updatedAt})`),
    // The cash-up's drawer: money taken in a studio day, by when it was taken.
    index('purchase_paid_at_idx').on(t.paidAt),
    index('purchase_cash_shift_id_idx').on(t.cash_shift_id),
    uniqueIndex('purchase_provider_payment_key').on(t.provider, t.provider_payment_id),
    uniqueIndex('purchase_subscription_id_key').on(t.subscription_id),
    check(
      'purchase_status_check',
      sql`${t.status} in ('active', 'completed', 'pending', 'failed', 'cancelled', 'revoked')`,
    ),
    check('purchase_amounts_check', sql`${t.amount} >= 0 and ${t.total_payment} >= 0`),
    check('purchase_class_amount_check', sql`${t.class_amount} >= -1`),
    check('purchase_paid_with_check', sql`${t.paid_with} is null or ${t.paid_with} in ('cash', 'transfer')`),
    check('purchase_payment_channel_check', sql`${t.payment_channel} is null or ${t.payment_channel} in ('oxxo', 'spei')`),
    check('purchase_installments_check', sql`${t.installments} is null or ${t.installments} in (3, 6, 9, 12)`),
  ],
);

/** One charge of a purchase (every subscription renewal adds one). */
export const invoice = pgTable(
  'invoice',
  {
    invoice_id: integer('invoice_id').primaryKey().generatedAlwaysAsIdentity(),
    purchase_id: integer('purchase_id')
      .notNull()
      .references(() => purchase.purchase_id, { onDelete: 'cascade' }),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'restrict' }),
    total_payment: money('total_payment').notNull(),
    status: text('status', { enum: invoiceStatuses }).notNull().default('pending'),
    provider_invoice_id: text('provider_invoice_id'),
    period_start: tstz('period_start'),
    period_end: tstz('period_end'),
    paidAt: tstz('paid_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** A refund handed back from a shift's cash drawer (the refunder's open shift). */
    cash_shift_id: integer('cash_shift_id').references(() => cash_shift.cash_shift_id, { onDelete: 'set null' }),
  },
  (t) => [
    index('invoice_purchase_id_idx').on(t.purchase_id),
    index('invoice_customer_id_idx').on(t.customer_id, t.createdAt),
    // Decision 044: the cash-up's and the sales report's payments and refunds of a range.
    index('invoice_paid_at_idx').on(t.paidAt),
    index('invoice_cash_shift_id_idx').on(t.cash_shift_id),
    uniqueIndex('invoice_provider_invoice_id_key').on(t.provider_invoice_id),
    check('invoice_status_check', sql`${t.status} in ('pending', 'completed', 'failed', 'cancelled', 'refunded')`),
    check('invoice_total_check', sql`${t.total_payment} >= 0`),
  ],
);

/**
 * A customer's class credits. available_classes -1 means unlimited until
 * expiration_date. Booking takes one with a conditional
 * `UPDATE ... SET available_classes = available_classes - 1 WHERE available_classes > 0`.
 */
export const available_classes = pgTable(
  'available_classes',
  {
    available_class_id: integer('available_class_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    purchase_id: integer('purchase_id').references(() => purchase.purchase_id, { onDelete: 'set null' }),
    /** Restricted to one class type; null: any class type. */
    class_type_id: integer('class_type_id').references(() => class_type.class_type_id, { onDelete: 'set null' }),
    available_classes: integer('available_classes').notNull(),
    expiration_date: tstz('expiration_date'),
    /** Comma list of allowed start times; null: any time. */
    allowed_times: text('allowed_times'),
    /** Cancellations made with credits of this row (max_cancels_per_available_class). */
    cancels_used: integer('cancels_used').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('available_classes_customer_idx').on(t.customer_id, t.expiration_date),
    index('available_classes_purchase_id_idx').on(t.purchase_id),
    check('available_classes_amount_check', sql`${t.available_classes} >= -1`),
    check('available_classes_cancels_used_check', sql`${t.cancels_used} >= 0`),
  ],
);

export const renewalPaymentStatuses = ['pending', 'paid', 'expired'] as const;

/**
 * A renewal of a subscription paid by OXXO or SPEI (decision 083): Stripe
 * does not charge these on its own, so a few days before each charge date the
 * clock makes a new voucher or transfer for the cycle. One row per cycle
 * (unique), paid exactly once by Stripe's webhook through recordRenewal.
 */
export const renewal_payment = pgTable(
  'renewal_payment',
  {
    renewal_payment_id: integer('renewal_payment_id').primaryKey().generatedAlwaysAsIdentity(),
    purchase_id: integer('purchase_id')
      .notNull()
      .references(() => purchase.purchase_id, { onDelete: 'cascade' }),
    /** The cycle it pays (core's chargeDate k). */
    cycle: integer('cycle').notNull(),
    channel: text('channel', { enum: paymentChannels }).notNull(),
    /** The Stripe PaymentIntent of the voucher or transfer. */
    provider_payment_id: text('provider_payment_id'),
    status: text('status', { enum: renewalPaymentStatuses }).notNull().default('pending'),
    amount: money('amount').notNull(),
    /** The cycle's charge date: the subscription lapses this many grace days after it unpaid. */
    due_at: tstz('due_at').notNull(),
    payment_instructions: jsonb('payment_instructions').$type<PaymentInstructions>(),
    paidAt: tstz('paid_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('renewal_payment_cycle_key').on(t.purchase_id, t.cycle),
    uniqueIndex('renewal_payment_provider_key').on(t.provider_payment_id),
    check('renewal_payment_status_check', sql`${t.status} in ('pending', 'paid', 'expired')`),
    check('renewal_payment_channel_check', sql`${t.channel} in ('oxxo', 'spei')`),
  ],
);
