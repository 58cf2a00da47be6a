import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { customerNoteKinds } from '@estudio/core';
import { createdAt, tstz, updatedAt } from './columns.ts';
import { file } from './content.ts';

/** Decision 045 adds 'coach': its own classes and rosters in the console, a customer everywhere else. */
export const customerRoles = ['customer', 'staff', 'admin', 'coach'] as const;

/**
 * What the admin's customer search looks in (decisions 047 and 058): "name
 * last name", the e-mail and the phone, each folded by the database's
 * `search_fold` (core's `searchKey` in SQL: accented letters plain,
 * lowercase), one per line. Stored, so a search compares plain text: folding
 * ~60 characters costs about 17 µs a row, and a common name at 200,000
 * customers rechecked thousands of rows. The line breaks keep a match inside
 * one part ('lopez adr' does not run from a last name into an e-mail); a typed
 * query never contains one. The GIN index on it (gin_trgm_ops) answers
 * `like '%…%'`.
 */
export const customerSearchTextSql = sql`search_fold("name" || ' ' || "last_name") || chr(10) || search_fold("email") || chr(10) || coalesce("phone", '')`;

export const customer = pgTable(
  'customer',
  {
    customer_id: integer('customer_id').primaryKey().generatedAlwaysAsIdentity(),
    /** Identity of the sign-in provider (local auth_user.uid or a Firebase uid). */
    uid: text('uid'),
    name: text('name').notNull(),
    last_name: text('last_name').notNull(),
    /** Lower-cased by the services. */
    email: text('email').notNull(),
    /** Ten digits (spec); unique so the sign-up check "phone already has an account" holds under races. */
    phone: text('phone'),
    instagram: text('instagram'),
    birthdate: date('birthdate', { mode: 'string' }),
    file_id: integer('file_id').references(() => file.file_id, { onDelete: 'set null' }),
    signup_reason: text('signup_reason'),
    signup_reason_other: text('signup_reason_other'),
    role: text('role', { enum: customerRoles }).notNull().default('customer'),
    has_unlimited: boolean('has_unlimited').notNull().default(false),
    unlimited_membership_expiration: tstz('unlimited_membership_expiration'),
    unlimited_max_no_shows_for_penalty: integer('unlimited_max_no_shows_for_penalty'),
    /** The billing address shown on "Mi Información". */
    address_id: integer('address_id').references((): AnyPgColumn => address.address_id, { onDelete: 'set null' }),
    stripe_customer_id: text('stripe_customer_id'),
    paypal_payer_id: text('paypal_payer_id'),
    /** Written by PostgreSQL (customerSearchTextSql); never sent to desks (a replica keeps it null). */
    search_text: text('search_text').generatedAlwaysAs(customerSearchTextSql),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    uniqueIndex('customer_uid_key').on(t.uid),
    uniqueIndex('customer_email_key').on(t.email),
    uniqueIndex('customer_phone_key').on(t.phone),
    uniqueIndex('customer_stripe_customer_id_key').on(t.stripe_customer_id),
    // Decision 058: the admin's list in the order people read names, accents and case aside ('Álvarez' with the
    // a's, not after 'Zúñiga' as bytes would have it); its first line is "name last name" folded.
    // Only the live customers (migration 0017): every list and search asks for them alone, so a search's walk by name
    // filters the index's own entries (an index-only scan) and reads the rows of its page only.
    index('customer_search_order_idx').on(t.search_text, t.customer_id).where(sql`${t.deletedAt} is null`),
    // Decision 044: the customers report's new accounts of a range, oldest first.
    index('customer_created_at_idx').on(t.createdAt),
    // Decisions 047 and 058: the admin's customer search ('%text%', accents and case folded) by trigrams of the
    // stored search text; search_fold and pg_trgm come with migration 0015. Decision 062: no pending list, which
    // every search would read whole until autovacuum merged it (a few sign-ups a day; searches all day long).
    index('customer_search_idx').using('gin', sql`${t.search_text} gin_trgm_ops`).with({ fastupdate: false }),
    check('customer_email_lower_check', sql`${t.email} = lower(${t.email})`),
    check('customer_role_check', sql`${t.role} in ('customer', 'staff', 'admin', 'coach')`),
    check(
      'customer_no_shows_check',
      sql`${t.unlimited_max_no_shows_for_penalty} is null or ${t.unlimited_max_no_shows_for_penalty} >= 0`,
    ),
  ],
);

export const address = pgTable(
  'address',
  {
    address_id: integer('address_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id').references(() => customer.customer_id, { onDelete: 'cascade' }),
    street: text('street'),
    number: text('number'),
    interior_number: text('interior_number'),
    neighborhood: text('neighborhood'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull(),
    zip_code: text('zip_code'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('address_customer_id_idx').on(t.customer_id)],
);

/**
 * A customer's answers to the studio's own questions (custom fields and the
 * extra fields of its customer forms, decision 087), one row per key: the
 * value as stored (text, number, yes/no, a list, a file's id) or null for a
 * question asked and left empty. A sensitive answer (health) carries when the
 * customer gave express consent to store it.
 */
export const customer_field_value = pgTable(
  'customer_field_value',
  {
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').$type<string | number | boolean | string[] | null>(),
    consented_at: tstz('consented_at'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.customer_id, t.key] })],
);

/**
 * What staff keep about a person (an injury, "debe dinero", a preference).
 * An alert and a health note are shown at the counter's scan as well as on
 * the card; a health note is sensitive: staff and the coach of a class the
 * customer is booked in read it, the customer's own answers never carry it.
 * Written by staff through one audited service; removing one deletes it
 * (the activity log keeps who wrote and who removed it).
 */
export const customer_note = pgTable(
  'customer_note',
  {
    customer_note_id: integer('customer_note_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: customerNoteKinds }).notNull(),
    body: text('body').notNull(),
    created_by: integer('created_by').references((): AnyPgColumn => customer.customer_id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('customer_note_customer_id_idx').on(t.customer_id),
    check('customer_note_kind_check', sql`${t.kind} in ('note', 'alert', 'health')`),
    check('customer_note_body_check', sql`length(${t.body}) between 1 and 500`),
  ],
);
