import { DomainError, reservationPageSize, studioDayRange, studioTimeZone, type AdminReservationOutput, type ReservationStatus } from '@estudio/core';
import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { toReservationOutput, type ReservationRow } from '../reservations/reservation-output.ts';
import { loadSingleClassOutputs, toPublicSingleClass } from '../schedule/single-class-output.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

export interface AdminReservationSearch {
  single_class_id?: number | undefined;
  customer_id?: number | undefined;
  /** Local dates in the studio's zone, inclusive. */
  start_date?: string | undefined;
  end_date?: string | undefined;
  include_cancelled?: 'true' | 'false' | undefined;
  status?: ReservationStatus | undefined;
  page: number;
}

const customerSummary = {
  customer_id: customer.customer_id,
  name: customer.name,
  last_name: customer.last_name,
  email: customer.email,
  phone: customer.phone,
  instagram: customer.instagram,
  birthdate: customer.birthdate,
};

/** Each reservation with its class and who booked it, in a fixed number of queries. */
async function withClassAndCustomer(db: Db, rows: ReservationRow[]): Promise<AdminReservationOutput[]> {
  if (rows.length === 0) return [];
  const [classes, people] = await Promise.all([
    loadSingleClassOutputs(db, rows.map((r) => r.single_class_id)),
    db.select(customerSummary).from(customer).where(inArray(customer.customer_id, [...new Set(rows.map((r) => r.customer_id))])),
  ]);
  const classBy = new Map(classes.map((c) => [c.single_class_id, toPublicSingleClass(c)]));
  const customerBy = new Map(people.map((p) => [p.customer_id, p]));
  return rows.flatMap((r) => {
    const single = classBy.get(r.single_class_id);
    const who = customerBy.get(r.customer_id);
    return single && who ? [{ ...toReservationOutput(r), single_class: single, customer: who }] : [];
  });
}

function statusWhere(status: ReservationStatus | undefined, includeCancelled: boolean, now: Date): SQL | undefined {
  const ended = sql`${single_class.class_date} + ${single_class.duration_minutes} * interval '1 minute' <= ${now.toISOString()}::timestamptz`;
  switch (status ?? (includeCancelled ? 'all' : 'live')) {
    case 'all':
      return undefined;
    case 'live':
      return isNull(class_reservation.deletedAt);
    case 'cancelled':
      return isNotNull(class_reservation.deletedAt);
    case 'attended':
      return and(isNull(class_reservation.deletedAt), eq(class_reservation.attend, true));
    case 'no_show':
      return and(isNull(class_reservation.deletedAt), eq(class_reservation.attend, false), isNull(single_class.cancelledAt), ended);
  }
}

/**
 * GET /api/class_reservations: reservations by class, customer, local date
 * range and status (live — the default —, cancelled, attended, no_show or
 * all; include_cancelled=true still means all), newest class first, 50 per
 * page, each with its class and customer. The router pins customer_id for a customer.
 */
export async function searchReservationsWithCustomer(
  db: Db,
  filters: AdminReservationSearch,
  now: Date = new Date(),
): Promise<{ total: number; class_reservations: AdminReservationOutput[] }> {
  const where: (SQL | undefined)[] = [statusWhere(filters.status, filters.include_cancelled === 'true', now)];
  if (filters.single_class_id !== undefined) where.push(eq(class_reservation.single_class_id, filters.single_class_id));
  if (filters.customer_id !== undefined) where.push(eq(class_reservation.customer_id, filters.customer_id));
  if (filters.start_date || filters.end_date) {
    const tz = studioTimeZone(await loadStudioSettings(db));
    const { from, to } = studioDayRange(filters.start_date ?? filters.end_date ?? '', filters.end_date ?? filters.start_date ?? '', tz);
    if (filters.start_date) where.push(gte(single_class.class_date, from));
    if (filters.end_date) where.push(lte(single_class.class_date, to));
  }
  const condition = and(...where);
  const [total] = await db
    .select({ n: count() })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(condition);
  const rows = await db
    .select({ r: class_reservation })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(condition)
    .orderBy(desc(single_class.class_date), desc(class_reservation.class_reservation_id))
    .limit(reservationPageSize)
    .offset((filters.page - 1) * reservationPageSize);
  return { total: Number(total?.n ?? 0), class_reservations: await withClassAndCustomer(db, rows.map((row) => row.r)) };
}

/** One reservation with its class and customer (the QR link's page for staff). Throws reservation/not-found. */
export async function getReservationWithCustomer(db: Db, id: number): Promise<AdminReservationOutput> {
  const [row] = await db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
  const [found] = row ? await withClassAndCustomer(db, [row]) : [];
  if (!found) throw new DomainError('reservation/not-found');
  return found;
}
