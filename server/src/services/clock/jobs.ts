import { creditsExpiringJob } from './credits-expiring.ts';
import type { ClockJob } from './job.ts';
import { ownerSummaryJob } from './owner-summary.ts';
import { waitlistPromotionJob } from './waitlist-promotion.ts';
import { subscriptionRenewalsJob } from './subscription-renewals.ts';

/**
 * Every job of the studio's clock (issue 17, decision 021). Each job lives in
 * its own file; add it here with one line. Names are stored in scheduled_job:
 * renaming one starts it afresh (its watermark included).
 */
export const clockJobs: readonly ClockJob[] = [
  // booking side (clock)
  // waitlist and cancelled classes, owner's summary (helper C)
  waitlistPromotionJob,
  ownerSummaryJob,
  // billing (helper D)
  subscriptionRenewalsJob,
  creditsExpiringJob,
];
