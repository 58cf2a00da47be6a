import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { class_category, class_type, instructor } from './catalogue.ts';
import { createdAt, tstz, updatedAt } from './columns.ts';
import { file } from './content.ts';
import { customer } from './customer.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const video_type = pgTable('video_type', {
  video_type_id: integer('video_type_id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  description: text('description'),
  order: integer('order').notNull().default(0),
  createdAt: createdAt(),
});

/** Tags label videos and classes; `type` says which ('video', 'class'). */
export const tag = pgTable(
  'tag',
  {
    tag_id: integer('tag_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    type: text('type').notNull().default('video'),
    color: text('color'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('tag_type_name_key').on(t.type, t.name)],
);

export const program = pgTable('program', {
  program_id: integer('program_id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  description: text('description'),
  image: text('image'),
  available: boolean('available').notNull().default(true),
  order: integer('order').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const video = pgTable(
  'video',
  {
    video_id: integer('video_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description'),
    /** Minutes. */
    duration: integer('duration').notNull(),
    /** Embed URL of the third-party player. */
    url: text('url').notNull(),
    thumbnail: text('thumbnail'),
    file_id: integer('file_id').references(() => file.file_id, { onDelete: 'set null' }),
    instructor_id: integer('instructor_id').references(() => instructor.instructor_id, { onDelete: 'set null' }),
    video_type_id: integer('video_type_id').references(() => video_type.video_type_id, { onDelete: 'set null' }),
    class_type_id: integer('class_type_id').references(() => class_type.class_type_id, { onDelete: 'set null' }),
    class_category_id: integer('class_category_id').references(() => class_category.class_category_id, {
      onDelete: 'set null',
    }),
    /** Videos with a future release date are the "upcoming" list. */
    release_date: tstz('release_date').defaultNow().notNull(),
    available: boolean('available').notNull().default(true),
    /** Spanish full-text search over name and description (GET /videos?query=). */
    search: tsvector('search').generatedAlwaysAs(
      sql`to_tsvector('spanish'::regconfig, coalesce(name, '') || ' ' || coalesce(description, ''))`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('video_search_idx').using('gin', t.search),
    index('video_instructor_id_idx').on(t.instructor_id),
    index('video_video_type_id_idx').on(t.video_type_id),
    index('video_release_date_idx').on(t.release_date),
    check('video_duration_check', sql`${t.duration} >= 0`),
  ],
);

export const video_tag = pgTable(
  'video_tag',
  {
    video_id: integer('video_id')
      .notNull()
      .references(() => video.video_id, { onDelete: 'cascade' }),
    tag_id: integer('tag_id')
      .notNull()
      .references(() => tag.tag_id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.video_id, t.tag_id] }), index('video_tag_tag_id_idx').on(t.tag_id)],
);

/** Program membership, in the program's order. */
export const video_program = pgTable(
  'video_program',
  {
    program_id: integer('program_id')
      .notNull()
      .references(() => program.program_id, { onDelete: 'cascade' }),
    video_id: integer('video_id')
      .notNull()
      .references(() => video.video_id, { onDelete: 'cascade' }),
    order: integer('order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.program_id, t.video_id] }), index('video_program_video_id_idx').on(t.video_id)],
);

export const favorite = pgTable(
  'favorite',
  {
    favorite_id: integer('favorite_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    video_id: integer('video_id')
      .notNull()
      .references(() => video.video_id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('favorite_customer_video_key').on(t.customer_id, t.video_id)],
);

/** One row per customer and video: completion mark and rating. */
export const playback = pgTable(
  'playback',
  {
    playback_id: integer('playback_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    video_id: integer('video_id')
      .notNull()
      .references(() => video.video_id, { onDelete: 'cascade' }),
    completed: boolean('completed').notNull().default(false),
    completedAt: tstz('completed_at'),
    /** Seconds watched, for resuming. */
    progress: integer('progress').notNull().default(0),
    stars: smallint('stars'),
    comment: text('comment'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('playback_customer_video_key').on(t.customer_id, t.video_id),
    index('playback_video_id_idx').on(t.video_id),
    check('playback_stars_check', sql`${t.stars} is null or ${t.stars} between 1 and 5`),
  ],
);
