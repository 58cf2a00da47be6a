import { numeric, timestamp } from 'drizzle-orm/pg-core';

/** timestamptz in Date mode; the spec's camelCase keys sit over snake_case columns. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const createdAt = () => tstz('created_at').defaultNow().notNull();
export const updatedAt = () =>
  tstz('updated_at')
    .defaultNow()
    .notNull()
    .$onUpdate(() => new Date());

/** Money: numeric(12,2) read as a string, so no amount ever passes through a float. */
export const money = (name: string) => numeric(name, { precision: 12, scale: 2 });
