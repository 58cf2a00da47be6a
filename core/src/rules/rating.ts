import { isOn, type AppConfigMap } from '../appconfig.ts';
import { reservationDisplayStatus, type ReservationStatusFields } from './reservation-status.ts';
import type { DateInput } from './time.ts';

export type RatingConfig = Pick<AppConfigMap, 'reservation_rating_enabled'>;
export type RatableReservation = ReservationStatusFields & { class_stars: number | null };

/** Why a reservation cannot be rated now, or null when it can. */
export function ratingRefusal(
  r: RatableReservation,
  config: RatingConfig,
  now: DateInput,
): 'rating/disabled' | 'rating/already-rated' | 'rating/not-attended' | null {
  if (!isOn(config.reservation_rating_enabled)) return 'rating/disabled';
  if (r.class_stars != null) return 'rating/already-rated';
  if (reservationDisplayStatus(r, now) !== 'attended') return 'rating/not-attended';
  return null;
}

/** Spec: rating is offered only for an Exitosa reservation, when reservation_rating_enabled is on, once. */
export function canRate(r: RatableReservation, config: RatingConfig, now: DateInput): boolean {
  return ratingRefusal(r, config, now) === null;
}
