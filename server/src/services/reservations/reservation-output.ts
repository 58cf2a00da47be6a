import type { ReservationOutput } from '@estudio/core';
import { class_reservation } from '@estudio/db/schema/reservations';

export type ReservationRow = typeof class_reservation.$inferSelect;

/** The spec's class_reservation fields, timestamps as ISO strings. */
export function toReservationOutput(r: ReservationRow): ReservationOutput {
  return {
    class_reservation_id: r.class_reservation_id,
    single_class_id: r.single_class_id,
    customer_id: r.customer_id,
    available_class_id: r.available_class_id,
    spot: r.spot,
    guest: r.guest,
    guest_spot: r.guest_spot,
    guest_available_class_id: r.guest_available_class_id,
    attend: r.attend,
    is_cash: r.is_cash,
    is_paid: r.is_paid,
    class_stars: r.class_stars,
    coach_stars: r.coach_stars,
    comment: r.comment,
    credit_returned: r.credit_returned,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    deletedAt: r.deletedAt?.toISOString() ?? null,
    access_code: r.access_code,
  };
}
