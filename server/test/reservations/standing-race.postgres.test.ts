import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, standing_booking } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { bookStandingWeeks } from '../../src/services/standing/book-standing-weeks.ts';
import { startRacingServer, type RacingServer } from '../support/helpers.ts';
import { createBookers, newClass } from '../support/reservations-fixtures.ts';
import type { Config } from '../../src/config.ts';

/**
 * "Reservar cada semana" under a rush on PostgreSQL (decision 105): taps of
 * the same slot at once and the clock's run beside them make one place, and
 * each week is booked once with one credit. Only with TEST_DATABASE_URL.
 */
const url = process.env.TEST_DATABASE_URL;
const withoutId = ({ single_class_id: _id, ...rest }: typeof single_class.$inferSelect) => rest;

describe.skipIf(!url)('standing places on PostgreSQL', () => {
  let race: RacingServer & { config: Config };
  beforeAll(async () => {
    race = await startRacingServer();
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  it('10 taps of "Reservar cada semana" and 3 clock runs at once: one place, each week booked once, one credit a week', async () => {
    const first = await newClass(race.db, { minutesAhead: 2 * 24 * 60 + 211, capacity: 10, classType: 'Barre' });
    const [c] = await race.db.select().from(single_class).where(eq(single_class.single_class_id, first));
    // The same class a week later is past the week the clock books ahead (booking opens as soon as a class exists).
    await race.db.insert(single_class).values({ ...withoutId(c!), class_date: new Date(c!.class_date.getTime() + 7 * 24 * 3_600_000) });
    const [booker] = await createBookers(race.db, race.secret, 1, { credits: 5, prefix: `carrera-semanal-${Date.now()}` });
    const ctx = messageContextOf(race.config);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => race.post('/api/standing_bookings', booker!.token, { single_class_id: first })),
      ...Array.from({ length: 3 }, () => bookStandingWeeks(race.db, { now: new Date(), messages: ctx }).then(() => ({ status: 200 }))),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(13).fill(200));

    const places = await race.db.select().from(standing_booking).where(eq(standing_booking.customer_id, booker!.customer_id));
    expect(places).toHaveLength(1);
    const live = await race.db
      .select({ single_class_id: class_reservation.single_class_id })
      .from(class_reservation)
      .where(and(eq(class_reservation.customer_id, booker!.customer_id), isNull(class_reservation.deletedAt)));
    expect(live).toHaveLength(1);
    expect(live[0]!.single_class_id).toBe(first);
    const [credit] = await race.db.select().from(available_classes).where(eq(available_classes.available_class_id, booker!.available_class_id));
    expect(credit!.available_classes).toBe(4);
  });
});
