import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { startRacingServer, type RacingServer } from '../support/helpers.ts';
import { createBookers, newClass } from '../support/reservations-fixtures.ts';

/**
 * Concurrency of booking on PostgreSQL: the real server on a loopback port,
 * a 20-connection pool, and every request fired at once with fetch. PGlite has
 * one connection and cannot race, so these run only with TEST_DATABASE_URL.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('booking races on PostgreSQL', () => {
  let race: RacingServer;
  beforeAll(async () => {
    race = await startRacingServer();
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  const book = (token: string, body: Record<string, unknown>) => race.post<{ code?: string }>('/api/class_reservations', token, body);

  const liveReservations = (classIds: number[]) =>
    race.db
      .select()
      .from(class_reservation)
      .where(and(inArray(class_reservation.single_class_id, classIds), isNull(class_reservation.deletedAt)));

  it('200 customers at once for 20 places: exactly 20 reservations, every loser keeps their credit', async () => {
    const classId = await newClass(race.db, { minutesAhead: 48 * 60, capacity: 20, classType: 'Yoga' });
    const bookers = await createBookers(race.db, race.secret, 200, { prefix: 'carrera-lugares' });
    const results = await Promise.all(bookers.map((b) => book(b.token, { single_class_id: classId })));

    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(20);
    expect(results.filter((r) => r.status === 412 && r.body.code === 'booking/class-full')).toHaveLength(180);
    const live = await liveReservations([classId]);
    expect(live).toHaveLength(20);

    const winners = new Set(live.map((r) => r.customer_id));
    const credits = await race.db
      .select()
      .from(available_classes)
      .where(inArray(available_classes.customer_id, bookers.map((b) => b.customer_id)));
    for (const credit of credits) expect(credit.available_classes).toBe(winners.has(credit.customer_id) ? 0 : 1);
  });

  it('one customer sends 20 bookings at once with 1 credit: one reservation, credit 0', async () => {
    const classIds = await Promise.all(Array.from({ length: 20 }, (_, i) => newClass(race.db, { minutesAhead: 48 * 60 + i * 60, capacity: 10, classType: 'Yoga' })));
    const [booker] = await createBookers(race.db, race.secret, 1, { prefix: 'carrera-credito' });
    if (!booker) throw new Error('no booker');
    const results = await Promise.all(classIds.map((id) => book(booker.token, { single_class_id: id })));

    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 412 && r.body.code === 'booking/no-credits')).toHaveLength(19);
    expect(await liveReservations(classIds)).toHaveLength(1);
    const [credit] = await race.db.select().from(available_classes).where(eq(available_classes.available_class_id, booker.available_class_id));
    expect(credit?.available_classes).toBe(0);
  });

  it('one customer sends the same booking 20 times at once: one reservation', async () => {
    const classId = await newClass(race.db, { minutesAhead: 72 * 60, capacity: 10, classType: 'Yoga' });
    const [booker] = await createBookers(race.db, race.secret, 1, { prefix: 'carrera-doble', credits: 5 });
    if (!booker) throw new Error('no booker');
    const results = await Promise.all(Array.from({ length: 20 }, () => book(booker.token, { single_class_id: classId })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'booking/already-booked')).toHaveLength(19);
    const [credit] = await race.db.select().from(available_classes).where(eq(available_classes.available_class_id, booker.available_class_id));
    expect(credit?.available_classes).toBe(4);
  });

  it('cancellations and bookings of the same customers at once: no deadlock, no lost credit, never over capacity', async () => {
    const classA = await newClass(race.db, { minutesAhead: 120 * 60, capacity: 30, classType: 'Yoga' });
    const classB = await newClass(race.db, { minutesAhead: 121 * 60, capacity: 15, classType: 'Yoga' });
    const holders = await createBookers(race.db, race.secret, 30, { prefix: 'carrera-mixta-a', credits: 3 });
    for (const h of holders) expect((await book(h.token, { single_class_id: classA })).status).toBe(200);
    const newcomers = await createBookers(race.db, race.secret, 30, { prefix: 'carrera-mixta-b', credits: 1 });
    const reservationOf = new Map(
      (await liveReservations([classA])).map((r) => [r.customer_id, r.class_reservation_id] as const),
    );
    const cancelA = (h: (typeof holders)[number]) =>
      race.post(`/api/class_reservations/${reservationOf.get(h.customer_id)}/cancel`, h.token, {});
    // Every holder cancels A and books B at the same moment, while newcomers book A and B.
    const results = await Promise.all([
      ...holders.flatMap((h) => [cancelA(h), book(h.token, { single_class_id: classB })]),
      ...newcomers.flatMap((n, i) => [book(n.token, { single_class_id: i % 2 ? classA : classB })]),
    ]);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect((await liveReservations([classA])).length).toBeLessThanOrEqual(30);
    expect((await liveReservations([classB])).length).toBeLessThanOrEqual(15);
    // Credits add up: what each customer holds plus what their live bookings took is what they were given.
    const everyone = [...holders.map((h) => ({ ...h, given: 3 })), ...newcomers.map((n) => ({ ...n, given: 1 }))];
    const credits = await race.db.select().from(available_classes).where(inArray(available_classes.customer_id, everyone.map((e) => e.customer_id)));
    const live = await liveReservations([classA, classB]);
    for (const e of everyone) {
      const left = credits.find((c) => c.customer_id === e.customer_id)?.available_classes ?? -99;
      const taken = live.filter((r) => r.customer_id === e.customer_id).length;
      expect(left + taken).toBe(e.given);
    }
  });

  it('two customers racing for one seat: one holder, the other a 409, every time', async () => {
    const rounds = 10;
    const classIds = await Promise.all(
      Array.from({ length: rounds }, (_, i) => newClass(race.db, { minutesAhead: 96 * 60 + i * 60, capacity: 16, classType: 'Indoor Cycling' })),
    );
    const pair = await createBookers(race.db, race.secret, 2, { prefix: 'carrera-lugar', credits: rounds });
    const results = await Promise.all(classIds.flatMap((id) => pair.map((b) => book(b.token, { single_class_id: id, spot: 7 }))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(rounds);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'booking/spot-taken')).toHaveLength(rounds);
    const live = await liveReservations(classIds);
    expect(live).toHaveLength(rounds);
    expect(new Set(live.map((r) => r.single_class_id)).size).toBe(rounds);
  });
});
