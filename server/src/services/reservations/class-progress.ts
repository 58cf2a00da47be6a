import { classProgress, studioTimeZone, type ClassProgress } from '@estudio/core';
import { and, eq, isNull, lte } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/**
 * The classes a customer has taken, counted on the studio's calendar (core's
 * classProgress): her bookings kept (not cancelled) in classes held (not
 * cancelled) that have started and that the desk did not mark a no-show.
 */
export async function customerClassProgress(db: Db, customerId: number, now = new Date()): Promise<ClassProgress> {
  const rows = await db
    .select({ class_date: single_class.class_date })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(
      and(
        eq(class_reservation.customer_id, customerId),
        isNull(class_reservation.deletedAt),
        isNull(class_reservation.noShowAt),
        isNull(single_class.cancelledAt),
        lte(single_class.class_date, now),
      ),
    );
  const timeZone = studioTimeZone(await loadStudioSettings(db));
  return classProgress(
    rows.map((r) => r.class_date),
    { now, timeZone },
  );
}
