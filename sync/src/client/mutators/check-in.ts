import { checkInRefusal, checkInWindow, deskActionTime, DomainError, refuse, studioTimeZone } from '@estudio/core';
import { class_reservation, single_class } from '@estudio/db';
import { eq } from 'drizzle-orm';
import type { Mutator } from './context.ts';

/** The server's checkIn (`server/src/services/desk/check-in.ts`) on the replica. */
export const checkIn: Mutator<'checkIn'> = async ({ tx, now, settings }, args) => {
  const at = deskActionTime(args.at, now);
  const [row] = await tx
    .select({ r: class_reservation, c: single_class })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  if (!row) throw new DomainError('reservation/not-found');
  refuse(
    checkInRefusal(
      {
        reservationCancelled: row.r.deletedAt !== null,
        classCancelled: row.c.cancelledAt !== null,
        attended: row.r.attend === true,
        classDate: row.c.class_date,
        window: checkInWindow(row.c.class_date, row.c.duration_minutes, settings),
        timeZone: studioTimeZone(settings),
      },
      at,
    ),
  );
  // Checking in twice keeps the first time.
  if (row.r.attend) return [];
  await tx
    .update(class_reservation)
    // A no-show the clock marked before this (offline) check-in arrived is cleared.
    .set({ attend: true, attendedAt: at, noShowAt: null, updatedAt: now })
    .where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  return ['class_reservation'];
};
