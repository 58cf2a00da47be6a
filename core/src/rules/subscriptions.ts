import dayjs from 'dayjs';
import { defaultStudioTimeZone, studioDayjs, toMs, type DateInput } from './time.ts';

export type Period = 'day' | 'week' | 'month' | 'year';

/** date + n × period, keeping the day of month (clamped to the month's last day). */
export function addPeriod(date: DateInput, n: number, period: Period | string | null | undefined): Date {
  const d = new Date(toMs(date));
  switch (period) {
    case 'week':
      return new Date(d.getTime() + n * 7 * 86_400_000);
    case 'month':
    case 'year': {
      const months = period === 'year' ? n * 12 : n;
      const day = d.getUTCDate();
      const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
      const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
      target.setUTCDate(Math.min(day, lastDay));
      return target;
    }
    default:
      return new Date(d.getTime() + n * 86_400_000);
  }
}

export interface SubscriptionLike {
  status: string;
  createdAt: DateInput;
  free_trial_length?: number | null;
  free_trial_period?: string | null;
  subscription_interval?: number | null;
  subscription_period?: string | null;
  is_subscription?: boolean;
  /**
   * The end of the period already paid (the purchase's expiration_date): the
   * provider's own next charge date, Stripe's invoice period end or the one
   * the sandbox renewal recorded.
   */
  paid_through?: DateInput | null;
}

type ChargeSchedule = Pick<SubscriptionLike, 'createdAt' | 'free_trial_length' | 'free_trial_period' | 'subscription_interval' | 'subscription_period'>;

/**
 * date + n × period on the studio's wall clock: the same local time, and for
 * months and years the same local day of the month, clamped to the month's
 * last day (31 Jan + 1 month = 28 Feb, or 29 in a leap year). Days are
 * calendar days, so a daylight-saving change keeps the hour.
 */
export function addStudioPeriod(date: DateInput, n: number, period: Period | string | null | undefined, tz: string): Date {
  const local = studioDayjs(date, tz);
  const time = local.format('HH:mm:ss.SSS');
  if (period === 'month' || period === 'year') {
    const months = local.year() * 12 + local.month() + (period === 'year' ? n * 12 : n);
    const firstOfMonth = dayjs.utc(Date.UTC(Math.floor(months / 12), ((months % 12) + 12) % 12, 1));
    const day = Math.min(local.date(), firstOfMonth.daysInMonth());
    return dayjs.tz(`${firstOfMonth.date(day).format('YYYY-MM-DD')} ${time}`, tz).toDate();
  }
  const days = period === 'week' ? n * 7 : n;
  return dayjs.tz(`${dayjs.utc(local.format('YYYY-MM-DD')).add(days, 'day').format('YYYY-MM-DD')} ${time}`, tz).toDate();
}

/** End of the free trial (createdAt + length × period, days unless set, on the studio's clock), or null without one. */
export function trialEnd(s: Pick<SubscriptionLike, 'createdAt' | 'free_trial_length' | 'free_trial_period'>, tz: string = defaultStudioTimeZone): Date | null {
  if (!s.free_trial_length || s.free_trial_length <= 0) return null;
  return addStudioPeriod(s.createdAt, s.free_trial_length, s.free_trial_period ?? 'day', tz);
}

/**
 * The k-th charge of a subscription (k ≥ 1), the spec's rule: the creation
 * date plus k × subscription_interval × subscription_period; with a free
 * trial, its end and then every interval after it (the trial moves the day
 * of the month, as Stripe does). Each date is counted from that start, never
 * from the previous charge, so a month clamped to its last day (31 Jan →
 * 28 Feb) does not drag the following ones (→ 31 Mar). Days of the month are
 * the studio's: a purchase at 20:00 on 30 January in Mexico City (already the
 * 31st in UTC) is next charged on 28 February.
 */
export function chargeDate(s: ChargeSchedule, k: number, tz: string): Date {
  const interval = s.subscription_interval && s.subscription_interval > 0 ? s.subscription_interval : 1;
  const trial = trialEnd(s, tz);
  return trial ? addStudioPeriod(trial, interval * (k - 1), s.subscription_period, tz) : addStudioPeriod(s.createdAt, interval * k, s.subscription_period, tz);
}

/** The first cycle after `k` whose charge date is still ahead of `now`. */
export function nextCycleAfter(s: ChargeSchedule, k: number, now: DateInput, tz: string): number {
  const nowMs = toMs(now);
  let m = k + 1;
  while (chargeDate(s, m, tz).getTime() <= nowMs && m < k + 100_000) m += 1;
  return m;
}

/** The cycle whose charge date is nearest to `at` (a paid-through date: a charge date, or within the first payment's seconds of one). */
export function cycleAt(s: ChargeSchedule, at: DateInput, tz: string): number {
  const atMs = toMs(at);
  let best = 1;
  let bestDiff = Number.POSITIVE_INFINITY;
  for (let k = 1; k < 100_000; k += 1) {
    const d = chargeDate(s, k, tz).getTime();
    const diff = Math.abs(d - atMs);
    if (diff < bestDiff) {
      best = k;
      bestDiff = diff;
    }
    if (d > atMs) break;
  }
  return best;
}

/**
 * The date every screen and message shows as the next charge (Sig. Cargo,
 * Siguiente Cargo, the receipt's line), decision 030. Only an active
 * subscription has one. It is the provider's own date when we have it (the
 * end of the period already paid, `paid_through`, still ahead of now: the
 * day the renewal job or Stripe charges); otherwise the spec's rule, the
 * first charge date after now (chargeDate: the trial's end while it lasts).
 */
export function nextChargeDate(s: SubscriptionLike, now: DateInput, tz: string): Date | null {
  if (s.status !== 'active' || !s.subscription_period || s.is_subscription === false) return null;
  const nowMs = toMs(now);
  if (s.paid_through !== null && s.paid_through !== undefined && toMs(s.paid_through) > nowMs) return new Date(toMs(s.paid_through));
  return chargeDate(s, nextCycleAfter(s, 0, nowMs, tz), tz);
}

/** Stripe's trial_period_days for a trial of `length` × `period`. */
export function trialDays(length: number | null | undefined, period: string | null | undefined, from: DateInput = new Date()): number {
  if (!length || length <= 0) return 0;
  const end = addPeriod(from, length, period ?? 'day');
  return Math.round((end.getTime() - toMs(from)) / 86_400_000);
}

/**
 * The days of access a package grants when staff give or sell it at the desk:
 * the days typed, else the package's own, else one period of a subscription
 * (nothing renews it there); null when none of them says (no end).
 */
export function deskAccessDays(
  pkg: { expiration_days: number | null; is_subscription: boolean; subscription_interval: number | null; subscription_period: string | null },
  typedDays: number | null,
  now: Date,
): number | null {
  const periodDays =
    pkg.is_subscription && pkg.subscription_period
      ? Math.round((addPeriod(now, pkg.subscription_interval ?? 1, pkg.subscription_period).getTime() - now.getTime()) / 86_400_000)
      : null;
  return typedDays ?? pkg.expiration_days ?? periodDays;
}

/** Units wanted of each product in a cart, a product named twice counted together, in the cart's order. */
export function unitsByProduct(lines: readonly { product_id: number; quantity: number }[]): Map<number, number> {
  const units = new Map<number, number>();
  for (const line of lines) units.set(line.product_id, (units.get(line.product_id) ?? 0) + line.quantity);
  return units;
}
