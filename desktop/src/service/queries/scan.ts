import { eq } from 'drizzle-orm';
import type { Db } from '@estudio/db';
import { class_reservation, class_type, customer, location, single_class } from '@estudio/db';
import { DomainError } from '@estudio/core';
import { iso, studioDate } from '../time.ts';

/**
 * What a scanner (or staff) typed: the portal's 'Código de Acceso' link
 * `<origin>/admin/reservaciones/<id>` or a bare folio. Scanners add stray
 * whitespace and some keyboard layouts turn '/' into other characters, so
 * only the trailing number after 'reservaciones' matters.
 */
export function parseReservationCode(code: string): number {
  const text = code.trim();
  const folio = /^#?(\d{1,9})$/.exec(text) ?? /reservaciones\D{0,3}(\d{1,9})\D*$/i.exec(text);
  const id = folio ? Number(folio[1]) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw new DomainError('desk/code-not-recognised');
  return id;
}

export type ScanWarning = 'wrong-day' | 'reservation-cancelled' | 'class-cancelled' | 'unpaid-cash' | 'already-attended';

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
  class_type: string;
  location_id: number;
  location: string;
  classCancelledAt: string | null;
}

/** A reservation with its customer and class, as the check-in screen shows it; null when the replica does not have it. */
export async function findReservation(db: Db, classReservationId: number): Promise<ReservationView | null> {
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
    .where(eq(class_reservation.class_reservation_id, classReservationId))
    .limit(1);
  if (!row) return null;
  return {
    ...row,
    attendedAt: iso(row.attendedAt),
    deletedAt: iso(row.deletedAt),
    class_date: row.class_date.toISOString(),
    classCancelledAt: iso(row.classCancelledAt),
  };
}

/** The reasons to look twice at a reservation before letting the person in, most serious first. */
export function scanWarnings(r: ReservationView, now: Date): ScanWarning[] {
  const warnings: ScanWarning[] = [];
  if (r.deletedAt) warnings.push('reservation-cancelled');
  if (r.classCancelledAt) warnings.push('class-cancelled');
  if (studioDate(new Date(r.class_date)) !== studioDate(now)) warnings.push('wrong-day');
  if (r.is_cash && !r.is_paid) warnings.push('unpaid-cash');
  if (r.attend) warnings.push('already-attended');
  return warnings;
}

/** A check-in would only be rejected by the server (decision: the desk does not queue a mutation it knows is refused). */
export function blocksCheckIn(warnings: ScanWarning[]): boolean {
  return warnings.some((w) => w === 'reservation-cancelled' || w === 'class-cancelled' || w === 'wrong-day');
}
