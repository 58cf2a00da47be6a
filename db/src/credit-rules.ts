import { and, eq, gt, isNull, or, type SQL } from 'drizzle-orm';
import { available_classes } from './schema/purchases.ts';

/**
 * A credit that can still pay for a class at `at`: not removed, not expired by
 * then, with classes left or unlimited. One condition for the server and the
 * desk's replica (the card's balance, the walk-in, the waitlist's flag), so a
 * desk never offers what the server will refuse. `at` is now for a balance and
 * the class's start for a booking.
 */
export function usableCredit(at: Date | SQL): SQL {
  return and(
    isNull(available_classes.deletedAt),
    or(isNull(available_classes.expiration_date), gt(available_classes.expiration_date, at)),
    or(gt(available_classes.available_classes, 0), eq(available_classes.available_classes, -1)),
  ) as SQL;
}
