import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { localDate, localTimeHHmm, studioDayRange, weekOf, type SingleClassOutput } from '@estudio/core';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../src/db.ts';
import { loadSingleClassOutputs } from '../../src/services/schedule/single-class-output.ts';
import { customerId, newClass, withSettings } from '../support/reservations-fixtures.ts';
import { call, countingStatements, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

const tz = 'America/Mexico_City';

let server: TestServer;
let cliente: string;
let ilimitado: string;
demoStudio(['cliente', 'ilimitado'], (s) => ({ server, tokens: { cliente, ilimitado } } = s));

async function schedule(query: string, token?: string): Promise<SingleClassOutput[]> {
  const res = await call(server.app, 'GET', `/api/single_class?${query}`, token ? { token } : {});
  expect(res.status, res.raw).toBe(200);
  return res.body.single_classes as SingleClassOutput[];
}

const weekQuery = (week: { start_date: string; end_date: string }) => `start_date=${week.start_date}&end_date=${week.end_date}`;

/** Mariana's live reservation in a class that has not started (the seed books her one). */
async function clienteUpcoming(db: Db) {
  const id = await customerId(db, 'cliente@estudio.demo');
  const [row] = await db
    .select({ class_reservation_id: class_reservation.class_reservation_id, single_class_id: single_class.single_class_id, class_date: single_class.class_date, spot: class_reservation.spot })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(and(eq(class_reservation.customer_id, id), isNull(class_reservation.deletedAt), gt(single_class.class_date, new Date())))
    // Her Indoor Cycling seat of the coming days, not today's desk demo class (which may be full).
    .orderBy(desc(single_class.class_date))
    .limit(1);
  if (!row) throw new Error('the seed gives cliente an upcoming reservation');
  return row;
}

/** Places and seats of a class counted straight from its reservations. */
async function placesOf(db: Db, classId: number) {
  const rows = await db
    .select({ guest: class_reservation.guest, spot: class_reservation.spot })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, classId), isNull(class_reservation.deletedAt)));
  return {
    places: rows.reduce((n, r) => n + (r.guest ? 2 : 1), 0),
    spots: rows.flatMap((r) => (r.spot === null ? [] : [r.spot])).sort((a, b) => a - b),
  };
}

describe('GET /api/single_class', () => {
  it("shows this week's classes, Monday to Sunday in the studio's zone, with coaches, type, place, tags and places taken", async () => {
    const week = weekOf(new Date(), tz);
    const classes = await schedule(weekQuery(week));
    expect(classes.length).toBeGreaterThan(10);
    const days = classes.map((c) => localDate(c.class_date, tz));
    expect(days.every((d) => d >= week.start_date && d <= week.end_date)).toBe(true);
    expect(new Set(days).size).toBe(7);
    expect(classes.map((c) => c.class_date)).toEqual([...classes.map((c) => c.class_date)].sort());

    for (const c of classes) {
      expect(c.class_type.class_type_id).toBe(c.class_type_id);
      expect(c.location.location_id).toBe(c.location_id);
      expect(c.class_instructors.length).toBeGreaterThan(0);
      expect(c.class_reservations).toEqual([]);
      expect(c.waitlist_id).toBeNull();
      const counted = await placesOf(server.db, c.single_class_id);
      expect(c.reservation_count).toBe(counted.places);
      expect(c.taken_spots).toEqual(counted.spots);
    }
    expect(classes.some((c) => c.tags.length > 0)).toBe(true);
    expect(classes.some((c) => c.class_type.spot_map === '4,6,6' && c.taken_spots.length > 0)).toBe(true);
    expect(classes.some((c) => c.reservation_count >= c.capacity)).toBe(true);
    const withPhoto = classes.flatMap((c) => c.class_instructors).find((i) => i.file);
    expect(withPhoto?.file?.src).toBeTruthy();
  });

  it('shows Mariana her own reservation and seat; nobody else sees it as theirs', async () => {
    const mine = await clienteUpcoming(server.db);
    const query = weekQuery(weekOf(mine.class_date, tz));

    const hers = (await schedule(query, cliente)).find((c) => c.single_class_id === mine.single_class_id);
    expect(hers?.class_reservations).toEqual([{ class_reservation_id: mine.class_reservation_id, spot: mine.spot, guest: null, guest_spot: null }]);
    expect(hers?.taken_spots).toContain(mine.spot);

    const visitor = await schedule(query);
    expect(visitor.every((c) => c.class_reservations.length === 0 && c.waitlist_id === null)).toBe(true);
    const other = (await schedule(query, ilimitado)).find((c) => c.single_class_id === mine.single_class_id);
    expect(other?.class_reservations).toEqual([]);
    // The seat is taken for everyone; who took it is not said.
    expect(other?.taken_spots).toContain(mine.spot);
  });

  it('filters by location, class type and coach', async () => {
    const week = weekOf(new Date(), tz);
    const all = await schedule(weekQuery(week));
    const first = all[0] as SingleClassOutput;

    const here = await schedule(`${weekQuery(week)}&location_id=${first.location_id}`);
    expect(here.length).toBeGreaterThan(0);
    expect(here.length).toBeLessThan(all.length);
    expect(here.every((c) => c.location_id === first.location_id)).toBe(true);

    const ofType = await schedule(`${weekQuery(week)}&class_type_id=${first.class_type_id}`);
    expect(ofType.every((c) => c.class_type_id === first.class_type_id)).toBe(true);
    expect(ofType.length).toBe(all.filter((c) => c.class_type_id === first.class_type_id).length);

    const coach = first.class_instructors[0]?.instructor_id as number;
    const withCoach = await schedule(`${weekQuery(week)}&instructor_id=${coach}`);
    expect(withCoach.length).toBe(all.filter((c) => c.class_instructors.some((i) => i.instructor_id === coach)).length);
    // A class with two coaches keeps both on the card when filtered by one.
    expect(withCoach.every((c) => c.class_instructors.some((i) => i.instructor_id === coach))).toBe(true);
  });

  it('puts a class at 23:30 local time on its local day, not on the next UTC day', async () => {
    const day = weekOf(new Date(Date.now() + 21 * 86_400_000), tz).start_date;
    const { from } = studioDayRange(day, day, tz);
    const lateNight = new Date(from.getTime() + (23 * 60 + 30) * 60_000);
    const id = await newClass(server.db, { minutesAhead: 60, capacity: 10 });
    await server.db.update(single_class).set({ class_date: lateNight }).where(eq(single_class.single_class_id, id));
    expect(localTimeHHmm(lateNight, tz)).toBe('23:30');
    expect(localDate(lateNight, tz)).toBe(day);

    const sameDay = await schedule(`start_date=${day}&end_date=${day}`);
    expect(sameDay.map((c) => c.single_class_id)).toContain(id);
    const nextDay = localDate(new Date(from.getTime() + 36 * 3_600_000), tz);
    const next = await schedule(`start_date=${nextDay}&end_date=${nextDay}`);
    expect(next.map((c) => c.single_class_id)).not.toContain(id);
  });

  it('keeps a cancelled class in the list with cancelledAt set', async () => {
    const id = await newClass(server.db, { minutesAhead: 3 * 24 * 60, capacity: 10 });
    const cancelledAt = new Date();
    await server.db.update(single_class).set({ cancelledAt }).where(eq(single_class.single_class_id, id));
    const day = localDate(new Date(Date.now() + 3 * 86_400_000), tz);
    const found = (await schedule(`start_date=${day}&end_date=${day}`)).find((c) => c.single_class_id === id);
    expect(found?.cancelledAt).toBe(cancelledAt.toISOString());
  });

  it('answers 400 with a Spanish message naming the field for a bad range', async () => {
    const reversed = await call(server.app, 'GET', '/api/single_class?start_date=2026-03-10&end_date=2026-03-01');
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ code: 'validation', field: 'end_date' });
    expect(reversed.body.message).toBe('Revisa el campo end_date: La fecha final debe ser posterior a la inicial.');

    const malformed = await call(server.app, 'GET', '/api/single_class?start_date=10-03-2026&end_date=2026-03-12');
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe('start_date');
    expect(malformed.body.message).toContain('AAAA-MM-DD');

    const tooLong = await call(server.app, 'GET', '/api/single_class?start_date=2026-01-01&end_date=2026-06-01');
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toContain('62 días');

    const missing = await call(server.app, 'GET', '/api/single_class');
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('start_date');
  });

  it('treats a missing token as a visitor but a bad one as a 401', async () => {
    const week = weekQuery(weekOf(new Date(), tz));
    const bad = await call(server.app, 'GET', `/api/single_class?${week}`, { token: 'no-es-un-token' });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toMatch(/^auth\//);
  });

  it('builds any number of classes in the same number of queries', async () => {
    const me = await customerId(server.db, 'cliente@estudio.demo');
    const ids = (await server.db.select({ id: single_class.single_class_id }).from(single_class)).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(40);
    const one = countingStatements(server.db);
    await loadSingleClassOutputs(one.db, ids.slice(0, 1), me);
    const many = countingStatements(server.db);
    const built = await loadSingleClassOutputs(many.db, ids, me);
    expect(built).toHaveLength(ids.length);
    expect(many.counter.statements).toBe(one.counter.statements);
    // The classes, their places, coaches and tags; the caller's reservations, waitlist entries and packages.
    expect(one.counter.statements).toBe(7);
  });
});

describe('GET /api/single_class/single/{id}', () => {
  it('answers one class, with her reservation when signed in; 404 for an unknown class', async () => {
    const mine = await clienteUpcoming(server.db);
    const res = await call(server.app, 'GET', `/api/single_class/single/${mine.single_class_id}`, { token: cliente });
    expect(res.status).toBe(200);
    expect(res.body.single_class.single_class_id).toBe(mine.single_class_id);
    expect(res.body.single_class.class_reservations).toHaveLength(1);

    const visitor = await call(server.app, 'GET', `/api/single_class/single/${mine.single_class_id}`);
    expect(visitor.body.single_class.class_reservations).toEqual([]);

    const missing = await call(server.app, 'GET', '/api/single_class/single/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'class/not-found', message: 'Lo sentimos, no encontramos esta clase.' });
  });
});

describe('GET /api/locations', () => {
  it('lists every location, and with a range only those with classes in it', async () => {
    const all = await call(server.app, 'GET', '/api/locations');
    expect(all.status).toBe(200);
    expect((all.body.locations as { name: string }[]).map((l) => l.name)).toEqual(['Roma Norte', 'Coyoacán']);

    const week = weekOf(new Date(), tz);
    for (let k = 0; k < 7; k++) {
      const day = localDate(new Date(studioDayRange(week.start_date, week.start_date, tz).from.getTime() + (k * 24 + 12) * 3_600_000), tz);
      const classes = await schedule(`start_date=${day}&end_date=${day}`);
      const res = await call(server.app, 'GET', `/api/locations?start_date=${day}&end_date=${day}`);
      const ids = (res.body.locations as { location_id: number }[]).map((l) => l.location_id).sort();
      expect(ids).toEqual([...new Set(classes.map((c) => c.location_id))].sort());
    }

    const empty = await call(server.app, 'GET', '/api/locations?start_date=2001-01-01&end_date=2001-01-07');
    expect(empty.body.locations).toEqual([]);
    const half = await call(server.app, 'GET', '/api/locations?start_date=2026-01-01');
    expect(half.status).toBe(400);
    expect(half.body.field).toBe('end_date');
  });
});

describe('PUT /api/single_class/guest', () => {
  it("Mariana names a guest on her reservation ('Nombre actualizado.'), the guest takes a place, and she renames them", async () => {
    const mine = await clienteUpcoming(server.db);
    const before = await placesOf(server.db, mine.single_class_id);
    const added = await call(server.app, 'PUT', '/api/single_class/guest', {
      token: cliente,
      body: { class_reservation_id: mine.class_reservation_id, name: '  Ana Torres ' },
    });
    expect(added.status, added.raw).toBe(200);
    expect(added.body.class_reservation).toMatchObject({ class_reservation_id: mine.class_reservation_id, guest: 'Ana Torres' });
    expect((await placesOf(server.db, mine.single_class_id)).places).toBe(before.places + 1);

    const renamed = await call(server.app, 'PUT', '/api/single_class/guest', {
      token: cliente,
      body: { class_reservation_id: mine.class_reservation_id, name: 'Ana Torres Vega' },
    });
    expect(renamed.body.class_reservation.guest).toBe('Ana Torres Vega');
    expect((await placesOf(server.db, mine.single_class_id)).places).toBe(before.places + 1);

    const short = await call(server.app, 'PUT', '/api/single_class/guest', { token: cliente, body: { class_reservation_id: mine.class_reservation_id, name: 'A' } });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Revisa el campo name: Debes ingresar un nombre para tu invitado');
  });

  it("answers 404 for another customer's reservation and 401 to a visitor", async () => {
    const mine = await clienteUpcoming(server.db);
    const other = await call(server.app, 'PUT', '/api/single_class/guest', { token: ilimitado, body: { class_reservation_id: mine.class_reservation_id, name: 'Intrusa' } });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('reservation/not-found');
    const visitor = await call(server.app, 'PUT', '/api/single_class/guest', { body: { class_reservation_id: mine.class_reservation_id, name: 'Nadie' } });
    expect(visitor.status).toBe(401);
  });

  it('refuses a new guest when allow_class_guests is off, or when the class has no place left', async () => {
    const sofia = await customerId(server.db, 'ilimitado@estudio.demo');
    const [hers] = await server.db
      .select({ id: class_reservation.class_reservation_id })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(and(eq(class_reservation.customer_id, sofia), isNull(class_reservation.deletedAt), isNull(class_reservation.guest), gt(single_class.class_date, new Date())));
    if (!hers) throw new Error('the seed gives ilimitado an upcoming reservation');
    await withSettings(server.db, { allow_class_guests: 'false' }, async () => {
      const res = await call(server.app, 'PUT', '/api/single_class/guest', { token: ilimitado, body: { class_reservation_id: hers.id, name: 'Carla' } });
      expect(res.status).toBe(412);
      expect(res.body.code).toBe('booking/guest-not-allowed');
    });

    const full = await newClass(server.db, { minutesAhead: 2 * 24 * 60, capacity: 1 });
    const [reservation] = await server.db
      .insert(class_reservation)
      .values({ single_class_id: full, customer_id: sofia })
      .returning({ id: class_reservation.class_reservation_id });
    const res = await call(server.app, 'PUT', '/api/single_class/guest', { token: ilimitado, body: { class_reservation_id: reservation?.id, name: 'Carla' } });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('booking/class-full');
  });

  it('staff may rename any guest', async () => {
    const mine = await clienteUpcoming(server.db);
    const staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    const res = await call(server.app, 'PUT', '/api/single_class/guest', { token: staff, body: { class_reservation_id: mine.class_reservation_id, name: 'Ana T.' } });
    expect(res.status).toBe(200);
    expect(res.body.class_reservation.guest).toBe('Ana T.');
  });
});
