import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './columns.ts';
import { customer } from './customer.ts';

export const privacyRequestKinds = ['access', 'rectification', 'cancellation', 'opposition'] as const;
export const privacyRequestStatuses = ['pending', 'done', 'refused'] as const;

/**
 * A customer's request under Mexico's data-protection law (ARCO: access, rectification, cancellation, opposition),
 * with the day the law's deadline falls on (decision 124). The row stays when she is anonymised: it is the record
 * that the studio answered, and when.
 */
export const privacy_request = pgTable(
  'privacy_request',
  {
    privacy_request_id: integer('privacy_request_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: privacyRequestKinds }).notNull(),
    /** What she asks, in her words. */
    details: text('details').notNull(),
    status: text('status', { enum: privacyRequestStatuses }).notNull().default('pending'),
    /** The studio's date the law's 20 business days run out (core's privacyRequestDueDay). */
    due_on: date('due_on', { mode: 'string' }).notNull(),
    /** The studio's answer, which she reads in Mi Información. */
    answer: text('answer'),
    answered_by: integer('answered_by').references((): AnyPgColumn => customer.customer_id, { onDelete: 'set null' }),
    answeredAt: tstz('answered_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('privacy_request_customer_idx').on(t.customer_id, t.createdAt),
    index('privacy_request_pending_idx').on(t.due_on).where(sql`${t.status} = 'pending'`),
    check('privacy_request_kind_check', sql`${t.kind} in ('access', 'rectification', 'cancellation', 'opposition')`),
    check('privacy_request_status_check', sql`${t.status} in ('pending', 'done', 'refused')`),
    check('privacy_request_details_check', sql`length(${t.details}) between 1 and 2000`),
  ],
);
