import { paymentKindText, toCsv, roleNames, studioDayRange, studioTimeZone, type ExportKind, type PaymentKind, type ReportRangeInput } from '@estudio/core';
import { and, asc, eq, gte, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { class_type, instructor, location } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { purchasesInRange } from '../purchases/purchases-in-range.ts';
import { payrollCsv } from './coach-pay.ts';

/**
 * The owner's exports (decision 034): customers, purchases, reservations and attendance of a range of studio dates,
 * as the studio's CSV files (core's toCsv), dates in the studio's zone as 'AAAA-MM-DD HH:mm'.
 */

const purchaseStatusText: Record<string, string> = {
  active: 'Activa',
  completed: 'Pagada',
  pending: 'Pendiente',
  failed: 'Fallida',
  cancelled: 'Cancelada',
  revoked: 'Revocada',
};
const roleText: Record<string, string> = roleNames;

export const exportFileNames: Record<ExportKind, string> = {
  customers: 'clientes',
  purchases: 'compras',
  reservations: 'reservaciones',
  attendance: 'asistencia',
  coach_pay: 'pago_coaches',
};

/** The CSV of one kind over a range of studio dates, with its file name. */
export async function exportCsv(db: Db, kind: ExportKind, range: ReportRangeInput): Promise<{ filename: string; content: string }> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const { from, to } = studioDayRange(range.start_date, range.end_date, tz);
  const local = (column: SQL | Parameters<typeof sql>[1]) => sql<string | null>`to_char(${column} at time zone ${tz}, 'YYYY-MM-DD HH24:MI')`;
  const filename = `${exportFileNames[kind]}_${range.start_date}_${range.end_date}.csv`;

  if (kind === 'customers') {
    const rows = await db
      .select({ id: customer.customer_id, name: customer.name, last_name: customer.last_name, email: customer.email, phone: customer.phone, role: customer.role, unlimited: customer.has_unlimited, at: local(customer.createdAt) })
      .from(customer)
      .where(and(isNull(customer.deletedAt), gte(customer.createdAt, from), lte(customer.createdAt, to)))
      .orderBy(asc(customer.createdAt), asc(customer.customer_id));
    return {
      filename,
      content: toCsv(
        ['ID cliente', 'Nombre', 'Apellidos', 'Correo', 'Teléfono', 'Rol', 'Membresía ilimitada', 'Alta'],
        rows.map((r) => [r.id, r.name, r.last_name, r.email, r.phone, roleText[r.role] ?? r.role, r.unlimited, r.at]),
      ),
    };
  }

  if (kind === 'purchases') {
    const rows = await purchasesInRange(db, { from, to }, { tz });
    return {
      filename,
      content: toCsv(
        ['ID compra', 'Fecha', 'ID cliente', 'Cliente', 'Correo', 'Paquete', 'Precio', 'Pagado', 'Forma de pago', 'Estado', 'Código de descuento', 'Reembolsado', 'Fecha de reembolso', 'Motivo'],
        rows.map((r) => [
          r.id,
          r.at,
          r.customer_id,
          r.who,
          r.email,
          r.title,
          r.amount,
          r.paid,
          // Meses sin intereses beside the card (decision 082).
          `${paymentKindText[r.method as PaymentKind] ?? r.method}${r.installments ? ` (${r.installments} meses sin intereses)` : ''}`,
          r.refund !== null ? 'Reembolsada' : (purchaseStatusText[r.status] ?? r.status),
          r.code,
          r.refund,
          r.refunded_at,
          r.reason,
        ]),
      ),
    };
  }

  const coaches = sql<string>`coalesce((select string_agg(i.name || ' ' || i.last_name, ' / ' order by i.name) from ${single_class_instructor} sci join ${instructor} i on i.instructor_id = sci.instructor_id where sci.single_class_id = ${single_class.single_class_id}), '')`;
  const inRange = and(gte(single_class.class_date, from), lte(single_class.class_date, to));

  if (kind === 'coach_pay') return { filename, content: await payrollCsv(db, range) };

  if (kind === 'reservations') {
    const rows = await db
      .select({
        id: class_reservation.class_reservation_id,
        at: local(single_class.class_date),
        type: class_type.name,
        place: location.name,
        coaches,
        customer_id: customer.customer_id,
        who: sql<string>`${customer.name} || ' ' || ${customer.last_name}`,
        email: customer.email,
        spot: class_reservation.spot,
        guest: class_reservation.guest,
        cancelled: sql<boolean>`${class_reservation.deletedAt} is not null or ${single_class.cancelledAt} is not null`,
        attend: class_reservation.attend,
        booked: local(class_reservation.createdAt),
      })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
      .innerJoin(location, eq(location.location_id, single_class.location_id))
      .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
      .where(inRange)
      .orderBy(asc(single_class.class_date), asc(class_reservation.class_reservation_id));
    return {
      filename,
      content: toCsv(
        ['ID reservación', 'Clase (fecha)', 'Clase', 'Ubicación', 'Coach', 'ID cliente', 'Cliente', 'Correo', 'Lugar', 'Invitado', 'Estado', 'Asistió', 'Reservada el'],
        rows.map((r) => [r.id, r.at, r.type, r.place, r.coaches, r.customer_id, r.who, r.email, r.spot, r.guest, r.cancelled ? 'Cancelada' : 'Activa', r.attend, r.booked]),
      ),
    };
  }

  const live = and(eq(class_reservation.single_class_id, single_class.single_class_id), isNull(class_reservation.deletedAt));
  const rows = await db
    .select({
      id: single_class.single_class_id,
      at: local(single_class.class_date),
      type: class_type.name,
      place: location.name,
      coaches,
      capacity: single_class.capacity,
      reservations: sql<number>`count(${class_reservation.class_reservation_id})::int`.mapWith(Number),
      guests: sql<number>`count(${class_reservation.guest})::int`.mapWith(Number),
      attended: sql<number>`(count(*) filter (where ${class_reservation.attend}))::int`.mapWith(Number),
      cancelled: sql<boolean>`${single_class.cancelledAt} is not null`,
    })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(location, eq(location.location_id, single_class.location_id))
    .leftJoin(class_reservation, live)
    .where(inRange)
    .groupBy(single_class.single_class_id, class_type.name, location.name)
    .orderBy(asc(single_class.class_date), asc(single_class.single_class_id));
  return {
    filename,
    content: toCsv(
      ['ID clase', 'Fecha', 'Clase', 'Ubicación', 'Coach', 'Capacidad', 'Reservaciones', 'Invitados', 'Asistencias', 'Ocupación %', 'Estado'],
      rows.map((r) => [
        r.id,
        r.at,
        r.type,
        r.place,
        r.coaches,
        r.capacity,
        r.reservations,
        r.guests,
        r.attended,
        r.capacity ? (Math.round((1000 * (r.reservations + r.guests)) / r.capacity) / 10).toFixed(1) : '0.0',
        r.cancelled ? 'Cancelada' : 'Activa',
      ]),
    ),
  };
}
