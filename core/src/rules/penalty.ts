import { isOn, type AppConfigMap } from '../appconfig.ts';
import { texts } from '../texts.ts';
import { formatDate, studioDayjs, studioTimeZone, toMs, type DateInput } from './time.ts';

export type PenaltyConfig = Pick<
  AppConfigMap,
  'unlimited_membership_penalties_enabled' | 'unlimited_max_no_shows_for_penalty' | 'unlimited_penalty_days' | 'timezone'
>;

/**
 * Leading no-shows of a customer's past reservations, newest first: the run
 * of consecutive classes they missed, ending at the first one they attended.
 * The caller passes live reservations of classes that have ended, since the
 * customer's last penalty.
 */
export function consecutiveNoShows(pastReservationsNewestFirst: readonly { attend: boolean }[]): number {
  let count = 0;
  for (const r of pastReservationsNewestFirst) {
    if (r.attend) break;
    count++;
  }
  return count;
}

/**
 * No-shows that trigger a penalty: the customer's own value wins over the
 * setting. Null when penalties are off (setting disabled, or a threshold of 0).
 */
export function penaltyThreshold(
  customer: { unlimited_max_no_shows_for_penalty: number | null },
  config: Pick<PenaltyConfig, 'unlimited_membership_penalties_enabled' | 'unlimited_max_no_shows_for_penalty'>,
): number | null {
  if (!isOn(config.unlimited_membership_penalties_enabled)) return null;
  const value = customer.unlimited_max_no_shows_for_penalty ?? Number(config.unlimited_max_no_shows_for_penalty);
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : null;
}

export interface PenaltyLike {
  start_date: DateInput;
  end_date: DateInput;
  deletedAt?: DateInput | null;
}

/** The penalty blocking the customer now (the one that ends last), or null. */
export function activePenalty<T extends PenaltyLike>(penalties: readonly T[], now: DateInput): T | null {
  const t = toMs(now);
  let active: T | null = null;
  for (const p of penalties) {
    if (p.deletedAt || toMs(p.start_date) > t || toMs(p.end_date) <= t) continue;
    if (!active || toMs(p.end_date) > toMs(active.end_date)) active = p;
  }
  return active;
}

/** When a penalty starting at `start` ends: unlimited_penalty_days later on the studio's calendar. */
export function penaltyEndDate(start: DateInput, config: Pick<PenaltyConfig, 'unlimited_penalty_days' | 'timezone'>): Date {
  const n = Number(config.unlimited_penalty_days);
  const days = Number.isFinite(n) && n > 0 ? n : 1;
  return studioDayjs(start, studioTimeZone(config)).add(days, 'day').toDate();
}

/** The explanation under the penalty message: the no-shows and the date booking resumes. */
export function penaltyDetailText(penalty: { no_shows: number; end_date: DateInput }, tz: string): string {
  return texts.booking.penaltyDetail(penalty.no_shows, formatDate(penalty.end_date, tz));
}
