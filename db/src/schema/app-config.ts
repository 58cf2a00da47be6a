import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns.ts';
import { customer } from './customer.ts';

/** The spec's remote app configuration: one row per key, values are strings. */
export const app_config = pgTable('app_config', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
  updated_by: integer('updated_by').references(() => customer.customer_id, { onDelete: 'set null' }),
});
