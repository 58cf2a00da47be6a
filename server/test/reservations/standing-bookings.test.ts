import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, standing_booking } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { standingBookingsJob } from '../../src/services/clock/standing-bookings.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { outboxOf, silentLog } from '../support/clock-fixtures.ts';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { createBookers, newClass, withSettings } from '../support/reservations-fixtures.ts';

let server: TestServer;
let cliente: string;
demoStudio(['cliente'], (s) => ({ server, tokens: { cliente } } = s));

const day = 24 * 60;
let people = 0;
/** A customer of her own with `credits` class credits. */
const newCustomer = async (credits: number) => (await createBookers(server.db, server.config.AUTH_SECRET, 1, { credits, prefix: `semanal-${Date.now()}-${people++}` }))[0]!;
const withoutId = ({ single_class_id: _id, ...rest }: typeof single_class.$inferSelect) => rest;
let slots = 0;
/** A weekly class: the same discipline, location and hour `weeks` weeks apart, each call at an hour of its own. */
const weekly = async (weeks: number[], capacity = 5) => {
  const first = await newClass(server.db, { minutesAhead: 2 * day + 197 + 17 * slots++, capacity, classType: 'Barre' });
  const [c] = await server.db.select().from(single_class).where(eq(single_class.single_class_id, first));
  const ids = [first];
  for (const w of weeks) {
    const [row] = await server.db
      .insert(single_class)
      .values({ ...withoutId(c!), class_date: new Date(c!.class_date.getTime() + w * 7 * day * 60_000) })
      .returning({ id: single_class.single_class_id });
    ids.push(row!.id);
  }
  return ids;
};
/** Booking opens 10 days ahead: a slot's next two weeks are open. */
const opensTenDaysAhead = (body: () => Promise<void>) => withSettings(server.db, { reservation_opens_days: '10' }, body);
const runClock = (now = new Date()) =>
  standingBookingsJob.run({ db: server.db, config: server.config, messages: messageContextOf(server.config), log: silentLog }, now);
const liveBookings = async (customerId: number) =>
  server.db
    .select({ single_class_id: class_reservation.single_class_id })
    .from(class_reservation)
    .where(and(eq(class_reservation.customer_id, customerId), isNull(class_reservation.deletedAt)));

describe('"Reservar cada semana"', () => {
  it('books the slot’s weeks the studio has opened, each with a credit as any booking, and lists them', async () => {
    const ana = await newCustomer(5);
    const [thisWeek, nextWeek, inThreeWeeks] = await weekly([1, 3]);
    await withSettings(server.db, { reservation_opens_days: '10' }, async () => {
      const started = await call(server.app, 'POST', '/api/standing_bookings', { token: ana.token, body: { single_class_id: thisWeek } });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const place = started.body.standing_booking;
      expect(place).toMatchObject({ class_type_name: 'Barre', spot: null });
      expect(place.label).toMatch(/^(lunes|martes|miércoles|jueves|viernes|sábado|domingo) \d\d:\d\d$/);
      // Booking opens 10 days ahead: this week and the next are booked; the class in three weeks is not open yet.
      expect(place.weeks.map((w: { single_class_id: number; status: string }) => [w.single_class_id, w.status])).toEqual([
        [thisWeek, 'reservada'],
        [nextWeek, 'reservada'],
      ]);
      expect((await liveBookings(ana.customer_id)).map((r) => r.single_class_id).sort()).toEqual([thisWeek, nextWeek].sort());
      const [credit] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, ana.available_class_id));
      expect(credit!.available_classes).toBe(3);

      // Asking again for the same slot answers the same place and books nothing twice.
      const again = await call(server.app, 'POST', '/api/standing_bookings', { token: ana.token, body: { single_class_id: nextWeek } });
      expect(again.body.standing_booking.standing_booking_id).toBe(place.standing_booking_id);
      expect(await liveBookings(ana.customer_id)).toHaveLength(2);

      // Three weeks later, once the class opens, the clock books it.
      const later = new Date(Date.now() + 14 * day * 60_000);
      await runClock(later);
      expect(await liveBookings(ana.customer_id)).toHaveLength(3);
      expect((await liveBookings(ana.customer_id)).map((r) => r.single_class_id)).toContain(inThreeWeeks);
    });
  });

  it('never books again a week the customer cancelled, and stops when she ends it (what was booked stays)', () => opensTenDaysAhead(async () => {
    const bea = await newCustomer(5);
    const [first, second] = await weekly([1]);
    const started = await call(server.app, 'POST', '/api/standing_bookings', { token: bea.token, body: { single_class_id: first } });
    expect(started.status).toBe(200);
    const [booking] = await server.db
      .select({ id: class_reservation.class_reservation_id })
      .from(class_reservation)
      .where(and(eq(class_reservation.customer_id, bea.customer_id), eq(class_reservation.single_class_id, first!)));
    const cancelled = await call(server.app, 'POST', `/api/class_reservations/${booking!.id}/cancel`, { token: bea.token });
    expect(cancelled.status).toBe(200);
    await runClock();
    await runClock();
    expect((await liveBookings(bea.customer_id)).map((r) => r.single_class_id)).toEqual([second]);
    const listed = await call(server.app, 'GET', '/api/standing_bookings', { token: bea.token });
    expect(listed.body.standing_bookings[0].weeks.map((w: { status: string }) => w.status)).toEqual(['cancelada', 'reservada']);

    const id = started.body.standing_booking.standing_booking_id;
    expect((await call(server.app, 'DELETE', `/api/standing_bookings/${id}`, { token: bea.token })).status).toBe(200);
    expect((await call(server.app, 'GET', '/api/standing_bookings', { token: bea.token })).body.standing_bookings).toEqual([]);
    expect((await liveBookings(bea.customer_id)).map((r) => r.single_class_id)).toEqual([second]);
    // Ended once: a second end, like another customer's place, is a 404 in Spanish.
    const twice = await call(server.app, 'DELETE', `/api/standing_bookings/${id}`, { token: bea.token });
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe('No encontramos esta reservación semanal.');
  }));

  it('a week the booking service refuses is told once with its reason, and booked once the customer can', () => opensTenDaysAhead(async () => {
    const eva = await newCustomer(1);
    const [first, second] = await weekly([1]);
    const started = await call(server.app, 'POST', '/api/standing_bookings', { token: eva.token, body: { single_class_id: first } });
    // One credit: the first week is booked, the second refused with the spec's message, and not messaged by the portal's answer.
    expect(started.body.standing_booking.weeks).toMatchObject([
      { single_class_id: first, status: 'reservada' },
      { single_class_id: second, status: 'no-reservada', reason: 'Lo sentimos. Has agotado todos tus créditos para reservar Clases Presenciales...' },
    ]);
    const id = started.body.standing_booking.standing_booking_id;
    expect(await outboxOf(server.db, `standing-missed:${id}:${second}`)).toEqual([]);

    // The clock tells her once, however often it runs.
    await runClock();
    await runClock();
    const told = await outboxOf(server.db, `standing-missed:${id}:${second}`);
    expect(told.filter((m) => m.channel === 'email')).toHaveLength(1);
    expect(told[0]).toMatchObject({ kind: 'standing-booking-missed', subject: 'No pudimos reservar tu Barre de cada semana' });

    // She buys more classes: the next run books the week.
    await server.db.update(available_classes).set({ available_classes: 2 }).where(eq(available_classes.available_class_id, eva.available_class_id));
    await runClock();
    expect((await liveBookings(eva.customer_id)).map((r) => r.single_class_id).sort()).toEqual([first, second].sort());
  }));

  it('a full week is not over capacity: the standing place is refused like any booking', async () => {
    const [full] = await weekly([], 1);
    const [other, ivan] = await createBookers(server.db, server.config.AUTH_SECRET, 2, { credits: 3, prefix: `semanal-lleno-${Date.now()}` });
    expect((await call(server.app, 'POST', '/api/class_reservations', { token: other!.token, body: { single_class_id: full } })).status).toBe(200);
    // Ivan asks for the slot of the full class (it is one that is next week for him).
    const started = await call(server.app, 'POST', '/api/standing_bookings', { token: ivan!.token, body: { single_class_id: full } });
    expect(started.body.standing_booking.weeks).toMatchObject([{ single_class_id: full, status: 'no-reservada', reason: 'Lo sentimos, esta clase ya está llena.' }]);
    const holders = await server.db.select().from(class_reservation).where(and(eq(class_reservation.single_class_id, full!), isNull(class_reservation.deletedAt)));
    expect(holders.map((r) => r.customer_id)).toEqual([other!.customer_id]);
  });

  it('refuses a special class, a class that is over, and a class that does not exist, in Spanish; her places are hers alone', async () => {
    const past = await newClass(server.db, { minutesAhead: -60, capacity: 5, classType: 'Barre' });
    const [aPackage] = await server.db.select({ id: class_package.class_package_id }).from(class_package).limit(1);
    const special = await newClass(server.db, { minutesAhead: 3 * day, capacity: 5, classType: 'Barre', classPackageId: aPackage!.id });
    const once = await call(server.app, 'POST', '/api/standing_bookings', { token: cliente, body: { single_class_id: special } });
    expect(once.status).toBe(412);
    expect(once.body.message).toBe('Las clases especiales no se repiten: resérvala como una clase sola.');
    const over = await call(server.app, 'POST', '/api/standing_bookings', { token: cliente, body: { single_class_id: past } });
    expect(over.status).toBe(412);
    expect(over.body.message).toBe('Esta clase ya pasó o fue cancelada; elige una próxima clase para reservarla cada semana.');
    const missing = await call(server.app, 'POST', '/api/standing_bookings', { token: cliente, body: { single_class_id: 99_999_999 } });
    expect(missing.status).toBe(404);
    const unknown = await call(server.app, 'POST', '/api/standing_bookings', { token: cliente, body: { single_class_id: past, semanas: 4 } });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('semanas');

    const zoe = await newCustomer(2);
    const [mine] = await weekly([]);
    const started = await call(server.app, 'POST', '/api/standing_bookings', { token: zoe.token, body: { single_class_id: mine } });
    const id = started.body.standing_booking.standing_booking_id;
    const stolen = await call(server.app, 'DELETE', `/api/standing_bookings/${id}`, { token: cliente });
    expect(stolen.status).toBe(404);
    const [still] = await server.db.select().from(standing_booking).where(eq(standing_booking.standing_booking_id, id));
    expect(still!.endedAt).toBeNull();
    expect((await call(server.app, 'GET', '/api/standing_bookings')).status).toBe(401);
  });
});
