import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { cash_shift } from './cash.ts';
import { createdAt, money, tstz, updatedAt } from './columns.ts';
import { customer } from './customer.ts';
import { payment_method } from './payments.ts';

/**
 * What the studio sells at the counter besides classes: water, grip socks, a
 * towel. `stock` is what is on the shelf (null: not counted, always sellable);
 * a sale takes its units in the sale's transaction and never below zero.
 * Replicated to the desks, so the counter lists them and their stock offline.
 */
export const product = pgTable(
  'product',
  {
    product_id: integer('product_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    price: money('price').notNull(),
    stock: integer('stock'),
    available: boolean('available').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    check('product_price_check', sql`${t.price} >= 0`),
    check('product_stock_check', sql`${t.stock} is null or ${t.stock} >= 0`),
  ],
);

/**
 * One product line of a sale at the counter: what was sold, to whom, at what
 * price, paid how, by whom and in which drawer shift. The unit price and the
 * title are copied, so a later price change does not rewrite the day's sales.
 * `total` is what was charged for the line (`quantity × unit_price`).
 */
export const product_sale = pgTable(
  'product_sale',
  {
    product_sale_id: integer('product_sale_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'restrict' }),
    product_id: integer('product_id')
      .notNull()
      .references(() => product.product_id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    quantity: integer('quantity').notNull(),
    unit_price: money('unit_price').notNull(),
    total: money('total').notNull(),
    payment_method_id: integer('payment_method_id').references(() => payment_method.payment_method_id, { onDelete: 'set null' }),
    /** Who sold it (kept as null if the account is later deleted: the money was real). */
    staff_id: integer('staff_id').references((): AnyPgColumn => customer.customer_id, { onDelete: 'set null' }),
    cash_shift_id: integer('cash_shift_id').references(() => cash_shift.cash_shift_id, { onDelete: 'set null' }),
    terminal_last4: text('terminal_last4'),
    terminal_auth: text('terminal_auth'),
    /** A sale paid partly in cash and the rest by card: the part of this line's total paid in cash (null: all by its method). */
    cash_part: money('cash_part'),
    /** When the money was taken (the desk's clock for a sale kept offline). */
    paidAt: tstz('paid_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('product_sale_paid_at_idx').on(t.paidAt),
    index('product_sale_cash_shift_id_idx').on(t.cash_shift_id),
    index('product_sale_customer_id_idx').on(t.customer_id),
    check('product_sale_amounts_check', sql`${t.quantity} > 0 and ${t.unit_price} >= 0 and ${t.total} >= 0`),
  ],
);

/**
 * Units of a counter sale the customer brought back, and the money handed back for them (decision 115). Several
 * returns may be made of one sale line, never more units than it sold (the sale line is locked while one is
 * written). `cash_part` is the part handed back from the drawer (the rest goes back on the card it was paid with);
 * `restocked`: the units went back on the shelf.
 */
export const product_return = pgTable(
  'product_return',
  {
    product_return_id: integer('product_return_id').primaryKey().generatedAlwaysAsIdentity(),
    product_sale_id: integer('product_sale_id')
      .notNull()
      .references(() => product_sale.product_sale_id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull(),
    amount: money('amount').notNull(),
    cash_part: money('cash_part').notNull(),
    restocked: boolean('restocked').notNull(),
    reason: text('reason').notNull(),
    /** Who took it back (null if the account is later deleted: the money was real). */
    staff_id: integer('staff_id').references((): AnyPgColumn => customer.customer_id, { onDelete: 'set null' }),
    /** The drawer the cash came out of; null when no drawer was open or nothing was handed back in cash. */
    cash_shift_id: integer('cash_shift_id').references(() => cash_shift.cash_shift_id, { onDelete: 'set null' }),
    returnedAt: tstz('returned_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('product_return_sale_idx').on(t.product_sale_id),
    index('product_return_returned_at_idx').on(t.returnedAt),
    index('product_return_cash_shift_id_idx').on(t.cash_shift_id),
    check('product_return_amounts_check', sql`${t.quantity} > 0 and ${t.amount} >= 0 and ${t.cash_part} >= 0 and ${t.cash_part} <= ${t.amount}`),
  ],
);
