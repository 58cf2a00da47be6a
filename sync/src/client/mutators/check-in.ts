import { checkInRefusal, checkInWindow, deskActionTime, DomainError, refuse, studioTimeZone } from '@estudio/core';
import { executeStatement, replicaStatement } from '../prepared.ts';
import type { Mutator } from './context.ts';

// A scan waits for both statements: prepared (prepared.ts), and the read takes only what the rule reads.
const readForCheckIn = replicaStatement(
  'desk_check_in_read',
  ['integer'],
  `select r.attend, r.deleted_at, c.class_date, c.duration_minutes, c.cancelled_at
     from class_reservation r join single_class c on c.single_class_id = r.single_class_id
    where r.class_reservation_id = $1`,
);
// A no-show the clock marked before this (offline) check-in arrived is cleared.
const markAttended = replicaStatement(
  'desk_check_in_write',
  ['integer', 'timestamptz', 'timestamptz'],
  `update class_reservation set attend = true, attended_at = $2, no_show_at = null, updated_at = $3 where class_reservation_id = $1`,
);

interface CheckInRow {
  attend: boolean | null;
  deleted_at: string | null;
  class_date: string;
  duration_minutes: number;
  cancelled_at: string | null;
}

/** The server's checkIn (`server/src/services/desk/check-in.ts`) on the replica. */
export const checkIn: Mutator<'checkIn'> = async ({ tx, now, settings }, args) => {
  const at = deskActionTime(args.at, now);
  const [row] = await executeStatement<CheckInRow>(tx, readForCheckIn, [args.class_reservation_id]);
  if (!row) throw new DomainError('reservation/not-found');
  // Timestamps arrive as the driver's text from a raw statement.
  const classDate = new Date(row.class_date);
  refuse(
    checkInRefusal(
      {
        reservationCancelled: row.deleted_at !== null,
        classCancelled: row.cancelled_at !== null,
        attended: row.attend === true,
        classDate,
        window: checkInWindow(classDate, row.duration_minutes, settings),
        timeZone: studioTimeZone(settings),
      },
      at,
    ),
  );
  // Checking in twice keeps the first time.
  if (row.attend) return [];
  await executeStatement(tx, markAttended, [args.class_reservation_id, at, now]);
  return ['class_reservation'];
};
