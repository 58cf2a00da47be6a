import { useCallback } from 'react';
import { trpc } from '../../api/trpc.ts';

/** After a booking, cancellation or waitlist change: everything that shows places, credits or reservations reloads. */
export function useInvalidateBooking(): () => Promise<void> {
  const utils = trpc.useUtils();
  return useCallback(async () => {
    await Promise.all([
      utils.schedule.invalidate(),
      utils.credits.invalidate(),
      utils.reservations.invalidate(),
      utils.waitlist.invalidate(),
      utils.standingBookings.invalidate(),
    ]);
  }, [utils]);
}
