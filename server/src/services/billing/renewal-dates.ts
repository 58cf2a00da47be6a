import { addPeriod, trialEnd, type DateInput } from '@estudio/core';

export interface RenewingSubscription {
  createdAt: DateInput;
  free_trial_length: number | null;
  free_trial_period: string | null;
  subscription_interval: number | null;
  subscription_period: string | null;
}

/**
 * The k-th charge of a subscription (k ≥ 1), by the spec's rule that
 * nextChargeDate (core/rules/subscriptions.ts) shows in the portal: the end of
 * the free trial, then every interval × period after it; without a trial,
 * the creation date plus k × interval × period. Each date is counted from the
 * start, never from the previous one, so a month clamped to its last day
 * (31 Jan → 28 Feb) does not drag the following ones (→ 31 Mar).
 */
export function chargeDate(s: RenewingSubscription, k: number): Date {
  const interval = s.subscription_interval && s.subscription_interval > 0 ? s.subscription_interval : 1;
  const trial = trialEnd(s);
  return trial ? addPeriod(trial, interval * (k - 1), s.subscription_period) : addPeriod(s.createdAt, interval * k, s.subscription_period);
}

/** The cycle whose charge date is nearest to `at` (the paid-through date: a charge date, or within the first payment's seconds of one). */
export function cycleAt(s: RenewingSubscription, at: Date): number {
  let best = 1;
  let bestDiff = Number.POSITIVE_INFINITY;
  for (let k = 1; k < 100_000; k += 1) {
    const d = chargeDate(s, k).getTime();
    const diff = Math.abs(d - at.getTime());
    if (diff < bestDiff) {
      best = k;
      bestDiff = diff;
    }
    if (d > at.getTime()) break;
  }
  return best;
}

/** The first cycle after `k` whose charge date is still ahead of `now`: where a renewal paid now lasts until. */
export function nextCycleAfter(s: RenewingSubscription, k: number, now: Date): number {
  let m = k + 1;
  while (chargeDate(s, m).getTime() <= now.getTime() && m < k + 100_000) m += 1;
  return m;
}

/** subscription_retry_days ('1,3,5': days after the first failure), or the default when unreadable. */
export function retryDays(value: string | undefined): number[] {
  if (value === undefined) return [1, 3, 5];
  if (value.trim() === '') return [];
  const days = value.split(',').map((d) => Number(d.trim()));
  return days.every((d) => Number.isInteger(d) && d >= 1 && d <= 30) ? days : [1, 3, 5];
}
