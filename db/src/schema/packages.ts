import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { class_type } from './catalogue.ts';
import { createdAt, money, tstz, updatedAt } from './columns.ts';
import { file } from './content.ts';

export const subscriptionPeriods = ['day', 'week', 'month', 'year'] as const;

/**
 * What the shop sells: credit packs, unlimited and online memberships
 * (subscriptions), free trials, special events and the enrolment fee.
 */
export const class_package = pgTable(
  'class_package',
  {
    class_package_id: integer('class_package_id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    description: text('description'),
    short_description: text('short_description'),
    price: money('price').notNull(),
    /** Shown with the price struck through when set. */
    sale_price: money('sale_price'),
    /** Credits granted; -1 means unlimited, 0 grants no class credits (online, enrolment fee). */
    class_amount: integer('class_amount').notNull().default(0),
    /** Days the credits (or the access) last from purchase. */
    expiration_days: integer('expiration_days'),
    is_subscription: boolean('is_subscription').notNull().default(false),
    subscription_period: text('subscription_period', { enum: subscriptionPeriods }),
    subscription_interval: integer('subscription_interval'),
    /** Free trial of a subscription, in days. */
    free_trial_length: integer('free_trial_length'),
    /** Unit of free_trial_length; days unless set. */
    free_trial_period: text('free_trial_period', { enum: subscriptionPeriods }),
    is_trial: boolean('is_trial').notNull().default(false),
    is_special_event: boolean('is_special_event').notNull().default(false),
    /** Date of the special event, when it has one. */
    event_date: tstz('event_date'),
    /** Grants in-person class credits (the "presenciales" lists). */
    is_presencial: boolean('is_presencial').notNull().default(true),
    /** Grants access to the online video library (the "online" lists). */
    is_online: boolean('is_online').notNull().default(false),
    /** Paying it is required before any other purchase (app_config signup_fee). */
    is_signup_fee: boolean('is_signup_fee').notNull().default(false),
    /** Purchases allowed per customer (null: no limit); answers 409 when reached. */
    limit_per_customer: integer('limit_per_customer'),
    /** Purchases allowed in total (people limit, null: no limit); answers 412 when reached. */
    people_limit: integer('people_limit'),
    image: text('image'),
    receipt_file_id: integer('receipt_file_id').references(() => file.file_id, { onDelete: 'set null' }),
    /** A file the buyer can download (downloadable name, type; file_url). */
    downloadable_file_id: integer('downloadable_file_id').references(() => file.file_id, { onDelete: 'set null' }),
    show_on_home: boolean('show_on_home').notNull().default(false),
    available: boolean('available').notNull().default(true),
    order: integer('order').notNull().default(0),
    stripe_product_id: text('stripe_product_id'),
    stripe_price_id: text('stripe_price_id'),
    paypal_plan_id: text('paypal_plan_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('class_package_available_idx').on(t.available, t.order),
    check('class_package_price_check', sql`${t.price} >= 0 and (${t.sale_price} is null or ${t.sale_price} >= 0)`),
    check('class_package_class_amount_check', sql`${t.class_amount} >= -1`),
    check('class_package_expiration_days_check', sql`${t.expiration_days} is null or ${t.expiration_days} > 0`),
    check(
      'class_package_subscription_check',
      sql`not ${t.is_subscription} or (${t.subscription_period} is not null and ${t.subscription_interval} > 0)`,
    ),
    check(
      'class_package_subscription_period_check',
      sql`${t.subscription_period} is null or ${t.subscription_period} in ('day', 'week', 'month', 'year')`,
    ),
    check('class_package_limit_per_customer_check', sql`${t.limit_per_customer} is null or ${t.limit_per_customer} > 0`),
    check('class_package_people_limit_check', sql`${t.people_limit} is null or ${t.people_limit} >= 0`),
    check('class_package_free_trial_check', sql`${t.free_trial_length} is null or ${t.free_trial_length} >= 0`),
  ],
);

/**
 * Credits a package grants per class type (restricted class types). A package
 * without rows grants class_amount credits valid for any class type.
 */
export const class_package_type = pgTable(
  'class_package_type',
  {
    class_package_type_id: integer('class_package_type_id').primaryKey().generatedAlwaysAsIdentity(),
    class_package_id: integer('class_package_id')
      .notNull()
      .references(() => class_package.class_package_id, { onDelete: 'cascade' }),
    class_type_id: integer('class_type_id')
      .notNull()
      .references(() => class_type.class_type_id, { onDelete: 'cascade' }),
    class_amount: integer('class_amount').notNull(),
    expiration_days: integer('expiration_days'),
    /** Comma list of allowed start times ('07:00,09:00'); null: any time. */
    allowed_times: text('allowed_times'),
  },
  (t) => [
    uniqueIndex('class_package_type_package_type_key').on(t.class_package_id, t.class_type_id),
    check('class_package_type_class_amount_check', sql`${t.class_amount} >= -1`),
  ],
);
