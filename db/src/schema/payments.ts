import { index, integer, pgTable, text, uniqueIndex, boolean } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns.ts';
import { customer } from './customer.ts';

/** Checkout choices. Id 1 is card (spec); 'Efectivo' is cash. */
export const payment_method = pgTable('payment_method', {
  payment_method_id: integer('payment_method_id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  description: text('description'),
  /** Which provider handles it: 'card', 'cash', 'paypal'. */
  provider: text('provider').notNull(),
  available: boolean('available').notNull().default(true),
  createdAt: createdAt(),
});

/** Saved cards. */
export const payment_source = pgTable(
  'payment_source',
  {
    payment_source_id: integer('payment_source_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    /** 'stripe' or 'sandbox'. */
    provider: text('provider').notNull(),
    /** The provider's id of the card (Stripe PaymentMethod id). */
    source_id: text('source_id').notNull(),
    card_type: text('card_type').notNull(),
    last_digits: text('last_digits').notNull(),
    exp_month: integer('exp_month'),
    exp_year: integer('exp_year'),
    is_default: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('payment_source_customer_id_idx').on(t.customer_id),
    uniqueIndex('payment_source_provider_source_key').on(t.provider, t.source_id),
  ],
);

/** Webhook events already applied: insert first, and a conflict means "seen, skip" (exactly-once). */
export const processed_webhook_event = pgTable(
  'processed_webhook_event',
  {
    processed_webhook_event_id: integer('processed_webhook_event_id').primaryKey().generatedAlwaysAsIdentity(),
    provider: text('provider').notNull(),
    event_id: text('event_id').notNull(),
    type: text('type'),
    processedAt: tstz('processed_at').defaultNow().notNull(),
  },
  (t) => [uniqueIndex('processed_webhook_event_provider_event_key').on(t.provider, t.event_id)],
);
