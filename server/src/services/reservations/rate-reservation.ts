import { DomainError, ratingRefusal } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { ReservationRow } from './reservation-output.ts';

export interface RateReservationInput {
  reservationId: number;
  customerId: number;
  class_stars: number;
  coach_stars: number;
  comment?: string | null | undefined;
  now?: Date;
}

/**
 * Rates the customer's own attended (Exitosa) reservation, once, when
 * reservation_rating_enabled is on. The write is conditional on class_stars
 * still being empty, so two tabs rating at once store one rating.
 */
export async function rateReservation(db: Db, input: RateReservationInput): Promise<ReservationRow> {
  const now = input.now ?? new Date();
  const [row] = await db
    .select({ r: class_reservation, class_date: single_class.class_date })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(and(eq(class_reservation.class_reservation_id, input.reservationId), eq(class_reservation.customer_id, input.customerId)));
  if (!row) throw new DomainError('reservation/not-found');
  const settings = await loadStudioSettings(db);
  const refusal = ratingRefusal({ ...row.r, class_date: row.class_date }, settings, now);
  if (refusal) throw new DomainError(refusal);
  const [rated] = await db
    .update(class_reservation)
    .set({
      class_stars: input.class_stars,
      coach_stars: input.coach_stars,
      comment: input.comment?.trim() || null,
      ratedAt: now,
      updatedAt: now,
    })
    .where(and(eq(class_reservation.class_reservation_id, input.reservationId), isNull(class_reservation.class_stars)))
    .returning();
  if (!rated) throw new DomainError('rating/already-rated');
  return rated;
}
