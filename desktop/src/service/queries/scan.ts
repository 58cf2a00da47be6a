import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@estudio/db';
import { class_reservation, class_type, customer, location, single_class } from '@estudio/db';
import { checkInRefusals, checkInWindow, DomainError, localTimeHHmm, readScannedCode, studioTimeZone, texts, type AppConfigMap, type RequiredProfileField } from '@estudio/core';
import { iso, replicaSettings } from '../time.ts';
import { counterWarnings } from './counter-warnings.ts';
import { notesShownAtScan } from './customer-notes.ts';

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
}

/**
 * Which reservation a scanned or typed code names (decision 016).
 * Only a reservation's random access code admits: an old sequential link, a
 * bare folio or another site's link is refused with its own Spanish reason.
 * A QR link's id must be the code's reservation.
 */
export async function resolveScannedCode(db: Db, text: string): Promise<number> {
  await ensureScanIndexes(db);
  const scanned = readScannedCode(text);
  if (scanned.kind === 'old-code') throw new DomainError('desk/code-outdated');
  if (scanned.kind === 'not-a-code') throw new DomainError('desk/code-not-recognised');
  const [row] = await db
    .select({ id: class_reservation.class_reservation_id })
    .from(class_reservation)
    .where(eq(class_reservation.access_code, scanned.code))
    .limit(1);
  if (!row || (scanned.reservationId !== null && scanned.reservationId !== row.id)) throw new DomainError('desk/code-unknown');
  return row.id;
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

async function selectReservation(db: Db, where: SQL, settings: AppConfigMap): Promise<ReservationView | null> {
  const [row] = await db
    .select({
      class_reservation_id: class_reservation.class_reservation_id,
      customer_id: class_reservation.customer_id,
      name: customer.name,
      last_name: customer.last_name,
      email: customer.email,
      guest: class_reservation.guest,
      spot: class_reservation.spot,
      is_cash: class_reservation.is_cash,
      is_paid: class_reservation.is_paid,
      attend: class_reservation.attend,
      attendedAt: class_reservation.attendedAt,
      deletedAt: class_reservation.deletedAt,
      single_class_id: single_class.single_class_id,
      class_date: single_class.class_date,
      duration_minutes: single_class.duration_minutes,
      class_type: class_type.name,
      location_id: location.location_id,
      location: location.name,
      classCancelledAt: single_class.cancelledAt,
    })
    .from(class_reservation)
    .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(location, eq(location.location_id, single_class.location_id))
    .where(where)
    .limit(1);
  if (!row) return null;
  const window = checkInWindow(row.class_date, row.duration_minutes, settings);
  const counter = await counterWarnings(db, row.customer_id);
  const notes = await notesShownAtScan(db, row.customer_id);
  return {
    ...row,
    alerts: notes.alerts,
    pendingDocuments: counter.pendingDocuments.map((d) => d.title),
    missingProfile: counter.missingProfile,
    attendedAt: iso(row.attendedAt),
    deletedAt: iso(row.deletedAt),
    class_date: row.class_date.toISOString(),
    classCancelledAt: iso(row.classCancelledAt),
    checkInOpensAt: window.opensAt.toISOString(),
    checkInClosesAt: window.closesAt.toISOString(),
    timeZone: studioTimeZone(settings),
  };
}

/** A reservation with its customer and class, as the check-in screen shows it; null when the replica does not have it. */
export async function findReservation(db: Db, classReservationId: number): Promise<ReservationView | null> {
  return selectReservation(db, eq(class_reservation.class_reservation_id, classReservationId), await replicaSettings(db));
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
