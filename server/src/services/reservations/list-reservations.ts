import { reservationPageSize, type ReservationFilter, type ReservationWithClass } from '@estudio/core';
import { and, asc, count, desc, eq, gt, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadSingleClassOutputs, toPublicSingleClass } from '../schedule/single-class-output.ts';
import { toReservationOutput } from './reservation-output.ts';

export interface ReservationPage {
  total: number;
  class_reservations: ReservationWithClass[];
}

/** One page of reservations matching `where`, each with its class, in the given order. */
async function reservationPage(db: Db, where: SQL | undefined, orderBy: SQL[], page: number): Promise<ReservationPage> {
  // The total and the page are independent: sent together, one round trip.
  const [[totalRow], rows] = await Promise.all([
    db
      .select({ n: count() })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(where),
    db
      .select({ r: class_reservation })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(where)
      .orderBy(...orderBy, desc(class_reservation.class_reservation_id))
      .limit(reservationPageSize)
      .offset((page - 1) * reservationPageSize),
  ]);
  const classes = await loadSingleClassOutputs(db, rows.map((row) => row.r.single_class_id));
  const classBy = new Map(classes.map((c) => [c.single_class_id, toPublicSingleClass(c)]));
  return {
    total: Number(totalRow?.n ?? 0),
    class_reservations: rows.flatMap(({ r }) => {
      const single = classBy.get(r.single_class_id);
      return single ? [{ ...toReservationOutput(r), single_class: single }] : [];
    }),
  };
}

/**
 * The customer's own reservations, 50 per page. upcoming: live, class not
 * started, soonest first; past: live, class started, newest first;
 * cancelled: cancelled ones, newest class first; all: the classes ahead
 * first, soonest first (the next class at the top: Próximas read
 * from the farthest one), then the rest, newest first.
 */
export async function listMyReservations(
  db: Db,
  customerId: number,
  options: { filter: ReservationFilter; page: number; now?: Date },
): Promise<ReservationPage> {
  const now = options.now ?? new Date();
  const own = eq(class_reservation.customer_id, customerId);
  const live = isNull(class_reservation.deletedAt);
  switch (options.filter) {
    case 'upcoming':
      return reservationPage(db, and(own, live, gt(single_class.class_date, now)), [asc(single_class.class_date)], options.page);
    case 'past':
      return reservationPage(db, and(own, live, lte(single_class.class_date, now)), [desc(single_class.class_date)], options.page);
    case 'cancelled':
      return reservationPage(db, and(own, isNotNull(class_reservation.deletedAt)), [desc(single_class.class_date)], options.page);
    case 'all': {
      const ahead = sql`${single_class.class_date} > ${now.toISOString()}::timestamptz`;
      return reservationPage(db, own, [sql`${ahead} desc`, sql`case when ${ahead} then ${single_class.class_date} end asc`, desc(single_class.class_date)], options.page);
    }
  }
}
