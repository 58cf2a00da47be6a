import { eq, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { executeStatement, prepareReplicaStatements, replicaStatement, type ReplicaStatement } from '@estudio/sync/client/prepared';
import type { Db } from '@estudio/db';
import { class_reservation, class_type, customer, location, single_class } from '@estudio/db';
import { checkInRefusals, checkInWindow, DomainError, localTimeHHmm, missingProfileFields, readScannedCode, studioTimeZone, texts, type AppConfigMap, type RequiredProfileField } from '@estudio/core';
import { iso, replicaSettings } from '../time.ts';
import { pendingPagesSql } from './counter-warnings.ts';
import { customerAlertsSql } from './customer-notes.ts';

const t = texts.desk;

export type ScanWarning =
  | 'wrong-day'
  | 'reservation-cancelled'
  | 'class-cancelled'
  | 'too-early'
  | 'too-late'
  | 'unpaid-cash'
  | 'already-attended'
  // Decision 018: warn, never refuse.
  | 'documents-pending'
  | 'profile-incomplete'
  // Staff's alerts on the customer ("debe dinero"): said at every scan, never refusing.
  | 'customer-alert';

export interface ReservationView {
  class_reservation_id: number;
  customer_id: number;
  name: string;
  last_name: string;
  email: string;
  guest: string | null;
  spot: number | null;
  is_cash: boolean;
  is_paid: boolean;
  attend: boolean;
  attendedAt: string | null;
  deletedAt: string | null;
  single_class_id: number;
  class_date: string;
  duration_minutes: number;
  class_type: string;
  location_id: number;
  location: string;
  classCancelledAt: string | null;
  /** When the desk starts and stops checking this class in (decision 016). */
  checkInOpensAt: string;
  checkInClosesAt: string;
  /** The studio's time zone (replica settings): the day and the hours of the warnings. */
  timeZone: string;
  /** Titles of required documents the customer has not accepted, and empty required profile fields (counter-warnings.ts). */
  pendingDocuments?: string[];
  missingProfile?: RequiredProfileField[];
  /** Staff's alerts on the customer (customer-notes.ts), newest first. */
  alerts?: string[];
  /** Whether the customer has a photo: the verdict asks for it only then. */
  hasPhoto?: boolean;
}

/**
 * The reservation a scanned or typed code names (decision 016), read in one
 * statement with everything the verdict shows; null when the replica does not
 * have it. Only a reservation's random access code admits: an old sequential
 * link, a bare folio or another site's link is refused with its own Spanish
 * reason. A QR link's id must be the code's reservation.
 */
export async function findScannedReservation(db: Db, text: string): Promise<ReservationView | null> {
  const scanned = readScannedCode(text);
  if (scanned.kind === 'old-code') throw new DomainError('desk/code-outdated');
  if (scanned.kind === 'not-a-code') throw new DomainError('desk/code-not-recognised');
  await ensureScanIndexes(db);
  const found = await selectReservation(db, 'access_code', scanned.code, await replicaSettings(db));
  if (found && scanned.reservationId !== null && scanned.reservationId !== found.class_reservation_id) throw new DomainError('desk/code-unknown');
  return found;
}

const indexed = new WeakSet<Db>();
/**
 * The replica drops the server's unique indexes (decision 008), the access
 * code's with them: without this one every scan reads every reservation
 * (25 ms with 50,000 of them). Not unique here, as the replica's rows arrive
 * in log order.
 */
export async function ensureScanIndexes(db: Db): Promise<void> {
  if (indexed.has(db)) return;
  await db.execute(sql.raw('create index if not exists desk_class_reservation_access_code_idx on class_reservation (access_code)'));
  indexed.add(db);
}

/**
 * What the verdict shows, read in one statement: the reservation, its class, and the customer's warnings. The
 * statement is prepared once per replica (a scan answers in a few milliseconds, and planning it again took one).
 */
const viewFields = {
  class_reservation_id: class_reservation.class_reservation_id,
  customer_id: class_reservation.customer_id,
  name: customer.name,
  last_name: customer.last_name,
  email: customer.email,
  phone: customer.phone,
  birthdate: sql`${customer.birthdate}::text`,
  customer_deleted_at: customer.deletedAt,
  has_photo: sql`${customer.file_id} is not null`,
  guest: class_reservation.guest,
  spot: class_reservation.spot,
  is_cash: class_reservation.is_cash,
  is_paid: class_reservation.is_paid,
  attend: class_reservation.attend,
  attended_at: class_reservation.attendedAt,
  deleted_at: class_reservation.deletedAt,
  single_class_id: single_class.single_class_id,
  class_date: single_class.class_date,
  duration_minutes: single_class.duration_minutes,
  class_type: class_type.name,
  location_id: location.location_id,
  location: location.name,
  class_cancelled_at: single_class.cancelledAt,
  pending_pages: pendingPagesSql(class_reservation.customer_id),
  alerts: customerAlertsSql(class_reservation.customer_id),
};

interface ViewRow {
  class_reservation_id: number;
  customer_id: number;
  name: string;
  last_name: string;
  email: string;
  phone: string | null;
  birthdate: string | null;
  customer_deleted_at: Date | string | null;
  has_photo: boolean;
  guest: string | null;
  spot: number | null;
  is_cash: boolean;
  is_paid: boolean;
  attend: boolean;
  attended_at: Date | string | null;
  deleted_at: Date | string | null;
  single_class_id: number;
  class_date: Date | string;
  duration_minutes: number;
  class_type: string;
  location_id: number;
  location: string;
  class_cancelled_at: Date | string | null;
  pending_pages: { title: string }[];
  alerts: string[];
}

type ViewKey = 'access_code' | 'class_reservation_id';

/** The view for one key, as a replica statement (planned once per replica, prepared.ts); $1 is the key. */
function viewStatement(key: ViewKey, name: string, type: string): ReplicaStatement {
  const aliased = Object.fromEntries(Object.entries(viewFields).map(([alias, field]) => [alias, sql`${field}`.as(alias)]));
  const statement = new QueryBuilder()
    .select(aliased)
    .from(class_reservation)
    .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(location, eq(location.location_id, single_class.location_id))
    .where(eq(class_reservation[key], sql.raw('$1')))
    .toSQL();
  if (statement.params.length !== 0) throw new Error('unexpected reservation view statement');
  return replicaStatement(name, [type], `${statement.sql} limit 1`);
}
const viewStatements: Record<ViewKey, ReplicaStatement> = {
  access_code: viewStatement('access_code', 'desk_reservation_view_by_code', 'text'),
  class_reservation_id: viewStatement('class_reservation_id', 'desk_reservation_view_by_id', 'integer'),
};

/**
 * Everything a scan plans once, done before the first scan of the day: the access code's index and the replica's
 * statements, the reservation view among them (the first scan after the desk opens no longer pays for them).
 */
export async function prepareScanPath(db: Db): Promise<void> {
  await ensureScanIndexes(db);
  await prepareReplicaStatements(db);
}

async function selectReservation(db: Db, key: ViewKey, value: string | number, settings: AppConfigMap): Promise<ReservationView | null> {
  await prepareReplicaStatements(db);
  const [row] = await executeStatement<ViewRow>(db, viewStatements[key], [typeof value === 'number' ? Math.trunc(value) : value]);
  if (!row) return null;
  // Timestamps arrive as the driver's text (the replica's drizzle parsers leave them to the columns).
  const at = (v: Date | string | null) => (v === null ? null : new Date(v));
  const classDate = new Date(row.class_date);
  const window = checkInWindow(classDate, row.duration_minutes, settings);
  return {
    class_reservation_id: row.class_reservation_id,
    customer_id: row.customer_id,
    name: row.name,
    last_name: row.last_name,
    email: row.email,
    guest: row.guest,
    spot: row.spot,
    is_cash: row.is_cash,
    is_paid: row.is_paid,
    attend: row.attend,
    single_class_id: row.single_class_id,
    duration_minutes: row.duration_minutes,
    class_type: row.class_type,
    location_id: row.location_id,
    location: row.location,
    alerts: row.alerts,
    hasPhoto: row.has_photo,
    pendingDocuments: row.pending_pages.map((d) => d.title),
    missingProfile: row.customer_deleted_at ? [] : missingProfileFields({ name: row.name, last_name: row.last_name, phone: row.phone, birthdate: row.birthdate }),
    attendedAt: iso(at(row.attended_at)),
    deletedAt: iso(at(row.deleted_at)),
    class_date: classDate.toISOString(),
    classCancelledAt: iso(at(row.class_cancelled_at)),
    checkInOpensAt: window.opensAt.toISOString(),
    checkInClosesAt: window.closesAt.toISOString(),
    timeZone: studioTimeZone(settings),
  };
}

/** A reservation with its customer and class, as the check-in screen shows it; null when the replica does not have it. */
export async function findReservation(db: Db, classReservationId: number): Promise<ReservationView | null> {
  return selectReservation(db, 'class_reservation_id', classReservationId, await replicaSettings(db));
}

/** The reasons to look twice at a reservation before letting the person in, most serious first. */
export function scanWarnings(r: ReservationView, now: Date): ScanWarning[] {
  // The server's own refusals (core's checkInRefusals), all of them, for the panel to list.
  const warnings: ScanWarning[] = checkInRefusals(
    {
      reservationCancelled: Boolean(r.deletedAt),
      classCancelled: Boolean(r.classCancelledAt),
      attended: r.attend,
      classDate: r.class_date,
      window: { opensAt: new Date(r.checkInOpensAt), closesAt: new Date(r.checkInClosesAt) },
      timeZone: r.timeZone,
    },
    now,
  );
  if (r.alerts?.length) warnings.push('customer-alert');
  if (r.is_cash && !r.is_paid) warnings.push('unpaid-cash');
  if (r.attend) warnings.push('already-attended');
  if (r.pendingDocuments?.length) warnings.push('documents-pending');
  if (r.missingProfile?.length) warnings.push('profile-incomplete');
  return warnings;
}

/**
 * A check-in would only be rejected by the server (decision: the desk does
 * not queue a mutation it knows is refused). Unpaid cash warns but admits:
 * the button to record the payment is on the same panel.
 */
const blocking: ReadonlySet<ScanWarning> = new Set(['reservation-cancelled', 'class-cancelled', 'wrong-day', 'too-early', 'too-late']);
export function blocksCheckIn(warnings: ScanWarning[]): boolean {
  return warnings.some((w) => blocking.has(w));
}

/** One line of the scan panel: the warning in Spanish, whether it refuses entry, and its colour. */
export interface ScanNotice {
  code: ScanWarning;
  text: string;
  blocks: boolean;
  tone: 'red' | 'yellow' | 'blue';
}


/** The warnings as the scan panel lists them. A new warning needs its code above, a line in scanWarnings, and its text here. */
export function scanNotices(r: ReservationView, warnings: ScanWarning[]): ScanNotice[] {
  const hhmm = (at: string) => localTimeHHmm(at, r.timeZone);
  const text: Record<ScanWarning, string> = {
    'reservation-cancelled': t.warningReservationCancelled,
    'class-cancelled': t.warningClassCancelled,
    'wrong-day': t.warningWrongDay,
    'too-early': t.warningTooEarly(hhmm(r.checkInOpensAt)),
    'too-late': t.warningTooLate(hhmm(r.checkInClosesAt)),
    'unpaid-cash': t.warningUnpaidCash,
    'already-attended': r.attendedAt ? t.outcomeAlreadyDetail(hhmm(r.attendedAt)) : t.warningAlreadyAttended,
    'documents-pending': texts.deskShift.warningDocumentsPending((r.pendingDocuments ?? []).join(', ')),
    'profile-incomplete': texts.deskShift.warningProfileIncomplete((r.missingProfile ?? []).map((f) => texts.deskShift.profileFieldNames[f]).join(', ')),
    'customer-alert': texts.customerNotes.scanAlert(r.alerts ?? []),
  };
  return warnings.map((code) => ({
    code,
    text: text[code],
    blocks: blocking.has(code),
    tone: blocking.has(code) ? 'red' : code === 'unpaid-cash' || code === 'documents-pending' || code === 'profile-incomplete' || code === 'customer-alert' ? 'yellow' : 'blue',
  }));
}

/**
 * The panel's verdict, one of three: 'admitted' (checked in now: green),
 * 'already' (checked in before today, at attendedAt: amber), 'refused' (a
 * blocking reason: red). A used code of another day is refused, not 'already'.
 */
export type ScanOutcome = 'admitted' | 'already' | 'refused';
export function scanOutcome(r: ReservationView, warnings: ScanWarning[], checkedIn: boolean): ScanOutcome {
  if (checkedIn) return 'admitted';
  if (blocksCheckIn(warnings)) return 'refused';
  return r.attend ? 'already' : 'refused';
}
