import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { customer } from './customer.ts';

/**
 * The change log the front desks pull (decision 008). Rows are appended by
 * database triggers on every replicated table (migration 0005), so no code
 * path can write a replicated row without logging it, in the same transaction.
 *
 * A change is identified by (txid, change_id): txid is the writing
 * transaction's id. Pull only hands out changes of transactions older than the
 * oldest one still running (`pg_snapshot_xmin`), in (txid, change_id) order,
 * so a change committed late can never land behind a cursor a desk already holds.
 */
export const sync_change = pgTable(
  'sync_change',
  {
    change_id: bigint('change_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `pg_current_xact_id()` of the writing transaction. */
    txid: bigint('txid', { mode: 'number' }).notNull(),
    table_name: text('table_name').notNull(),
    /** The row's primary key as a JSON object, e.g. {"customer_id": 5}. */
    row_key: jsonb('row_key').$type<Record<string, number>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sync_change_position_idx').on(t.txid, t.change_id)],
);

/** A desk: its client id is bound to the staff account that first used it. */
export const sync_client = pgTable('sync_client', {
  client_id: text('client_id').primaryKey(),
  customer_id: integer('customer_id')
    .notNull()
    .references(() => customer.customer_id, { onDelete: 'cascade' }),
  /** The last mutation applied (or rejected) for this client; updated in the transaction of its effect. */
  last_mutation_id: integer('last_mutation_id').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const syncMutationStatuses = ['applied', 'rejected'] as const;

/** Every mutation a desk pushed: the audit of who did what at the desk, and the answer to a replay. */
export const sync_mutation = pgTable(
  'sync_mutation',
  {
    client_id: text('client_id')
      .notNull()
      .references(() => sync_client.client_id, { onDelete: 'cascade' }),
    mutation_id: integer('mutation_id').notNull(),
    /** The staff account that pushed it. */
    customer_id: integer('customer_id').notNull(),
    /** Transaction id, so a pull reports a mutation as done only once its effects are pullable. */
    txid: bigint('txid', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    args: jsonb('args').notNull(),
    status: text('status', { enum: syncMutationStatuses }).notNull(),
    /** DomainError code and Spanish message of a rejection. */
    error_code: text('error_code'),
    error_message: text('error_message'),
    /** The desk's temporary id for what the change created (a customer registered offline); later changes name it. */
    temp_id: integer('temp_id'),
    /** The server's id for it: the new customer, or the one whose e-mail or phone it already was. */
    created_id: integer('created_id'),
    /** What staff were told about how it was applied (the customer already existed), in Spanish. */
    notice: text('notice'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.client_id, t.mutation_id] }),
    index('sync_mutation_txid_idx').on(t.client_id, t.txid),
    index('sync_mutation_temp_id_idx').on(t.client_id, t.temp_id).where(sql`${t.temp_id} is not null`),
    check('sync_mutation_status_check', sql`${t.status} in ('applied', 'rejected')`),
  ],
);
