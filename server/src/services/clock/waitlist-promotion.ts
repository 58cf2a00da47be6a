import { runWaitlistPromotion } from '../waitlist/promote-waitlist.ts';
import type { ClockJob } from './job.ts';

/**
 * Every 30 s: automatic promotion from the waitlists while it applies, and the
 * notify-all of freed places nobody was told of yet (decision 023). Returns
 * the customers booked plus the messages queued.
 */
export const waitlistPromotionJob: ClockJob = {
  name: 'waitlist-promotion',
  schedule: { everyMs: 30_000 },
  async run(ctx, now) {
    const done = await runWaitlistPromotion(ctx.db, ctx.messages, now);
    if (done.promoted > 0 || done.messages > 0) ctx.log.info({ job: 'waitlist-promotion', ...done }, 'waitlist promotion');
    return done.promoted + done.messages;
  },
};
