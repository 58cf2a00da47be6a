import {
  activePenalty,
  consecutiveNoShows,
  penaltyEndDate,
  penaltyThreshold,
  type AppConfigMap,
} from '@estudio/core';
import { and, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, class_reservation_penalty } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Tx } from '@estudio/db';
import type { CustomerRow } from './booking-locks.ts';

export type PenaltyRow = typeof class_reservation_penalty.$inferSelect;

/**
 * The penalty that blocks an unlimited member now, creating it first when
 * their consecutive no-shows reached the threshold. Counted: live
 * reservations paid with an unlimited credit, of classes that have ended,
 * since the start of the customer's last penalty (the no-shows that caused
 * it are not counted twice). Run under the customer's lock, so two bookings
 * cannot create two penalties.
 */
export async function unlimitedPenalty(
  tx: Tx,
  customer: Pick<CustomerRow, 'customer_id' | 'unlimited_max_no_shows_for_penalty'>,
  settings: AppConfigMap,
  now: Date,
): Promise<{ penalty: PenaltyRow; created: boolean } | null> {
  const penalties = await tx
    .select()
    .from(class_reservation_penalty)
    .where(and(eq(class_reservation_penalty.customer_id, customer.customer_id), isNull(class_reservation_penalty.deletedAt)))
    .orderBy(desc(class_reservation_penalty.start_date));
  const active = activePenalty(penalties, now);
  if (active) return { penalty: active, created: false };

  const threshold = penaltyThreshold(customer, settings);
  if (threshold === null) return null;
  const since = penalties[0]?.start_date;
  const recent = await tx
    .select({ attend: class_reservation.attend })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .innerJoin(available_classes, eq(available_classes.available_class_id, class_reservation.available_class_id))
    .where(
      and(
        eq(class_reservation.customer_id, customer.customer_id),
        isNull(class_reservation.deletedAt),
        isNull(single_class.cancelledAt),
        eq(available_classes.available_classes, -1),
        lte(sql`${single_class.class_date} + make_interval(mins => ${single_class.duration_minutes})`, sql`${now.toISOString()}::timestamptz`),
        since ? gt(single_class.class_date, since) : undefined,
      ),
    )
    .orderBy(desc(single_class.class_date))
    .limit(threshold);
  const noShows = consecutiveNoShows(recent);
  if (noShows < threshold) return null;
  const [created] = await tx
    .insert(class_reservation_penalty)
    .values({
      customer_id: customer.customer_id,
      start_date: now,
      end_date: penaltyEndDate(now, settings),
      no_shows: noShows,
      reason: `${noShows} inasistencias consecutivas con membresía ilimitada`,
    })
    .returning();
  if (!created) throw new Error('penalty insert returned no row');
  return { penalty: created, created: true };
}
