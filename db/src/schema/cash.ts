import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { money, tstz } from './columns.ts';
import { customer } from './customer.ts';

/**
 * A shift at the cash drawer (turno de caja): opened by a staff member with
 * the float in the drawer, closed with the cash counted. The desk's cash sales
 * and cash refunds made by that person while it was open carry its id
 * (purchase.cash_shift_id, invoice.cash_shift_id). What was expected and the
 * difference are kept at the close, as they stood then.
 */
export const cash_shift = pgTable(
  'cash_shift',
  {
    cash_shift_id: integer('cash_shift_id').primaryKey().generatedAlwaysAsIdentity(),
    /** Who opened it and whose sales it holds (kept if the account is later deleted: the money was real). */
    staff_id: integer('staff_id').references((): AnyPgColumn => customer.customer_id, { onDelete: 'set null' }),
    openedAt: tstz('opened_at').notNull(),
    opening_float: money('opening_float').notNull(),
    closedAt: tstz('closed_at'),
    closed_by: integer('closed_by').references((): AnyPgColumn => customer.customer_id, { onDelete: 'set null' }),
    expected_cash: money('expected_cash'),
    counted_cash: money('counted_cash'),
    note: text('note'),
  },
  (t) => [
    // One open drawer per person: a second "Abrir caja" is a 409, also when two requests race.
    uniqueIndex('cash_shift_one_open_key').on(t.staff_id).where(sql`${t.closedAt} is null`),
    index('cash_shift_opened_at_idx').on(t.openedAt),
    check('cash_shift_amounts_check', sql`${t.opening_float} >= 0 and (${t.counted_cash} is null or ${t.counted_cash} >= 0)`),
  ],
);
