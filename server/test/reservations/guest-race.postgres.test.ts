import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { startRacingServer, type RacingServer } from '../support/helpers.ts';
import { createBookers, newClass } from '../support/reservations-fixtures.ts';

/**
 * Guests under a rush on PostgreSQL (decision 028): a guest takes a
 * place, a seat and — with guest_uses_credit on, as in the demo studio — one
 * more credit, all decided in the booking's transaction under decision 006's
 * locks. Only with TEST_DATABASE_URL (PGlite has one connection).
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('guest races on PostgreSQL', () => {
  let race: RacingServer;
  beforeAll(async () => {
    race = await startRacingServer();
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  const book = (token: string, body: Record<string, unknown>) => race.post<{ code?: string }>('/api/class_reservations', token, body);

  it('40 customers with a guest each, for 16 seats in colliding pairs: no seat twice, no place over capacity, two credits per winner', async () => {
    const classId = await newClass(race.db, { minutesAhead: 48 * 60, capacity: 16, classType: 'Indoor Cycling' });
    const bookers = await createBookers(race.db, race.secret, 40, { credits: 2, prefix: 'carrera-invitados' });
    // Customer i wants seats 2k+1 and 2k+2 (k = i mod 8), the guest the second: five people per pair of seats.
    const results = await Promise.all(
      bookers.map((b, i) => book(b.token, { single_class_id: classId, spot: (i % 8) * 2 + 1, guest: 'Invitada', guest_spot: (i % 8) * 2 + 2 })),
    );
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(8);
    for (const lost of results.filter((r) => r.status !== 200)) expect([409, 412]).toContain(lost.status);

    const live = await race.db.select().from(class_reservation).where(and(eq(class_reservation.single_class_id, classId), isNull(class_reservation.deletedAt)));
    const seats = live.flatMap((r) => [r.spot, r.guest_spot]);
    expect(new Set(seats).size).toBe(seats.length);
    expect(live.length * 2).toBeLessThanOrEqual(16);

    const winners = new Set(live.map((r) => r.customer_id));
    const credits = await race.db.select().from(available_classes).where(inArray(available_classes.customer_id, bookers.map((b) => b.customer_id)));
    for (const credit of credits) expect(credit.available_classes).toBe(winners.has(credit.customer_id) ? 0 : 2);
  });

  it('one customer with 3 credits sends 6 bookings with a guest at once: one booking, one credit left', async () => {
    const classIds = await Promise.all(Array.from({ length: 6 }, (_, i) => newClass(race.db, { minutesAhead: 48 * 60 + i * 60, capacity: 10, classType: 'Yoga' })));
    const [booker] = await createBookers(race.db, race.secret, 1, { credits: 3, prefix: 'carrera-invitado-credito' });
    if (!booker) throw new Error('no booker');
    const results = await Promise.all(classIds.map((id) => book(booker.token, { single_class_id: id, guest: 'Invitada' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 412 && r.body.code === 'booking/guest-no-credits')).toHaveLength(5);
    const [credit] = await race.db.select().from(available_classes).where(eq(available_classes.available_class_id, booker.available_class_id));
    expect(credit?.available_classes).toBe(1);
  });
});
