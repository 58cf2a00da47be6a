import { z } from '../zod.ts';
import { calendarDate, instant } from './dates.ts';
import { id, isoDateTime } from './fields.ts';

/**
 * The API contract of schedule, reservations, waitlists, credits and
 * penalties. REST paths are in the server's routers; field names are
 * the spec's. Timestamps travel as ISO strings.
 */

const startDate = calendarDate('La fecha inicial');
const endDate = calendarDate('La fecha final');

// ---------- Schedule ----------

/** GET /api/single_class: a date range in the studio's time zone (inclusive), at most 62 days. */
export const scheduleInput = z
  .object({
    start_date: startDate,
    end_date: endDate,
    instructor_id: id.optional(),
    location_id: id.optional(),
    class_type_id: id.optional(),
  })
  .refine((v) => v.start_date <= v.end_date, { error: 'La fecha final debe ser posterior a la inicial.', path: ['end_date'] })
  .refine((v) => (Date.parse(v.end_date) - Date.parse(v.start_date)) / 86_400_000 <= 62, {
    error: 'El rango de fechas no puede ser mayor a 62 días.',
    path: ['end_date'],
  });

export const instructorSummary = z.object({
  instructor_id: z.number(),
  name: z.string(),
  last_name: z.string().nullable(),
  nick_name: z.string().nullable(),
  /** Day and month only, '--MM-DD': the schedule is public (yearlessBirthdate). */
  birthdate: z.string().nullable(),
  file: z.object({ src: z.string(), name: z.string().nullable(), type: z.string().nullable() }).nullable(),
});

export const classTypeSummary = z.object({
  class_type_id: z.number(),
  name: z.string(),
  icon: z.string().nullable(),
  description: z.string().nullable(),
  /** Seats per row, back row first ('4,6,6'); null: no seat map. */
  spot_map: z.string().nullable(),
  /** The type's colour on a schedule, '#RRGGBB' (the schedule's classes carry it). */
  color: z.string().optional(),
  /** For whom ('Todos los niveles') and what to bring, as the studio wrote them for the type; null: not said. */
  level: z.string().nullable(),
  what_to_bring: z.string().nullable(),
});

export const locationSummary = z.object({
  location_id: z.number(),
  name: z.string(),
  address: z.string().nullable(),
});

/** A class's room as the schedule shows it ('Salón A'). */
export const roomSummary = z.object({ room_id: z.number(), name: z.string() });

export const tagSummary = z.object({ tag_id: z.number(), name: z.string(), color: z.string().nullable() });

/** The caller's own live reservation in a class. */
export const ownReservation = z.object({
  class_reservation_id: z.number(),
  spot: z.number().nullable(),
  guest: z.string().nullable(),
  /** The guest's seat on a seat-mapped class. */
  guest_spot: z.number().nullable(),
});

export const singleClassOutput = z.object({
  single_class_id: z.number(),
  class_date: isoDateTime,
  duration_minutes: z.number(),
  description: z.string().nullable(),
  capacity: z.number(),
  location_id: z.number(),
  class_type_id: z.number(),
  /** Set on a special, package-only class. */
  class_package_id: z.number().nullable(),
  /** The special event's name (its package's title) on a package-only class; null otherwise. */
  event_name: z.string().nullable(),
  icon: z.string().nullable(),
  /** The weekly series the class belongs to ('Repetir semanalmente'); null for a class made alone. */
  class_series_id: z.number().nullable(),
  cancelledAt: isoDateTime.nullable(),
  /** Places taken: live reservations plus their guests (a guest takes a place). */
  reservation_count: z.number(),
  /** Seats taken on the spot map (never who took them). */
  taken_spots: z.array(z.number()),
  class_type: classTypeSummary,
  location: locationSummary,
  /** The room of the location the class is in (decision 140); null: no room. */
  room_id: z.number().nullable(),
  room: roomSummary.nullable(),
  /** The class's seat map: its room's when the room has one, else its type's (classSeatMap). */
  spot_map: z.string().nullable(),
  class_instructors: z.array(instructorSummary),
  tags: z.array(tagSummary),
  /** The caller's live reservations in this class (empty for a visitor). */
  class_reservations: z.array(ownReservation),
  /** The caller's waitlist entry for this class, if any. */
  waitlist_id: z.number().nullable(),
  /** May the caller book it as far as packages go: true unless it is package-only and the caller has not bought its package. */
  package_access: z.boolean(),
});
export type SingleClassOutput = z.infer<typeof singleClassOutput>;

export const scheduleOutput = z.object({ single_classes: z.array(singleClassOutput) });
export const singleClassByIdInput = z.object({ id });
export const singleClassByIdOutput = z.object({ single_class: singleClassOutput });

/** GET /api/locations: every location, or with a date range only those with classes in it. */
export const locationsInput = z
  .object({ start_date: startDate.optional(), end_date: endDate.optional() })
  .refine((v) => !v.start_date === !v.end_date, { error: 'Indica ambas fechas o ninguna.', path: ['end_date'] });
export const locationsOutput = z.object({ locations: z.array(locationSummary) });

/** PUT /api/single_class/guest */
export const guestNameInput = z.object({
  class_reservation_id: id,
  name: z.string().trim().min(2, { error: 'Debes ingresar un nombre para tu invitado' }).max(80),
});

// ---------- Reservations ----------

export const guestName = z.string().trim().min(2, { error: 'Debes ingresar un nombre para tu invitado' }).max(80);

/** POST /api/class_reservations. Staff and admin may book for a customer with customer_id. */
export const createReservationInput = z.object({
  single_class_id: id,
  spot: id.nullish(),
  guest: guestName.nullish(),
  /** The guest's seat on a seat-mapped class (required there when the customer books a seat with a guest). */
  guest_spot: id.nullish(),
  customer_id: id.optional(),
});

/** PUT /api/class_reservations: change the seat or the guest of a live reservation. */
export const updateReservationInput = z.object({
  class_reservation_id: id,
  spot: id.nullish(),
  guest: guestName.nullish(),
  guest_spot: id.nullish(),
});

export const reservationIdInput = z.object({ id });

export const reservationOutput = z.object({
  class_reservation_id: z.number(),
  single_class_id: z.number(),
  customer_id: z.number(),
  available_class_id: z.number().nullable(),
  spot: z.number().nullable(),
  guest: z.string().nullable(),
  /** The guest's seat on a seat-mapped class. */
  guest_spot: z.number().nullable(),
  /** The credit that paid for the guest (guest_uses_credit), given back with the booker's. */
  guest_available_class_id: z.number().nullable(),
  attend: z.boolean(),
  is_cash: z.boolean(),
  is_paid: z.boolean(),
  class_stars: z.number().nullable(),
  coach_stars: z.number().nullable(),
  comment: z.string().nullable(),
  credit_returned: z.boolean().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  deletedAt: isoDateTime.nullable(),
  /** The QR 'Código de Acceso' (decision 016): only the customer and staff read a reservation. */
  access_code: z.string(),
});
export type ReservationOutput = z.infer<typeof reservationOutput>;

/** A reservation with its class, as the lists show it. */
export const reservationWithClass = reservationOutput.extend({
  single_class: singleClassOutput.omit({ class_reservations: true, waitlist_id: true, package_access: true }),
});
export type ReservationWithClass = z.infer<typeof reservationWithClass>;

export const reservationResult = z.object({ class_reservation: reservationOutput });

export const reservationFilter = z.enum(['all', 'upcoming', 'past', 'cancelled']);
export type ReservationFilter = z.infer<typeof reservationFilter>;

/** GET /api/class_reservations/mine: 50 per page, page from 1. */
export const myReservationsInput = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  filter: reservationFilter.default('all'),
});
export const reservationPageSize = 50;
export const reservationListOutput = z.object({ total: z.number(), class_reservations: z.array(reservationWithClass) });

/** GET /api/class_reservations?{filters}: a customer sees only their own rows. */
export const reservationSearchInput = z.object({
  single_class_id: id.optional(),
  customer_id: id.optional(),
  start_date: startDate.optional(),
  end_date: endDate.optional(),
  include_cancelled: z.enum(['true', 'false']).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

/** POST /api/class_reservations/{id}/cancel */
export const cancelReservationOutput = z.object({
  class_reservation: reservationOutput,
  /** False when cancelled inside the threshold: the credit is not returned. */
  credit_returned: z.boolean(),
});

/** POST /api/class_reservations/{id}/rating */
export const ratingInput = z.object({
  id,
  class_stars: z.coerce.number().int().min(1, { error: 'Elige de 1 a 5 estrellas.' }).max(5, { error: 'Elige de 1 a 5 estrellas.' }),
  coach_stars: z.coerce.number().int().min(1, { error: 'Elige de 1 a 5 estrellas.' }).max(5, { error: 'Elige de 1 a 5 estrellas.' }),
  comment: z.string().trim().max(2000).nullish(),
});

// ---------- Waitlist ----------

export const waitlistOutput = z.object({
  waitlist_id: z.number(),
  single_class_id: z.number(),
  customer_id: z.number(),
  createdAt: isoDateTime,
  /** Her place in line (1: next), in the order people joined (decision 088). */
  position: z.number(),
  /** How many wait for this class. */
  waiting: z.number(),
  /** She asked to be booked (and charged a credit) when a place frees, with the studio's automatic promotion on. */
  auto_book: z.boolean(),
  single_class: singleClassOutput.omit({ class_reservations: true, waitlist_id: true, package_access: true }),
});
export const waitlistsOutput = z.object({ waitlists: z.array(waitlistOutput) });
export const waitlistResult = z.object({ waitlist: waitlistOutput });
export const createWaitlistInput = z.object({ single_class_id: id, customer_id: id.optional(), auto_book: z.boolean().optional() });
/** PUT /api/waitlist: moves the entry to another full class, and/or changes her choice to be booked automatically. */
export const updateWaitlistInput = z
  .object({ waitlist_id: id, single_class_id: id.optional(), auto_book: z.boolean().optional() })
  .refine((v) => v.single_class_id !== undefined || v.auto_book !== undefined, { error: 'Indica la clase o si quieres la reservación automática.', path: ['auto_book'] });
export const waitlistIdInput = z.object({ id });

// ---------- Credits ----------

export const availableClassOutput = z.object({
  available_class_id: z.number(),
  customer_id: z.number(),
  purchase_id: z.number().nullable(),
  /** -1 means unlimited. */
  available_classes: z.number(),
  expiration_date: isoDateTime.nullable(),
  class_type_id: z.number().nullable(),
  /** The class type the credit is restricted to; null: any. */
  class_types: classTypeSummary.nullable(),
  /** Comma list of allowed start times (HH:mm); null: any time. */
  allowed_times: z.string().nullable(),
  cancels_used: z.number(),
  createdAt: isoDateTime,
});
export type AvailableClassOutput = z.infer<typeof availableClassOutput>;

/** GET /api/available_classes: the caller's usable credits (not expired, not spent). */
export const availableClassesOutput = z.object({
  available_classes: z.array(availableClassOutput),
  /** Sum of the limited credits; unlimited members see has_unlimited instead. */
  total: z.number(),
  has_unlimited: z.boolean(),
  unlimited_membership_expiration: isoDateTime.nullable(),
});
export const availableClassResult = z.object({ available_class: availableClassOutput });
export const availableClassIdInput = z.object({ id });

/** Why staff give, correct or take a customer's credits: required (3 letters, decision 037), kept in the activity log. */
const creditReason = z.string().trim().max(300).nullish();

/** POST /api/available_classes (staff, admin): grant credits to a customer. */
export const grantCreditsInput = z.object({
  customer_id: id,
  available_classes: z.number().int().min(-1).max(10_000),
  expiration_date: instant('La fecha de vencimiento').nullish(),
  class_type_id: id.nullish(),
  allowed_times: z.string().regex(/^\d{2}:\d{2}(,\d{2}:\d{2})*$/, { error: 'Los horarios deben tener el formato HH:mm separados por comas.' }).nullish(),
  reason: creditReason,
});
/** PUT /api/available_classes/{id} (staff, admin). */
export const updateCreditsInput = grantCreditsInput.omit({ customer_id: true }).partial().extend({ id });
/** DELETE /api/available_classes/{id}?reason=… (staff, admin). */
export const removeCreditsInput = z.object({ id, reason: creditReason });

// ---------- Penalties ----------

export const penaltyOutput = z.object({
  class_reservation_penalty_id: z.number(),
  customer_id: z.number(),
  start_date: isoDateTime,
  end_date: isoDateTime,
  no_shows: z.number(),
  reason: z.string().nullable(),
  createdAt: isoDateTime,
});
export const penaltiesOutput = z.object({ class_reservation_penaltys: z.array(penaltyOutput) });
export const penaltyResult = z.object({ class_reservation_penalty: penaltyOutput });
export const penaltyIdInput = z.object({ id });
/** PUT /class_reservation_penaltys/{id}/lift: an administrator lifts an active penalty; the reason is required (decision 037). */
export const penaltyLiftInput = z.strictObject({ id, reason: z.string({ error: 'Escribe el motivo.' }).trim().max(300, { error: 'El motivo puede tener hasta 300 caracteres.' }) });
/** GET /api/class_reservation_penaltys: staff and admin may name a customer; a customer always gets their own. */
export const penaltiesListInput = z.object({ customer_id: id.optional() });

/** GET /api/class_reservations/progress: the classes the caller has taken, on the studio's calendar (core's classProgress). */
export const classProgressOutput = z.object({
  progress: z.object({
    total: z.number(),
    by_month: z.array(z.object({ month: z.string(), classes: z.number() })),
    week_streak: z.number(),
    best_week_streak: z.number(),
    milestones: z.array(z.object({ classes: z.number(), reached_on: z.string() })),
    next_milestone: z.object({ classes: z.number(), missing: z.number() }).nullable(),
  }),
});

// ---------- Reservar cada semana ----------

/** POST /api/standing_bookings: keep a place in this class's weekly slot (its discipline, location, weekday and hour). */
export const standingBookingInput = z.object({ single_class_id: id, spot: id.nullish() });

/** One week's class a standing place looks after: booked (and maybe cancelled since), refused for a reason, or not open to booking yet. */
export const standingWeekOutput = z.object({
  single_class_id: z.number(),
  class_date: isoDateTime,
  status: z.enum(['reservada', 'cancelada', 'no-reservada', 'pendiente']),
  class_reservation_id: z.number().nullable(),
  /** The booking service's Spanish refusal, when the week could not be booked. */
  reason: z.string().nullable(),
});

export const standingBookingOutput = z.object({
  standing_booking_id: z.number(),
  class_type_id: z.number(),
  class_type_name: z.string(),
  location_id: z.number(),
  location_name: z.string(),
  /** ISO weekday on the studio's clock (1 Monday … 7 Sunday) and minutes after midnight. */
  weekday: z.number(),
  start_minute: z.number(),
  /** 'martes 07:00'. */
  label: z.string(),
  spot: z.number().nullable(),
  createdAt: isoDateTime,
  /** The slot's classes from now on that this place has looked after or will. */
  weeks: z.array(standingWeekOutput),
});
export const standingBookingResult = z.object({ standing_booking: standingBookingOutput });
export const standingBookingsOutput = z.object({ standing_bookings: z.array(standingBookingOutput) });
