import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns.ts';

/**
 * Who changed what in the admin console: one row per admin write,
 * in the transaction of the write. `changes` holds the fields sent (never
 * secrets); `entity_id` is text so composite or string keys fit.
 */
export const audit_log = pgTable(
  'audit_log',
  {
    audit_log_id: integer('audit_log_id').primaryKey().generatedAlwaysAsIdentity(),
    /** The staff or admin customer who made the change (kept if the account is later deleted). */
    customer_id: integer('customer_id'),
    /** 'create', 'update', 'delete' or a domain verb ('cancel', 'home.add', 'recover'...). */
    action: text('action').notNull(),
    /** The table or spec entity name: 'class_package', 'discount', 'single_class'... */
    entity: text('entity').notNull(),
    entity_id: text('entity_id'),
    changes: jsonb('changes'),
    /** The desk (its sync client id) the change came from; null for the console, the API and the server's own jobs. */
    desk_id: text('desk_id'),
    /** When it happened at the desk (the desk's clock, offline included); createdAt is when it reached the server. */
    occurredAt: tstz('occurred_at'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_entity_idx').on(t.entity, t.entity_id, t.createdAt), index('audit_log_customer_idx').on(t.customer_id, t.createdAt)],
);
