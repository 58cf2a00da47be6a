import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';

/**
 * Calls counted against a rate limit (decision 012), shared by every server
 * process on the database: one row per limit and caller ('signin:30/60000:203.0.113.7',
 * 'discount:20/900000:customer:42'). The window starts at the first call and
 * ends at reset_at, both measured with the database clock; a call after
 * reset_at starts a new window. Rows past reset_at are pruned now and then.
 * With REDIS_URL set the counters live in Redis instead and this table stays empty.
 */
export const rate_limit_counter = pgTable(
  'rate_limit_counter',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    reset_at: tstz('reset_at').notNull(),
  },
  (t) => [index('rate_limit_counter_reset_at_idx').on(t.reset_at)],
);
