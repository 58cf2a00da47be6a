import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { class_type, instructor, location, room } from './catalogue.ts';
import { createdAt, tstz, updatedAt } from './columns.ts';
import { class_package } from './packages.ts';
import { tag } from './videos.ts';

/**
 * A weekly template repeated over a range of dates ('Repetir semanalmente'): its classes carry its id, so the studio
 * edits this class, this and the following, or all of them, and ends or cancels the series' dates at once. The
 * classes are the schedule; the series remembers what made them and until when it runs.
 */
export const class_series = pgTable('class_series', {
  class_series_id: integer('class_series_id').primaryKey().generatedAlwaysAsIdentity(),
  /** Weekday (1 lunes … 7 domingo) and local time of each class, as the template had them. */
  slots: jsonb('slots').$type<{ weekday: number; time: string }[]>().notNull(),
  start_date: date('start_date').notNull(),
  /** The series' last day: its end, moved earlier when the studio ends it. */
  end_date: date('end_date').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const single_class = pgTable(
  'single_class',
  {
    single_class_id: integer('single_class_id').primaryKey().generatedAlwaysAsIdentity(),
    /** Start of the class (an instant; displayed in the studio's time zone). */
    class_date: tstz('class_date').notNull(),
    duration_minutes: integer('duration_minutes').notNull().default(50),
    description: text('description'),
    capacity: integer('capacity').notNull(),
    location_id: integer('location_id')
      .notNull()
      .references(() => location.location_id, { onDelete: 'restrict' }),
    class_type_id: integer('class_type_id')
      .notNull()
      .references(() => class_type.class_type_id, { onDelete: 'restrict' }),
    /** Set on a special, package-only class: only buyers of this package can book it. */
    class_package_id: integer('class_package_id').references(() => class_package.class_package_id, {
      onDelete: 'set null',
    }),
    icon: text('icon'),
    /** The room of the location the class is in (decision 140); null: the location as one room. */
    room_id: integer('room_id').references(() => room.room_id, { onDelete: 'restrict' }),
    /** The series this class was made by, if any (class_series). */
    class_series_id: integer('class_series_id').references(() => class_series.class_series_id, { onDelete: 'set null' }),
    cancelledAt: tstz('cancelled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('single_class_class_date_idx').on(t.class_date),
    index('single_class_location_date_idx').on(t.location_id, t.class_date),
    index('single_class_class_type_id_idx').on(t.class_type_id),
    index('single_class_series_date_idx').on(t.class_series_id, t.class_date),
    index('single_class_room_date_idx').on(t.room_id, t.class_date),
    check('single_class_capacity_check', sql`${t.capacity} >= 0`),
    check('single_class_duration_check', sql`${t.duration_minutes} > 0`),
  ],
);

export const single_class_instructor = pgTable(
  'single_class_instructor',
  {
    single_class_id: integer('single_class_id')
      .notNull()
      .references(() => single_class.single_class_id, { onDelete: 'cascade' }),
    instructor_id: integer('instructor_id')
      .notNull()
      .references(() => instructor.instructor_id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.single_class_id, t.instructor_id] }),
    index('single_class_instructor_instructor_id_idx').on(t.instructor_id),
  ],
);

export const single_class_tag = pgTable(
  'single_class_tag',
  {
    single_class_id: integer('single_class_id')
      .notNull()
      .references(() => single_class.single_class_id, { onDelete: 'cascade' }),
    tag_id: integer('tag_id')
      .notNull()
      .references(() => tag.tag_id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.single_class_id, t.tag_id] }), index('single_class_tag_tag_id_idx').on(t.tag_id)],
);
