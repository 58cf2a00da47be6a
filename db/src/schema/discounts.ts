import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, money, tstz, updatedAt } from './columns.ts';
import { customer } from './customer.ts';
import { class_package } from './packages.ts';
import { purchase } from './purchases.ts';

/**
 * Discount codes. `uses` is the taken counter: redeeming is a conditional
 * `UPDATE discount SET uses = uses + 1 WHERE uses < max_uses`, so the last use
 * cannot be taken twice; the CHECK backs it up.
 */
export const discount = pgTable(
  'discount',
  {
    discount_id: integer('discount_id').primaryKey().generatedAlwaysAsIdentity(),
    /** Stored upper-case; matched case-insensitively by upper-casing the input. */
    code: text('code').notNull(),
    description: text('description'),
    /** Percent (0-100) when is_percent, otherwise MXN off. */
    amount: money('amount').notNull(),
    is_percent: boolean('is_percent').notNull().default(false),
    /** For subscriptions: applies to the first charge only. */
    first_invoice_only: boolean('first_invoice_only').notNull().default(false),
    /** Total uses allowed; null: unlimited. */
    max_uses: integer('max_uses'),
    /** Uses allowed per customer; null: unlimited. */
    max_uses_per_customer: integer('max_uses_per_customer'),
    uses: integer('uses').notNull().default(0),
    starts_at: tstz('starts_at'),
    expires_at: tstz('expires_at'),
    available: boolean('available').notNull().default(true),
    stripe_coupon_id: text('stripe_coupon_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    uniqueIndex('discount_code_key').on(t.code),
    check('discount_amount_check', sql`${t.amount} >= 0 and (not ${t.is_percent} or ${t.amount} <= 100)`),
    check('discount_uses_check', sql`${t.uses} >= 0 and (${t.max_uses} is null or ${t.uses} <= ${t.max_uses})`),
    check('discount_max_uses_check', sql`${t.max_uses} is null or ${t.max_uses} >= 0`),
    check(
      'discount_max_uses_per_customer_check',
      sql`${t.max_uses_per_customer} is null or ${t.max_uses_per_customer} >= 0`,
    ),
  ],
);

/** Packages a code applies to; a code with no rows applies to every package. */
export const discount_class_package = pgTable(
  'discount_class_package',
  {
    discount_id: integer('discount_id')
      .notNull()
      .references(() => discount.discount_id, { onDelete: 'cascade' }),
    class_package_id: integer('class_package_id')
      .notNull()
      .references(() => class_package.class_package_id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.discount_id, t.class_package_id] })],
);

/** One row per redemption, for the per-customer limit. */
export const discount_use = pgTable(
  'discount_use',
  {
    discount_use_id: integer('discount_use_id').primaryKey().generatedAlwaysAsIdentity(),
    discount_id: integer('discount_id')
      .notNull()
      .references(() => discount.discount_id, { onDelete: 'cascade' }),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    purchase_id: integer('purchase_id').references(() => purchase.purchase_id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('discount_use_discount_customer_idx').on(t.discount_id, t.customer_id),
    index('discount_use_purchase_id_idx').on(t.purchase_id),
  ],
);
