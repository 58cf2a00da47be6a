import { renewDueSubscriptions } from '../billing/renewals.ts';
import type { ClockJob } from './job.ts';

/**
 * Sandbox subscriptions renew on their date (decision 024): every
 * few minutes, each active sandbox subscription whose paid period has ended
 * is charged with the customer's saved card, retried on the days of
 * subscription_retry_days, and cancelled after the last retry. With Stripe
 * as the card provider it does nothing: Stripe renews and retries its own,
 * and its webhooks send the same messages.
 */
export const subscriptionRenewalsJob: ClockJob = {
  name: 'subscription-renewals',
  schedule: { everyMs: 5 * 60_000 },
  run: (ctx, now) => renewDueSubscriptions({ db: ctx.db, config: ctx.config, messages: ctx.messages }, now),
};
