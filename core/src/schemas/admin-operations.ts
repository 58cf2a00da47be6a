import { z } from '../zod.ts';
import { reservationOutput, reservationSearchInput, reservationWithClass, singleClassOutput, updateReservationInput } from './booking.ts';
import { calendarDate, classDate } from './dates.ts';
import { id } from './fields.ts';

/**
 * The API contract of the admin's schedule, reservations, reports and outbox
 *. Dates and times are the studio's wall clock; instants travel as
 * ISO strings and money as strings with two decimals.
 */

const startDate = calendarDate('La fecha inicial');
const endDate = calendarDate('La fecha final');
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'La hora debe tener el formato HH:mm.' });
const dayMs = 86_400_000;

/** Whole days from start_date to end_date (both YYYY-MM-DD). */
function spanDays(v: { start_date: string; end_date: string }): number {
  return (Date.parse(v.end_date) - Date.parse(v.start_date)) / dayMs;
}

// ---------- Schedule ----------

const capacity = z.coerce
  .number({ error: 'El cupo debe ser un número.' })
  .int({ error: 'El cupo debe ser un número entero.' })
  .min(1, { error: 'El cupo debe ser de al menos 1 lugar.' })
  .max(500, { error: 'El cupo no puede ser mayor a 500 lugares.' });
const duration = z.coerce
  .number({ error: 'La duración debe ser un número.' })
  .int({ error: 'La duración debe ser un número entero de minutos.' })
  .min(5, { error: 'La duración debe ser de al menos 5 minutos.' })
  .max(600, { error: 'La duración no puede ser mayor a 600 minutos.' });
const instructorIds = z.array(id).max(10, { error: 'Una clase puede tener hasta 10 coaches.' });

/** What every class of the schedule needs: where, what, who, how many. */
const classFields = {
  duration_minutes: duration,
  capacity,
  location_id: id,
  /** A room of that location (decision 140); null or absent: no room. */
  room_id: id.nullish(),
  class_type_id: id,
  instructor_ids: instructorIds.default([]),
  /** A special class only buyers of this package can book. */
  class_package_id: id.nullish(),
  description: z.string().trim().max(2000).nullish(),
  icon: z.string().trim().max(200).nullish(),
  /** Staff saw the overlap the 409 'schedule/overlap' named and keep the class anyway. */
  allow_overlap: z.boolean({ error: 'La confirmación del cruce debe ser verdadero o falso.' }).optional(),
};

/** POST /api/single_class: one class on a local date and time of the studio. */
export const singleClassCreateInput = z.object({ date: classDate(), time: hhmm, ...classFields });
export type SingleClassCreateInput = z.infer<typeof singleClassCreateInput>;

/**
 * Which classes of a series an edit changes: this one, this and the ones after it, or every one still to start.
 * A class made alone is its own series of one.
 */
export const seriesScope = z.enum(['this', 'following', 'all'], { error: 'Indica si el cambio es para esta clase, esta y las siguientes, o toda la serie.' });
export type SeriesScope = z.infer<typeof seriesScope>;

/**
 * PUT /api/single_class: changes what is sent. Moving a class (date, time)
 * keeps its reservations; the capacity may not go below the places taken.
 * With `scope` 'following' or 'all', the same change goes to the class's
 * series (each class keeps its own date; a new time is the new time of each).
 * People booked on a class whose time, place or coaches change are told,
 * unless `notify` is false.
 */
export const singleClassUpdateInput = z
  .object({
    single_class_id: id,
    scope: seriesScope.default('this'),
    notify: z.boolean({ error: 'El aviso a los clientes debe ser verdadero o falso.' }).default(true),
    date: classDate().optional(),
    time: hhmm.optional(),
    duration_minutes: duration.optional(),
    capacity: capacity.optional(),
    location_id: id.optional(),
    room_id: id.nullish(),
    class_type_id: id.optional(),
    instructor_ids: instructorIds.optional(),
    class_package_id: id.nullish(),
    description: z.string().trim().max(2000).nullish(),
    icon: z.string().trim().max(200).nullish(),
    allow_overlap: classFields.allow_overlap,
  })
  .refine((v) => (v.date === undefined) === (v.time === undefined), {
    error: 'Para mover una clase indica la fecha y la hora.',
    path: ['time'],
  });
export type SingleClassUpdateInput = z.infer<typeof singleClassUpdateInput>;

export const singleClassIdInput = z.object({ id });

/**
 * The studio's own words for the people a cancellation tells ('la coach se enfermó'): one line in every message, up to
 * 300 characters; spaces and line breaks become single spaces, as a WhatsApp template's parameter needs them.
 */
const cancelNote = z
  .string({ error: 'La nota debe ser texto.' })
  .max(300, { error: 'La nota puede tener hasta 300 caracteres.' })
  .transform((note) => note.replace(/\s+/g, ' ').trim());

/** POST /api/single_class/{id}/cancel and its preview: the class, and the note that goes in each message. */
export const singleClassCancelInput = z.object({ id, note: cancelNote.optional() });
export type SingleClassCancelInput = z.infer<typeof singleClassCancelInput>;

/** Weekday 1 (lunes) to 7 (domingo), as ISO 8601 numbers them. */
export const weeklySlot = z.object({
  weekday: z.coerce.number().int().min(1, { error: 'El día debe ser de 1 (lunes) a 7 (domingo).' }).max(7, { error: 'El día debe ser de 1 (lunes) a 7 (domingo).' }),
  time: hhmm,
});

/** POST /api/single_class/repeat: a weekly template over a local date range (at most 366 days). */
export const singleClassRepeatInput = z
  .object({
    start_date: classDate('La fecha inicial'),
    end_date: classDate('La fecha final'),
    slots: z.array(weeklySlot).min(1, { error: 'Agrega al menos un horario.' }).max(70, { error: 'Son demasiados horarios por semana.' }),
    ...classFields,
  })
  .refine((v) => v.start_date <= v.end_date, { error: 'La fecha final debe ser posterior a la inicial.', path: ['end_date'] })
  .refine((v) => spanDays(v) <= 366, { error: 'El rango de fechas no puede ser mayor a 366 días.', path: ['end_date'] });
export type SingleClassRepeatInput = z.infer<typeof singleClassRepeatInput>;

export const adminSingleClassResult = z.object({ single_class: singleClassOutput });

/** PUT /api/single_class: the class as stored, every class the edit changed, and the messages queued for them. */
export const singleClassUpdateOutput = adminSingleClassResult.extend({
  /** The classes changed, soonest first: the class alone, or the series' classes the scope took. */
  single_class_ids: z.array(z.number()),
  /** Messages queued in the outbox for the people booked on classes whose time, place or coaches changed. */
  messages_queued: z.number(),
});

/** GET /api/single_class/{id}/cancel_preview: what a cancel would do, for the confirmation dialog. */
export const singleClassCancelPreviewOutput = z.object({
  reservations: z.number(),
  /** Limited credits that would get their class back. */
  credits_returned: z.number(),
  waitlisted: z.number(),
  /**
   * The message each group of people will receive, with the note: who booked with a credit (it comes back), with an
   * unlimited membership, and who waited. Only groups with someone in them; the greeting names each person.
   */
  messages: z.array(
    z.object({
      was: z.enum(['credit', 'unlimited', 'waitlist']),
      customers: z.number(),
      subject: z.string(),
      paragraphs: z.array(z.string()),
    }),
  ),
});

export const singleClassCancelOutput = z.object({
  single_class: singleClassOutput,
  /** Reservations cancelled by cancelling the class. */
  reservations_cancelled: z.number(),
  /** Limited credits that got their class back (unlimited memberships have none to give back). */
  credits_returned: z.number(),
  /** Messages queued in the outbox, one per customer. */
  messages_queued: z.number(),
  waitlist_removed: z.number(),
});

/**
 * POST /api/single_class/substitute: another coach gives one class of a
 * coach, or every class of that coach between two local dates (classes still
 * to start, not cancelled). `notify` tells the people booked on them.
 */
export const singleClassSubstituteInput = z
  .object({
    from_instructor_id: id,
    to_instructor_id: id,
    single_class_id: id.optional(),
    start_date: classDate('La fecha inicial').optional(),
    end_date: classDate('La fecha final').optional(),
    notify: z.boolean({ error: 'El aviso a los clientes debe ser verdadero o falso.' }).default(false),
    allow_overlap: classFields.allow_overlap,
  })
  // Which classes (one, or a range) and that the coaches differ are the service's checks: schedule/substitute-scope,
  // schedule/same-coach.
  .refine((v) => !v.start_date || !v.end_date || v.start_date <= v.end_date, { error: 'La fecha final debe ser posterior a la inicial.', path: ['end_date'] })
  .refine((v) => !v.start_date || !v.end_date || spanDays({ start_date: v.start_date, end_date: v.end_date }) <= 366, {
    error: 'El rango de fechas no puede ser mayor a 366 días.',
    path: ['end_date'],
  });
export type SingleClassSubstituteInput = z.infer<typeof singleClassSubstituteInput>;

export const singleClassSubstituteOutput = z.object({
  /** The classes the substitute now gives, soonest first. */
  single_class_ids: z.array(z.number()),
  /** Messages queued in the outbox (one per person told and channel). */
  messages_queued: z.number(),
});

export const singleClassRepeatOutput = z.object({
  /** The series the classes belong to (null when every slot already had its class and nothing was made). */
  class_series_id: z.number().nullable(),
  /** Classes created, soonest first. */
  single_class_ids: z.array(z.number()),
  created: z.number(),
  /** Slots that already had their class (same location, class type and start). */
  skipped: z.number(),
});

/**
 * POST /api/single_class_series/cancel and its preview (GET …/{class_series_id}/cancel_preview): the series' classes from `start_date` to `end_date` (to its
 * end when omitted, which ends the series the day before), each cancelled as a single class is, with the note.
 */
export const seriesCancelInput = z
  .object({
    class_series_id: id,
    start_date: calendarDate('La fecha inicial'),
    end_date: calendarDate('La fecha final').optional(),
    note: cancelNote.optional(),
  })
  .refine((v) => !v.end_date || v.start_date <= v.end_date, { error: 'La fecha final debe ser posterior a la inicial.', path: ['end_date'] });
export type SeriesCancelInput = z.infer<typeof seriesCancelInput>;

const seriesSummary = z.object({
  class_series_id: z.number(),
  slots: z.array(weeklySlot),
  start_date: z.string(),
  end_date: z.string(),
});

export const seriesCancelPreviewOutput = singleClassCancelPreviewOutput.extend({
  series: seriesSummary,
  /** The classes it would cancel, soonest first, each with its bookings and waitlist. */
  classes: z.array(z.object({ single_class_id: z.number(), class_date: z.string(), reservations: z.number(), waitlisted: z.number() })),
});

export const seriesCancelOutput = z.object({
  series: seriesSummary,
  /** Classes cancelled, soonest first. */
  single_class_ids: z.array(z.number()),
  reservations_cancelled: z.number(),
  credits_returned: z.number(),
  messages_queued: z.number(),
  waitlist_removed: z.number(),
});

// ---------- Reservations (staff and admin) ----------

export const reservationStatus = z.enum(['live', 'cancelled', 'attended', 'no_show', 'all']);
export type ReservationStatus = z.infer<typeof reservationStatus>;

export const reservationCustomerSummary = z.object({
  customer_id: z.number(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** For the roster: whom to greet by Instagram, and whose birthday it is ('AAAA-MM-DD'). */
  instagram: z.string().nullable(),
  birthdate: z.string().nullable(),
});

/** A reservation as staff see it: with its class and who booked it. */
export const adminReservationOutput = reservationWithClass.extend({ customer: reservationCustomerSummary });
export type AdminReservationOutput = z.infer<typeof adminReservationOutput>;
export const adminReservationResult = z.object({ class_reservation: adminReservationOutput });
export const adminReservationListOutput = z.object({ total: z.number(), class_reservations: z.array(adminReservationOutput) });

/**
 * PUT /api/class_reservations: a customer changes the seat or the guest;
 * staff and admin may also mark attendance and payment.
 */
export const staffUpdateReservationInput = updateReservationInput.extend({
  attend: z.boolean().optional(),
  is_paid: z.boolean().optional(),
});

/** GET /api/class_reservations?{filters}: the booking search plus a status filter. */
export const adminReservationSearchInput = reservationSearchInput.extend({ status: reservationStatus.optional() });

/** PUT /api/class_reservations/{id}/checkin */
export const reservationCheckInInput = z.object({ id });
export const reservationCheckInOutput = z.object({ class_reservation: reservationOutput });

// ---------- Reports ----------

/** Reports cover at most 366 days of the studio's calendar. */
export const reportRangeInput = z
  .object({ start_date: startDate, end_date: endDate })
  .refine((v) => v.start_date <= v.end_date, { error: 'La fecha final debe ser posterior a la inicial.', path: ['end_date'] })
  .refine((v) => spanDays(v) <= 366, { error: 'El rango de fechas no puede ser mayor a 366 días.', path: ['end_date'] });
export type ReportRangeInput = z.infer<typeof reportRangeInput>;

/** GET /api/purchases/admin/all (admin): every customer's purchases made in a range of studio dates, newest first, 30 a page. */
/** The groups of statuses the purchase list filters by: paid (active or completed), pending, cancelled (cancelled or revoked). */
export const purchaseStatusGroups = { paid: ['active', 'completed'], pending: ['pending'], cancelled: ['cancelled', 'revoked'] } as const;
export const adminPurchasesInput = z
  .object({
    start_date: startDate,
    end_date: endDate,
    page: z.coerce.number({ error: 'Debe ser un número.' }).int().min(1).max(10_000).default(1),
    status: z.enum(['paid', 'pending', 'cancelled'], { error: 'El estado debe ser paid, pending o cancelled.' }).optional(),
    /** The customer's name, e-mail or phone, as the customer search finds them. */
    query: z.string().trim().max(200).optional(),
  })
  .refine((v) => v.start_date <= v.end_date, { error: 'La fecha final debe ser posterior a la inicial.', path: ['end_date'] })
  .refine((v) => spanDays(v) <= 366, { error: 'El rango de fechas no puede ser mayor a 366 días.', path: ['end_date'] });
export const adminPurchaseRow = z.object({
  purchase_id: z.number(),
  /** When it was made (ISO instant). */
  createdAt: z.string(),
  customer_id: z.number(),
  customer_name: z.string(),
  customer_first_name: z.string(),
  customer_last_name: z.string(),
  email: z.string(),
  class_package_id: z.number(),
  title: z.string(),
  amount: z.string(),
  total_payment: z.string(),
  payment_kind: z.string(),
  /** The purchase's status; 'refunded' when its money was given back. */
  status: z.string(),
  discount_code: z.string().nullable(),
  refund: z.string().nullable(),
  refunded_at: z.string().nullable(),
  cancel_reason: z.string().nullable(),
});
export const adminPurchasesOutput = z.object({ purchases: z.array(adminPurchaseRow), page: z.number(), pages: z.number(), total: z.number() });

/** GET /api/reports/customers (admin): customers new, active and cancelled in a range of studio dates. */
const reportCustomer = z.object({ customer_id: z.number(), name: z.string(), last_name: z.string(), email: z.string(), createdAt: z.string() });
export const customersReportOutput = z.object({
  /** Accounts created in the range. */
  nuevos: z.array(reportCustomer),
  /** Customers with a paid purchase whose access overlaps the range. */
  activos: z.array(reportCustomer),
  /** Customers with a purchase cancelled or revoked in the range. */
  cancelados: z.array(reportCustomer),
});

const attendanceRow = {
  /** Live classes in the range (cancelled ones are left out). */
  classes: z.number(),
  capacity: z.number(),
  /** Live reservations. */
  reservations: z.number(),
  attended: z.number(),
  /** Live reservations not attended of classes that already ended. */
  no_shows: z.number(),
  /** Places taken (reservations plus guests) over capacity, in percent with one decimal. */
  occupancy: z.number(),
};
export const attendanceReportOutput = z.object({
  by_class_type: z.array(z.object({ class_type_id: z.number(), name: z.string(), ...attendanceRow })),
  by_instructor: z.array(z.object({ instructor_id: z.number(), name: z.string(), last_name: z.string(), ...attendanceRow })),
  /** By start time on the studio's wall clock ('HH:mm'). */
  by_hour: z.array(z.object({ class_hour: z.string(), ...attendanceRow })),
  /** Months of the studio's calendar, 'YYYY-MM'. */
  by_month: z.array(z.object({ month: z.string(), ...attendanceRow })),
});

export const salesReportOutput = z.object({
  by_package: z.array(z.object({ class_package_id: z.number(), title: z.string(), count: z.number(), total: z.string() })),
  /** Products sold at the counter: lines (count), units and money. */
  by_product: z.array(z.object({ product_id: z.number(), title: z.string(), count: z.number(), units: z.number(), total: z.string() })),
  /** Months of the studio's calendar, 'YYYY-MM'. */
  by_month: z.array(z.object({ month: z.string(), count: z.number(), total: z.string() })),
  count: z.number(),
  total: z.string(),
});

export const membershipsReportOutput = z.object({
  /** Customers with an unlimited membership that has not expired. */
  unlimited_members: z.number(),
  /** Subscription purchases still active. */
  active_subscriptions: z.number(),
  subscriptions_by_package: z.array(z.object({ class_package_id: z.number(), title: z.string(), count: z.number() })),
});

export const noShowsReportOutput = z.object({
  customers: z.array(
    z.object({
      customer_id: z.number(),
      name: z.string(),
      last_name: z.string(),
      email: z.string(),
      reservations: z.number(),
      no_shows: z.number(),
    }),
  ),
});

// ---------- Outbox ----------

export const outboxStatus = z.enum(['pending', 'sent', 'failed']);
export const outboxChannel = z.enum(['email', 'whatsapp']);
export const outboxPageSize = 50;

export const outboxListInput = z.object({
  status: outboxStatus.optional(),
  channel: outboxChannel.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const outboxMessageOutput = z.object({
  outbox_message_id: z.number(),
  channel: outboxChannel,
  recipient: z.string(),
  subject: z.string().nullable(),
  body: z.string(),
  status: outboxStatus,
  attempts: z.number(),
  last_error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** What it is about (core messageKinds) and its Spanish name for staff. */
  kind: z.string(),
  kind_label: z.string(),
  /** Whom it is for, when a customer, and their name. */
  customer_id: z.number().nullable(),
  customer_name: z.string().nullable(),
  /** A waiting message is not tried before this time (the backoff after a temporary failure). */
  next_attempt_at: z.string(),
});
export type OutboxMessageOutput = z.infer<typeof outboxMessageOutput>;
export const outboxListOutput = z.object({ total: z.number(), outbox_messages: z.array(outboxMessageOutput) });
export const outboxIdInput = z.object({ id });
export const outboxMessageResult = z.object({ outbox_message: outboxMessageOutput });
