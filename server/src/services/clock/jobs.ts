import { bookingConfirmationsJob } from './booking-confirmations.ts';
import { cfdiGlobalJob, cfdiSenderJob, voucherRenewalsJob } from './cfdi-jobs.ts';
import { classRemindersJob } from './class-reminders.ts';
import { creditsExpiringJob } from './credits-expiring.ts';
import { expireHoldsJob } from './expire-holds.ts';
import type { ClockJob } from './job.ts';
import { noShowsJob } from './no-shows.ts';
import { ownerSummaryJob } from './owner-summary.ts';
import { standingBookingsJob } from './standing-bookings.ts';
import { subscriptionRenewalsJob } from './subscription-renewals.ts';
import { waitlistPromotionJob } from './waitlist-promotion.ts';

/**
 * Every job of the studio's clock (decision 021). Each job lives in
 * its own file; add it here with one line. Names are stored in scheduled_job:
 * renaming one starts it afresh (its watermark included).
 */
export const clockJobs: readonly ClockJob[] = [
  // bookings: confirmations, reminders, no-shows, lapsed holds
  bookingConfirmationsJob,
  classRemindersJob,
  noShowsJob,
  expireHoldsJob,
  // each week's class of the customers' standing places
  standingBookingsJob,
  // waitlist places, the owner's summary
  waitlistPromotionJob,
  ownerSummaryJob,
  // billing: renewals and dunning, expiring credits
  subscriptionRenewalsJob,
  creditsExpiringJob,
  // Mexico's money: renewals by OXXO voucher or SPEI transfer, CFDI invoices and the global invoice
  voucherRenewalsJob,
  cfdiSenderJob,
  cfdiGlobalJob,
];
