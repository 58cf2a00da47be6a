import { noticeExpiringCredits } from '../billing/expiring-credits.ts';
import type { ClockJob } from './job.ts';

/**
 * Credits about to expire (decision 024): once a day, at 10:00 on
 * the studio's clock, a notice for each credit row with classes left that
 * expires within credits_expiring_notice_days (0: off).
 */
export const creditsExpiringJob: ClockJob = {
  name: 'credits-expiring',
  schedule: { daily: () => ({ hour: 10, minute: 0 }) },
  run: (ctx, now) => noticeExpiringCredits({ db: ctx.db, messages: ctx.messages }, now),
};
