import { isValidSpot, parseSpotMap, totalSeats, type BookingImportInput, type BookingImportOutput, foldHeader, importDayText, parseCsv, readBookingRow, recognizeBookingColumns, studioDayRange, studioInstant, type BookingImportField, type ImportedBooking } from '@estudio/core';
import { classSpotMapSql, type Tx } from '@estudio/db';
import { and, eq, gte, inArray, isNull, lte } from 'drizzle-orm';
import { class_type, location } from '@estudio/db/schema/catalogue';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { chunks } from '../chunks.ts';
import { enterClassGate, lockClass, lockCustomers } from '../reservations/booking-locks.ts';
import { placesColumns } from '../schedule/single-class-output.ts';
import {
  claimImportLines,
  consoleImportOutput,
  countOutcomes,
  customersByContact,
  endOfStudioDay,
  importBatchSize,
  importedEarlierReason,
  importedKeys,
  importedMeanwhileReason,
  importLookupSize,
  linkImportLines,
  studioToday,
  unknownCustomerReason,
  type RecordImportLine,
} from './import-lines.ts';

type Columns = Partial<Record<BookingImportField, number>>;

/** Days a booking's credit lasts after its class when the file does not say, should she cancel in time. */
export const IMPORTED_BOOKING_CREDIT_DAYS = 30;

export interface BookingImportPlan {
  header: string[];
  columns: Columns;
  lines: (RecordImportLine & { booking: ImportedBooking | null; single_class_id: number | null; class_type_id: number | null; spot: number | null; has_unlimited: boolean })[];
  counts: ReturnType<typeof countOutcomes>;
  tz: string;
}

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The studio's live classes between two days, with their class type's and location's names. */
async function classesBetween(db: Db, from: string, to: string, tz: string) {
  const range = studioDayRange(from, to, tz);
  const rows = await db
    .select({ id: single_class.single_class_id, at: single_class.class_date, capacity: single_class.capacity, type_id: class_type.class_type_id, type: class_type.name, spot_map: classSpotMapSql(), place: location.name })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(location, eq(location.location_id, single_class.location_id))
    .where(and(gte(single_class.class_date, range.from), lte(single_class.class_date, range.to), isNull(single_class.cancelledAt)));
  return rows;
}

/**
 * The bookings file's dry run (decision 127): each line is a class the customer it names has booked, found in the
 * studio's schedule by its day, start time, class type and (when given) location; one she already has; a repeat of
 * an earlier line; or refused with its reason: no such customer or class, a class already past or full, a seat the
 * class does not have or someone else holds.
 */
export async function planBookingImport(db: Db, csv: string, columns?: Columns, now: Date = new Date()): Promise<BookingImportPlan> {
  const [header = [], ...rows] = parseCsv(csv);
  const mapping = columns ?? recognizeBookingColumns(header);
  const { tz, today } = await studioToday(db, now);
  const read = rows.map((row, i) => ({ line: i + 2, result: readBookingRow(row, mapping, today) }));
  const ready = read.flatMap((r) => (r.result.ok ? [r.result.booking] : []));
  const find = await customersByContact(db, ready);
  const days = ready.map((b) => b.date).sort();
  const classes = days.length ? await classesBetween(db, days[0]!, days[days.length - 1]!, tz) : [];
  const byStart = new Map<string, typeof classes>();
  for (const c of classes) {
    const key = new Date(c.at).toISOString();
    byStart.set(key, [...(byStart.get(key) ?? []), c]);
  }
  const seen = new Map<string, number>();
  const lines: BookingImportPlan['lines'] = read.map(({ line, result }) => {
    const blank = { line, customer_id: null, matched_by: null, name: null, last_name: null, email: null, phone: null, detail: '', booking: null, single_class_id: null, class_type_id: null, spot: null, has_unlimited: false };
    if (!result.ok) return { ...blank, email: result.contact.email, phone: result.contact.phone, outcome: 'refused', reasons: result.reasons };
    const b = result.booking;
    const reasons: string[] = [];
    const found = find(b);
    if (!found) reasons.push(unknownCustomerReason(b));
    const when = `${importDayText(b.date)} a las ${b.time}`;
    const start = studioInstant(b.date, b.time, tz);
    const sameStart = byStart.get(start.toISOString()) ?? [];
    const typed = sameStart.filter((c) => foldHeader(c.type) === foldHeader(b.class_type));
    const matches = b.location ? typed.filter((c) => foldHeader(c.place) === foldHeader(b.location!)) : typed;
    const detail = `${b.class_type} el ${when}${b.location ? `, ${b.location}` : ''}${b.spot ? `, lugar ${b.spot}` : ''}`;
    if (start.getTime() <= now.getTime()) reasons.push(`La clase del ${when} ya empezó o pasó.`);
    else if (!matches.length) reasons.push(`No hay clase de ${b.class_type} el ${when}${b.location ? ` en ${b.location}` : ''} en el horario: créala o corrige la línea.`);
    else if (matches.length > 1) reasons.push(`Hay ${matches.length} clases de ${b.class_type} el ${when}: agrega la sucursal para saber cuál es.`);
    const who = found?.who;
    const person = who ? { customer_id: who.customer_id, matched_by: found.by, name: who.name, last_name: who.last_name, email: who.email, phone: who.phone, has_unlimited: who.has_unlimited } : { email: b.email, phone: b.phone };
    const cls = matches.length === 1 ? matches[0]! : null;
    if (cls && b.spot && !isValidSpot(cls.spot_map, b.spot))
      reasons.push(parseSpotMap(cls.spot_map) ? `La clase no tiene el lugar ${b.spot} (tiene ${totalSeats(cls.spot_map)}).` : 'Esa clase no tiene lugares numerados: deja vacía la columna del lugar.');
    if (reasons.length || !who || !cls) return { ...blank, ...person, outcome: 'refused', reasons, booking: b, detail };
    const key = bookingKey(who.customer_id, cls.id);
    const earlier = seen.get(key);
    if (earlier) return { ...blank, ...person, outcome: 'repeated', reasons: [`Es la misma reservación que la línea ${earlier}.`], booking: b, detail, single_class_id: cls.id, class_type_id: cls.type_id };
    seen.set(key, line);
    return { ...blank, ...person, outcome: 'new', reasons: [], booking: b, detail, single_class_id: cls.id, class_type_id: cls.type_id, spot: b.spot };
  });
  await markExisting(db, lines);
  // Places and seats: what the class has left for the new lines, in the file's order (the real run counts again under the lock).
  const capacity = new Map(classes.map((c) => [c.id, c.capacity]));
  const taken = await placesTaken(db, [...new Set(lines.flatMap((l) => (l.outcome === 'new' ? [l.single_class_id!] : [])))]);
  for (const l of lines) if (l.outcome === 'new') takePlace(l, capacity.get(l.single_class_id!) ?? 0, taken);
  return { header, columns: mapping, lines, counts: countOutcomes(lines), tz };
}


type Taken = Map<number, { places: number; spots: Set<number> }>;

/**
 * Gives a line its place in its class, and its seat if it names one, out of what `taken` says the class has; or
 * refuses it: the class is full (`during` the real run: it filled up meanwhile), or the seat is someone's.
 */
function takePlace(l: BookingImportPlan['lines'][number], capacity: number, taken: Taken, during = false): boolean {
  const now = taken.get(l.single_class_id!) ?? { places: 0, spots: new Set<number>() };
  let reason: string | null = null;
  if (capacity - now.places <= 0) reason = during ? 'La clase se llenó mientras se importaba.' : `La clase ya está llena (${capacity} ${capacity === 1 ? 'lugar' : 'lugares'}).`;
  else if (l.spot && now.spots.has(l.spot)) reason = `El lugar ${l.spot} ya está ocupado en esa clase.`;
  if (reason) {
    l.outcome = 'refused';
    l.reasons = [reason];
    return false;
  }
  now.places += 1;
  if (l.spot) now.spots.add(l.spot);
  taken.set(l.single_class_id!, now);
  return true;
}

/** Live places (bookings and their guests) and taken seats of each class, counted as the schedule counts them. */
async function placesTaken(db: Db, classIds: readonly number[]): Promise<Taken> {
  const { single_class_id, places, spots } = placesColumns();
  const taken: Taken = new Map();
  for (const some of chunks(classIds, importLookupSize)) {
    const rows = await db
      .select({ single_class_id, places, spots })
      .from(class_reservation)
      .where(and(inArray(class_reservation.single_class_id, some), isNull(class_reservation.deletedAt)))
      .groupBy(class_reservation.single_class_id);
    for (const r of rows) taken.set(r.single_class_id, { places: Number(r.places), spots: new Set((r.spots ?? []).map(Number)) });
  }
  return taken;
}

/** Whom each of these classes has booked: 'customer|class' of their live bookings. */
async function liveBookings(db: Db, classIds: readonly number[]): Promise<Set<string>> {
  const live = new Set<string>();
  for (const some of chunks(classIds, importLookupSize)) {
    const rows = await db
      .select({ customer: class_reservation.customer_id, cls: class_reservation.single_class_id })
      .from(class_reservation)
      .where(and(inArray(class_reservation.single_class_id, some), isNull(class_reservation.deletedAt)));
    for (const r of rows) live.add(bookingKey(r.customer, r.cls));
  }
  return live;
}

/** A booking's key, in the import's lines and in the lines it claims: who and which class. */
const bookingKey = (customerId: number | null, classId: number | null) => `${customerId}|${classId}`;
const lineKey = (l: BookingImportPlan['lines'][number]) => bookingKey(l.customer_id, l.single_class_id);

/** Lines already brought over by an earlier run, or booked meanwhile by the customer herself, are hers already. */
async function markExisting(db: Db, lines: BookingImportPlan['lines']) {
  const fresh = lines.filter((l) => l.outcome === 'new');
  const already = await importedKeys(db, 'booking', fresh.map(lineKey));
  const live = await liveBookings(db, [...new Set(fresh.map((l) => l.single_class_id!))]);
  for (const l of fresh) {
    if (already.has(lineKey(l))) {
      l.outcome = 'existing';
      l.reasons = [importedEarlierReason];
    } else if (live.has(lineKey(l))) {
      l.outcome = 'existing';
      l.reasons = ['Ya tiene reservada esta clase.'];
    }
  }
}

/**
 * The real run: each new line booked in one transaction per batch, in the booking's lock order (the class gates, the
 * customers, then the classes, each in id order), with the places counted again under the class lock. The class was
 * paid in the other system: the booking spends no credit she has here, but carries a used credit of its class type,
 * so cancelling in time gives her the class back as it would have there (valid the file's date, or
 * {@link IMPORTED_BOOKING_CREDIT_DAYS} after the class). An unlimited member's booking carries none. Nobody is told.
 */
export async function runBookingImport(db: Db, actor: StaffActor, csv: string, options: { columns?: Columns; batchSize?: number; now?: Date } = {}): Promise<BookingImportPlan> {
  const now = options.now ?? new Date();
  const plan = await planBookingImport(db, csv, options.columns, now);
  const fresh = plan.lines.filter((l) => l.outcome === 'new');
  for (const batch of chunks(fresh, options.batchSize ?? importBatchSize)) await db.transaction(async (tx) => bookBatch(tx as Tx, actor, batch, plan.tz));
  plan.counts = countOutcomes(plan.lines);
  return plan;
}

async function bookBatch(tx: Tx, actor: StaffActor, batch: BookingImportPlan['lines'], tz: string) {
  const classIds = [...new Set(batch.map((l) => l.single_class_id!))].sort((a, b) => a - b);
  for (const id of classIds) await enterClassGate(tx, id);
  await lockCustomers(
    tx,
    batch.map((l) => l.customer_id!),
  );
  const capacity = new Map<number, number>();
  for (const id of classIds) {
    const cls = await lockClass(tx, id);
    capacity.set(id, cls.cancelledAt ? 0 : cls.capacity);
  }
  // Counted again under the class locks: a booking made since the dry run holds its place and its seat.
  const taken = await placesTaken(tx, classIds);
  const live = await liveBookings(tx, classIds);
  // Which lines the classes still take, in the file's order; then each kind of row written in one statement.
  const bookable: BookingImportPlan['lines'] = [];
  for (const l of batch) {
    const key = lineKey(l);
    if (live.has(key)) {
      l.outcome = 'existing';
      l.reasons = ['Ya tiene reservada esta clase.'];
    } else if (takePlace(l, capacity.get(l.single_class_id!) ?? 0, taken, true)) {
      live.add(key);
      bookable.push(l);
    }
  }
  if (!bookable.length) return;
  const claimed = await claimImportLines(tx, 'booking', bookable.map(lineKey));
  const mine = bookable.filter((l) => claimed.has(lineKey(l)));
  for (const l of bookable) {
    if (!claimed.has(lineKey(l))) {
      l.outcome = 'existing';
      l.reasons = [importedMeanwhileReason];
    }
  }
  if (!mine.length) return;
  const paying = mine.filter((l) => !l.has_unlimited);
  const credits = paying.length
    ? await tx
        .insert(available_classes)
        .values(
          paying.map((l) => ({
            customer_id: l.customer_id!,
            available_classes: 0,
            class_type_id: l.class_type_id,
            expiration_date: endOfStudioDay(l.booking!.expires ?? addDays(l.booking!.date, IMPORTED_BOOKING_CREDIT_DAYS), tz),
          })),
        )
        .returning({ id: available_classes.available_class_id })
    : [];
  // A multi-row INSERT returns its rows in the order of its VALUES (PostgreSQL and PGlite alike).
  const creditOf = new Map(paying.map((l, k) => [l, credits[k]?.id ?? null]));
  const reservations = await tx
    .insert(class_reservation)
    .values(mine.map((l) => ({ single_class_id: l.single_class_id!, customer_id: l.customer_id!, available_class_id: creditOf.get(l) ?? null, spot: l.spot })))
    .returning({ id: class_reservation.class_reservation_id, customer_id: class_reservation.customer_id, single_class_id: class_reservation.single_class_id });
  const reservationOf = new Map(reservations.map((r) => [bookingKey(r.customer_id, r.single_class_id), r.id]));
  const booked = mine.map((line) => ({ line, reservation: reservationOf.get(lineKey(line))!, credit: creditOf.get(line) ?? null }));
  await linkImportLines(
    tx,
    booked.map((b) => ({ lineId: claimed.get(lineKey(b.line))!, entityId: b.reservation })),
  );
  if (!booked.length) return;
  await recordAudit(tx, {
    ...auditedBy(actor),
    action: 'reservations.import',
    entity: 'class_reservation',
    entityId: null,
    changes: { given: booked.length, lines: booked.map((b) => ({ line: b.line.line, customer_id: b.line.customer_id, class_reservation_id: b.reservation, available_class_id: b.credit, detail: b.line.detail })) },
  });
}

/** The console's import (POST /api/import/bookings): the dry run or the real run, each line as the screen lists it. */
export async function importBookingsFromConsole(db: Db, actor: StaffActor, input: BookingImportInput): Promise<BookingImportOutput> {
  const plan = input.dry_run ? await planBookingImport(db, input.csv, input.columns) : await runBookingImport(db, actor, input.csv, input.columns ? { columns: input.columns } : {});
  return consoleImportOutput(plan);
}
