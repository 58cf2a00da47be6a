import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { customer } from './customer.ts';

/** Uploaded files (local folder or S3, per files_location). */
export const file = pgTable(
  'file',
  {
    file_id: integer('file_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** MIME type. */
    type: text('type').notNull(),
    /** Public URL or path under the files base. */
    src: text('src').notNull(),
    /** 'server' or 's3': where the bytes are. */
    storage: text('storage').notNull().default('server'),
    /** Object key / relative path inside the storage. */
    storage_key: text('storage_key'),
    size: integer('size'),
    /** Who uploaded it: customers see and change only their own files. */
    customer_id: integer('customer_id').references((): AnyPgColumn => customer.customer_id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('file_customer_id_idx').on(t.customer_id)],
);

/** Information pages (/{slug}); `required` pages must be accepted before booking or buying. */
export const page = pgTable(
  'page',
  {
    page_id: integer('page_id').primaryKey().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    /** HTML; null means "Sin contenido.". */
    content: text('content'),
    required: boolean('required').notNull().default(false),
    /**
     * The text's version: staff publish a change customers must accept again (the privacy notice's new text) as the
     * next one, and a required page is pending for whoever accepted only an earlier one (decision 122).
     */
    version: integer('version').notNull().default(1),
    /** Order in the footer's INFORMACIÓN column. */
    order: integer('order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('page_slug_key').on(t.slug)],
);

export const accepted_page = pgTable(
  'accepted_page',
  {
    accepted_page_id: integer('accepted_page_id').primaryKey().generatedAlwaysAsIdentity(),
    page_id: integer('page_id')
      .notNull()
      .references(() => page.page_id, { onDelete: 'cascade' }),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    /** The page's version she accepted; each version accepted is its own row, the record of her consent. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accepted_page_page_customer_version_key').on(t.page_id, t.customer_id, t.version),
    index('accepted_page_customer_id_idx').on(t.customer_id),
  ],
);

export const announcement = pgTable(
  'announcement',
  {
    announcement_id: integer('announcement_id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    file_id: integer('file_id').references(() => file.file_id, { onDelete: 'set null' }),
    /** Hidden announcements stay in the admin list only. */
    available: boolean('available').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('announcement_created_at_idx').on(t.createdAt)],
);

export const formFieldTypes = [
  'file',
  'date',
  'text',
  'time',
  'image',
  'phone',
  'select',
  'number',
  'boolean',
  'textarea',
  'datetime-local',
  'creatable-select',
] as const;

/** Dynamic forms (the address form is form 6 in the original product). */
export const form = pgTable(
  'form',
  {
    form_id: integer('form_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** The object the form fills (customer, address, ...). */
    object: text('object'),
    /**
     * Where a customer form is asked (decision 087): 'signup' on the sign-up form, 'booking' once before the first
     * booking, 'profile' in Mi Información only; every customer form is in Mi Información too.
     */
    placement: text('placement', { enum: ['signup', 'booking', 'profile'] }).notNull().default('profile'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('form_placement_check', sql`${t.placement} in ('signup', 'booking', 'profile')`)],
);

export const form_field = pgTable(
  'form_field',
  {
    form_field_id: integer('form_field_id').primaryKey().generatedAlwaysAsIdentity(),
    form_id: integer('form_id')
      .notNull()
      .references(() => form.form_id, { onDelete: 'cascade' }),
    order: integer('order').notNull().default(0),
    step: integer('step').notNull().default(0),
    key: text('key').notNull(),
    name: text('name').notNull(),
    label: text('label').notNull(),
    type: text('type', { enum: formFieldTypes }).notNull(),
    required: boolean('required').notNull().default(false),
    /** Options of select-like fields: [{label, value}]. */
    options: jsonb('options').$type<{ label: string; value: string }[]>(),
    /** Condition on another field that shows this one, e.g. {key: 'signup_reason', value: 'Otro'}. */
    precondition: jsonb('precondition').$type<{ key: string; value: unknown } | null>(),
    /** Default value. */
    value: text('value'),
  },
  (t) => [
    index('form_field_form_id_idx').on(t.form_id, t.step, t.order),
    uniqueIndex('form_field_form_key').on(t.form_id, t.key),
    check(
      'form_field_type_check',
      sql`${t.type} in ('file','date','text','time','image','phone','select','number','boolean','textarea','datetime-local','creatable-select')`,
    ),
  ],
);

/** Extra fields per object type, validated like form fields. */
export const custom_field = pgTable(
  'custom_field',
  {
    custom_field_id: integer('custom_field_id').primaryKey().generatedAlwaysAsIdentity(),
    object: text('object').notNull(),
    key: text('key').notNull(),
    label: text('label'),
    type: text('type', { enum: formFieldTypes }).notNull(),
    required: boolean('required').notNull().default(false),
    options: jsonb('options').$type<{ label: string; value: string }[]>(),
    /**
     * Sensitive personal data (health): asked with express consent, stored with when it was given, read only by the
     * customer, staff and the coach of a class the customer booked (decision 087).
     */
    sensitive: boolean('sensitive').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('custom_field_object_key').on(t.object, t.key)],
);
