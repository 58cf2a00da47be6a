import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz, updatedAt } from './columns.ts';
import { file } from './content.ts';
import { customer } from './customer.ts';

export const location = pgTable('location', {
  location_id: integer('location_id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  /** What the studio says about the place (decision 040: the previous panel's field). */
  description: text('description'),
  address: text('address').notNull(),
  city: text('city'),
  phone: text('phone'),
  maps_url: text('maps_url'),
  available: boolean('available').notNull().default(true),
  order: integer('order').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * A room of a location ('Salón A'): its own seat map and capacity (decision 140). A class in a room takes the room's
 * seat map when it has one; two classes in one room cannot overlap, in two rooms of one location they can.
 */
export const room = pgTable(
  'room',
  {
    room_id: integer('room_id').primaryKey().generatedAlwaysAsIdentity(),
    location_id: integer('location_id')
      .notNull()
      .references(() => location.location_id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    /** The most people the room holds; null when the studio does not say. */
    capacity: integer('capacity'),
    /** Seats per row, back row first, as class_type.spot_map; null when the room has no seat map. */
    spot_map: text('spot_map'),
    deletedAt: tstz('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('room_location_id_idx').on(t.location_id),
    // A removed room's name is free again for a new one.
    uniqueIndex('room_location_name_key').on(t.location_id, t.name).where(sql`${t.deletedAt} is null`),
    check('room_spot_map_check', sql`${t.spot_map} is null or ${t.spot_map} ~ '^[0-9]+(,[0-9]+)*$'`),
    check('room_capacity_check', sql`${t.capacity} is null or ${t.capacity} >= 0`),
  ],
);

export const class_category = pgTable(
  'class_category',
  {
    class_category_id: integer('class_category_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    handle: text('handle').notNull(),
    description: text('description'),
    available: boolean('available').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('class_category_handle_key').on(t.handle)],
);

export const class_type = pgTable(
  'class_type',
  {
    class_type_id: integer('class_type_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description'),
    icon: text('icon'),
    image: text('image'),
    /** Seats per row, back row first, e.g. '4,6,6'; null when the class has no seat map. */
    spot_map: text('spot_map'),
    /** For whom the class is ('Todos los niveles', 'Principiante'…), shown in the class's details. */
    level: text('level'),
    /** What to bring ('Tapete, toalla y agua'), shown in the class's details. */
    what_to_bring: text('what_to_bring'),
    /** The type's colour on a schedule ('#RRGGBB'); a dark grey until the studio picks one, so white text reads on it. */
    color: text('color').notNull().default('#495057'),
    class_category_id: integer('class_category_id').references(() => class_category.class_category_id, {
      onDelete: 'set null',
    }),
    available: boolean('available').notNull().default(true),
    order: integer('order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('class_type_class_category_id_idx').on(t.class_category_id),
    check('class_type_spot_map_check', sql`${t.spot_map} is null or ${t.spot_map} ~ '^[0-9]+(,[0-9]+)*$'`),
    check('class_type_color_check', sql`${t.color} ~ '^#[0-9a-fA-F]{6}$'`),
  ],
);

export const instructor = pgTable(
  'instructor',
  {
    instructor_id: integer('instructor_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    last_name: text('last_name').notNull(),
    nick_name: text('nick_name'),
    quote: text('quote'),
    short_bio: text('short_bio'),
    instagram: text('instagram'),
    birthdate: date('birthdate', { mode: 'string' }),
    music_type: text('music_type'),
    file_id: integer('file_id').references(() => file.file_id, { onDelete: 'set null' }),
    /** Optional login of the coach: the account that reads this coach's classes and rosters (decision 045); one coach per account. */
    customer_id: integer('customer_id').references(() => customer.customer_id, { onDelete: 'set null' }),
    show_on_home: boolean('show_on_home').notNull().default(true),
    available: boolean('available').notNull().default(true),
    order: integer('order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [index('instructor_name_idx').on(t.name, t.last_name), uniqueIndex('instructor_customer_id_key').on(t.customer_id)],
);
