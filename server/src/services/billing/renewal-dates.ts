/**
 * A subscription's charge dates are core's (chargeDate, cycleAt,
 * nextCycleAfter in core/rules/subscriptions.ts): the same rule the portal,
 * the desk and the receipts show as the next charge (decision 030).
 */
export { chargeDate, cycleAt, nextCycleAfter } from '@estudio/core';

/** subscription_retry_days ('1,3,5': days after the first failure), or the default when unreadable. */
export function retryDays(value: string | undefined): number[] {
  if (value === undefined) return [1, 3, 5];
  if (value.trim() === '') return [];
  const days = value.split(',').map((d) => Number(d.trim()));
  return days.every((d) => Number.isInteger(d) && d >= 1 && d <= 30) ? days : [1, 3, 5];
}
