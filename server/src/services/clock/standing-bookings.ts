import { bookStandingWeeks } from '../standing/book-standing-weeks.ts';
import type { ClockJob } from './job.ts';

/**
 * Every minute: the weeks of the customers' standing places ("Reservar cada
 * semana", decision 105) that opened for booking are booked through the
 * booking service; a refused week is told to the customer once and tried again.
 */
export const standingBookingsJob: ClockJob = {
  name: 'standing-bookings',
  schedule: { everyMs: 60_000 },
  async run(ctx, now) {
    const done = await bookStandingWeeks(ctx.db, { now, messages: ctx.messages });
    if (done.booked > 0 || done.messages > 0) ctx.log.info({ job: 'standing-bookings', booked: done.booked, refused: done.refused, messages: done.messages }, 'standing bookings');
    return done.booked + done.messages;
  },
};
