import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { class_type, location } from './catalogue.ts';
import { createdAt, tstz, updatedAt } from './columns.ts';
import { customer } from './customer.ts';
import { available_classes } from './purchases.ts';
import { single_class } from './schedule.ts';

export const class_reservation = pgTable(
  'class_reservation',
  {
    class_reservation_id: integer('class_reservation_id').primaryKey().generatedAlwaysAsIdentity(),
    single_class_id: integer('single_class_id')
      .notNull()
      .references(() => single_class.single_class_id, { onDelete: 'cascade' }),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    /** The credit row this booking consumed (null for unlimited-free or admin bookings). */
    available_class_id: integer('available_class_id').references(() => available_classes.available_class_id, {
      onDelete: 'set null',
    }),
    /** Seat number on the class type's spot map, counted from the back row. */
    spot: integer('spot'),
    /** Guest name, when the customer brings one. */
    guest: text('guest'),
    /** The guest's seat on a seat-mapped class: a guest takes a seat as well as a place. */
    guest_spot: integer('guest_spot'),
    /** The credit that paid for the guest when the studio charges guests (guest_uses_credit); given back with the booker's. */
    guest_available_class_id: integer('guest_available_class_id').references(() => available_classes.available_class_id, {
      onDelete: 'set null',
    }),
    attend: boolean('attend').notNull().default(false),
    attendedAt: tstz('attended_at'),
    /** Set by the clock once the class's check-in window closed without attendance; a later check-in clears it. */
    noShowAt: tstz('no_show_at'),
    is_cash: boolean('is_cash').notNull().default(false),
    is_paid: boolean('is_paid').notNull().default(true),
    class_stars: smallint('class_stars'),
    coach_stars: smallint('coach_stars'),
    comment: text('comment'),
    ratedAt: tstz('rated_at'),
    /** Whether cancelling gave the credit back (false when cancelled late). */
    credit_returned: boolean('credit_returned'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Set when cancelled; cancelled rows free their seat. */
    deletedAt: tstz('deleted_at'),
    /**
     * The unguessable code of the QR 'Código de Acceso' (decision 016):
     * 10 random characters of Crockford's alphabet drawn by the database
     * (migration 0008), replicated to the desks, which admit by it offline.
     */
    access_code: text('access_code').notNull().default(sql`reservation_access_code()`),
  },
  (t) => [
    index('class_reservation_single_class_id_idx').on(t.single_class_id),
    uniqueIndex('class_reservation_access_code_key').on(t.access_code),
    index('class_reservation_customer_id_idx').on(t.customer_id, t.createdAt),
    /** One live reservation per seat; the database, not a check-then-insert, protects it. */
    uniqueIndex('class_reservation_spot_key')
      .on(t.single_class_id, t.spot)
      .where(sql`${t.spot} is not null and ${t.deletedAt} is null`),
    check('class_reservation_spot_check', sql`${t.spot} is null or ${t.spot} >= 1`),
    /** A guest's seat is held by a live reservation once; that it is nobody's own seat is checked under the class lock (decision 006). */
    uniqueIndex('class_reservation_guest_spot_key')
      .on(t.single_class_id, t.guest_spot)
      .where(sql`${t.guest_spot} is not null and ${t.deletedAt} is null`),
    check(
      'class_reservation_guest_spot_check',
      sql`${t.guest_spot} is null or (${t.guest_spot} >= 1 and ${t.guest} is not null and ${t.guest_spot} is distinct from ${t.spot})`,
    ),
    check('class_reservation_class_stars_check', sql`${t.class_stars} is null or ${t.class_stars} between 1 and 5`),
    check('class_reservation_coach_stars_check', sql`${t.coach_stars} is null or ${t.coach_stars} between 1 and 5`),
  ],
);

export const waitlist = pgTable(
  'waitlist',
  {
    waitlist_id: integer('waitlist_id').primaryKey().generatedAlwaysAsIdentity(),
    single_class_id: integer('single_class_id')
      .notNull()
      .references(() => single_class.single_class_id, { onDelete: 'cascade' }),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    notifiedAt: tstz('notified_at'),
    /**
     * The customer asked to be booked when a place frees (decision 088): with the studio's automatic
     * promotion on, the clock books the first such customer in line with a usable credit; the others are told.
     */
    auto_book: boolean('auto_book').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('waitlist_class_customer_key').on(t.single_class_id, t.customer_id),
    index('waitlist_customer_id_idx').on(t.customer_id),
  ],
);

/** Booking block for unlimited members after N consecutive no-shows, until end_date. */
export const class_reservation_penalty = pgTable(
  'class_reservation_penalty',
  {
    class_reservation_penalty_id: integer('class_reservation_penalty_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    start_date: tstz('start_date').defaultNow().notNull(),
    end_date: tstz('end_date').notNull(),
    no_shows: integer('no_shows').notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('class_reservation_penalty_customer_idx').on(t.customer_id, t.end_date),
    check('class_reservation_penalty_dates_check', sql`${t.end_date} > ${t.start_date}`),
  ],
);

/**
 * "Reservar cada semana" (decision 105): a customer's place in the same class every week, a slot on the
 * studio's wall clock (class type, location, ISO weekday, start minute). The clock books each week's
 * class through the booking service; ended_at stops it (history is kept).
 */
export const standing_booking = pgTable(
  'standing_booking',
  {
    standing_booking_id: integer('standing_booking_id').primaryKey().generatedAlwaysAsIdentity(),
    customer_id: integer('customer_id')
      .notNull()
      .references(() => customer.customer_id, { onDelete: 'cascade' }),
    class_type_id: integer('class_type_id')
      .notNull()
      .references(() => class_type.class_type_id, { onDelete: 'cascade' }),
    location_id: integer('location_id')
      .notNull()
      .references(() => location.location_id, { onDelete: 'cascade' }),
    weekday: smallint('weekday').notNull(),
    start_minute: smallint('start_minute').notNull(),
    /** The seat asked for on a seat-mapped class; another free one when it is taken. */
    spot: integer('spot'),
    createdAt: createdAt(),
    endedAt: tstz('ended_at'),
  },
  (t) => [
    index('standing_booking_customer_idx').on(t.customer_id),
    /** One live standing place per customer and slot. */
    uniqueIndex('standing_booking_slot_key')
      .on(t.customer_id, t.class_type_id, t.location_id, t.weekday, t.start_minute)
      .where(sql`${t.endedAt} is null`),
    check('standing_booking_weekday_check', sql`${t.weekday} between 1 and 7`),
    check('standing_booking_start_minute_check', sql`${t.start_minute} between 0 and 1439`),
  ],
);

/**
 * Each week's class a standing place tried once: the reservation it made, or the refusal's code. The key
 * makes the try happen once, so a booking the customer cancels is never booked again by the clock.
 */
export const standing_booking_week = pgTable(
  'standing_booking_week',
  {
    standing_booking_id: integer('standing_booking_id')
      .notNull()
      .references(() => standing_booking.standing_booking_id, { onDelete: 'cascade' }),
    single_class_id: integer('single_class_id')
      .notNull()
      .references(() => single_class.single_class_id, { onDelete: 'cascade' }),
    class_reservation_id: integer('class_reservation_id').references(() => class_reservation.class_reservation_id, { onDelete: 'set null' }),
    refusal: text('refusal'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.standing_booking_id, t.single_class_id] })],
);
