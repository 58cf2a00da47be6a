import { toMs, type DateInput } from './time.ts';

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
}

/** End of the free trial (createdAt + length × period, days unless set), or null without one. */
export function trialEnd(s: Pick<SubscriptionLike, 'createdAt' | 'free_trial_length' | 'free_trial_period'>): Date | null {
  if (!s.free_trial_length || s.free_trial_length <= 0) return null;
  return addPeriod(s.createdAt, s.free_trial_length, s.free_trial_period ?? 'day');
}

/**
 * Spec §4: only status 'active' has a next charge. It is the end of the free
 * trial if still in the future; otherwise the creation date plus
 * subscription_interval × subscription_period — advanced cycle by cycle until
 * it lies after `now`, so a long-running subscription shows its coming charge.
 */
export function nextChargeDate(s: SubscriptionLike, now: DateInput = new Date()): Date | null {
  if (s.status !== 'active' || !s.subscription_period || s.is_subscription === false) return null;
  const nowMs = toMs(now);
  const trial = trialEnd(s);
  if (trial && trial.getTime() > nowMs) return trial;
  const interval = s.subscription_interval && s.subscription_interval > 0 ? s.subscription_interval : 1;
  const start = trial ?? new Date(toMs(s.createdAt));
  let cycles = 1;
  let next = addPeriod(start, interval, s.subscription_period);
  while (next.getTime() <= nowMs && cycles < 10_000) {
    cycles += 1;
    next = addPeriod(start, interval * cycles, s.subscription_period);
  }
  return next;
}

/** Stripe's trial_period_days for a trial of `length` × `period`. */
export function trialDays(length: number | null | undefined, period: string | null | undefined, from: DateInput = new Date()): number {
  if (!length || length <= 0) return 0;
  const end = addPeriod(from, length, period ?? 'day');
  return Math.round((end.getTime() - toMs(from)) / 86_400_000);
}
