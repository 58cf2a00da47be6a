import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { domainErrors, texts } from '@estudio/core';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, class_reservation_penalty, waitlist } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { creditTotal, customerId, newClass, withSettings } from '../support/reservations-fixtures.ts';

let server: TestServer;
let cliente: string;
let ilimitado: string;
let nuevo: string;
let recepcion: string;
let clienteId: number;
let ilimitadoId: number;

demoStudio(['cliente', 'ilimitado', 'nuevo', 'recepcion'], (s) => ({ server, tokens: { cliente, ilimitado, nuevo, recepcion } } = s));
beforeAll(async () => {
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
  ilimitadoId = await customerId(server.db, 'ilimitado@estudio.demo');
}, 120_000);

const book = (token: string, body: Record<string, unknown>) => call(server.app, 'POST', '/api/class_reservations', { token, body });
const cancel = (token: string, id: number) => call(server.app, 'POST', `/api/class_reservations/${id}/cancel`, { token });
const errorOf = (code: keyof typeof domainErrors) => ({ code, message: domainErrors[code].message });

/** A seeded class of the type, at least `hours` ahead, with room for `places` more, that none of `customers` booked. */
async function seededClass(typeName: string, options: { hours?: number; places?: number; customers?: number[] } = {}) {
  const places = sql<number>`(select count(*) + count(r.guest) from class_reservation r where r.single_class_id = ${single_class.single_class_id} and r.deleted_at is null)::int`;
  const rows = await server.db
    .select({ id: single_class.single_class_id, capacity: single_class.capacity, places, spot_map: class_type.spot_map })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(
      and(
        eq(class_type.name, typeName),
        gt(single_class.class_date, new Date(Date.now() + (options.hours ?? 13) * 3_600_000)),
        isNull(single_class.class_package_id),
        isNull(single_class.cancelledAt),
      ),
    )
    .orderBy(asc(single_class.class_date));
  for (const row of rows) {
    if (row.places + (options.places ?? 1) > row.capacity) continue;
    const mine = options.customers?.length
      ? await server.db
          .select({ id: class_reservation.class_reservation_id })
          .from(class_reservation)
          .where(and(eq(class_reservation.single_class_id, row.id), inArray(class_reservation.customer_id, options.customers), isNull(class_reservation.deletedAt)))
      : [];
    if (mine.length === 0) return row;
  }
  throw new Error(`no open ${typeName} class`);
}

async function freeSpot(classId: number, total: number): Promise<number> {
  const taken = await server.db
    .select({ spot: class_reservation.spot })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, classId), isNull(class_reservation.deletedAt)));
  const set = new Set(taken.map((t) => t.spot));
  for (let s = 1; s <= total; s++) if (!set.has(s)) return s;
  throw new Error('no free seat');
}

describe('booking a class', () => {
  let classId: number;
  let spot: number;
  let reservationId: number;

  it('cliente@ books an upcoming class with a seat: her credits go from 5 to 4 and it is upcoming in Mis Reservaciones', async () => {
    expect(await creditTotal(server.db, clienteId)).toBe(5);
    const c = await seededClass('Indoor Cycling', { customers: [clienteId, ilimitadoId], places: 3 });
    classId = c.id;
    spot = await freeSpot(c.id, 16);
    const res = await book(cliente, { single_class_id: c.id, spot });
    expect(res.status).toBe(200);
    expect(res.body.class_reservation).toMatchObject({ single_class_id: c.id, customer_id: clienteId, spot, guest: null, deletedAt: null });
    reservationId = res.body.class_reservation.class_reservation_id;
    expect(await creditTotal(server.db, clienteId)).toBe(4);

    const mine = await call(server.app, 'GET', '/api/class_reservations/mine?filter=upcoming', { token: cliente });
    expect(mine.status).toBe(200);
    const found = mine.body.class_reservations.find((r: { class_reservation_id: number }) => r.class_reservation_id === reservationId);
    expect(found.single_class).toMatchObject({ single_class_id: c.id, class_type: { name: 'Indoor Cycling', spot_map: '4,6,6' } });
    expect(found.single_class.taken_spots).toContain(spot);
  });

  it('the same class twice is a 409', async () => {
    const res = await book(cliente, { single_class_id: classId });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(errorOf('booking/already-booked'));
  });

  it('a taken seat is a 409 for the next customer', async () => {
    const res = await book(ilimitado, { single_class_id: classId, spot });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(errorOf('booking/spot-taken'));
  });

  it('a seat that is not on the map is a 400', async () => {
    const res = await book(ilimitado, { single_class_id: classId, spot: 17 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('booking/spot-invalid');
  });

  it('ilimitado@ books without spending a credit, and another seat is fine', async () => {
    const before = await server.db.select().from(available_classes).where(eq(available_classes.customer_id, ilimitadoId));
    const other = await freeSpot(classId, 16);
    const res = await book(ilimitado, { single_class_id: classId, spot: other });
    expect(res.status).toBe(200);
    const after = await server.db.select().from(available_classes).where(eq(available_classes.customer_id, ilimitadoId));
    expect(after.map((c) => c.available_classes)).toEqual(before.map((c) => c.available_classes));
    expect(after.some((c) => c.available_classes === -1 && c.available_class_id === res.body.class_reservation.available_class_id)).toBe(true);
  });

  it('moves her to another seat (PUT), not onto a taken one', async () => {
    const taken = await call(server.app, 'PUT', '/api/class_reservations', {
      token: cliente,
      body: { class_reservation_id: reservationId, spot: (await server.db.select({ spot: class_reservation.spot }).from(class_reservation).where(and(eq(class_reservation.single_class_id, classId), eq(class_reservation.customer_id, ilimitadoId))))[0]?.spot },
    });
    expect(taken.status).toBe(409);
    const other = await freeSpot(classId, 16);
    const moved = await call(server.app, 'PUT', '/api/class_reservations', { token: cliente, body: { class_reservation_id: reservationId, spot: other } });
    expect(moved.status).toBe(200);
    expect(moved.body.class_reservation.spot).toBe(other);
    spot = other;
  });

  it("another customer's reservation is a 404 everywhere", async () => {
    const paths = [
      () => cancel(ilimitado, reservationId),
      () => call(server.app, 'DELETE', `/api/class_reservations/${reservationId}`, { token: ilimitado }),
      () => call(server.app, 'POST', `/api/class_reservations/${reservationId}/rating`, { token: ilimitado, body: { class_stars: 5, coach_stars: 5 } }),
      () => call(server.app, 'PUT', '/api/class_reservations', { token: ilimitado, body: { class_reservation_id: reservationId, spot: 1 } }),
    ];
    for (const request of paths) {
      const res = await request();
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('reservation/not-found');
    }
  });

  it('cancelling early gives the credit back and frees the seat', async () => {
    const res = await cancel(cliente, reservationId);
    expect(res.status).toBe(200);
    expect(res.body.credit_returned).toBe(true);
    expect(res.body.class_reservation.credit_returned).toBe(true);
    expect(res.body.class_reservation.deletedAt).not.toBeNull();
    expect(await creditTotal(server.db, clienteId)).toBe(5);
    const [credit] = await server.db
      .select()
      .from(available_classes)
      .where(eq(available_classes.available_class_id, res.body.class_reservation.available_class_id));
    expect(credit?.cancels_used).toBe(1);
    // The seat is free again: someone else may take it.
    const again = await cancel(cliente, reservationId);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('reservation/already-cancelled');
    const cancelled = await call(server.app, 'GET', '/api/class_reservations/mine?filter=cancelled', { token: cliente });
    expect(cancelled.body.class_reservations.map((r: { class_reservation_id: number }) => r.class_reservation_id)).toContain(reservationId);
  });

  it('nuevo@ has no credits: 412 with the exhausted-credits message', async () => {
    const c = await seededClass('Yoga');
    const res = await book(nuevo, { single_class_id: c.id });
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ code: 'booking/no-credits', message: texts.booking.noCredits });
  });

  it('a package-only class needs its package', async () => {
    const [special] = await server.db.select({ id: single_class.single_class_id }).from(single_class).where(sql`${single_class.class_package_id} is not null`);
    const res = await book(cliente, { single_class_id: special?.id });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('booking/package-only');
  });

  it('a class that does not exist is a 404; a cancelled or started one a 412', async () => {
    expect((await book(cliente, { single_class_id: 999_999 })).status).toBe(404);
    const gone = await newClass(server.db, { minutesAhead: 600, capacity: 5 });
    await server.db.update(single_class).set({ cancelledAt: new Date() }).where(eq(single_class.single_class_id, gone));
    expect((await book(cliente, { single_class_id: gone })).body).toEqual(errorOf('booking/class-cancelled'));
    const started = await newClass(server.db, { minutesAhead: -10, capacity: 5 });
    expect((await book(cliente, { single_class_id: started })).body).toEqual(errorOf('booking/class-started'));
    const soon = await newClass(server.db, { minutesAhead: 20, capacity: 5 });
    const late = await book(cliente, { single_class_id: soon });
    expect(late.status).toBe(412);
    expect(late.body).toEqual(errorOf('booking/outside-window'));
  });
});

describe('places and guests', () => {
  it('a guest takes a place: with two places left, a booking with a guest fills the class', async () => {
    const id = await newClass(server.db, { minutesAhead: 24 * 60, capacity: 2, classType: 'Yoga' });
    const res = await book(cliente, { single_class_id: id, guest: 'Laura Medina' });
    expect(res.status).toBe(200);
    expect(res.body.class_reservation.guest).toBe('Laura Medina');
    const byId = await call(server.app, 'GET', `/api/single_class/single/${id}`, { token: cliente });
    if (byId.status === 200) expect(byId.body.single_class.reservation_count).toBe(2);
    const full = await book(ilimitado, { single_class_id: id });
    expect(full.status).toBe(412);
    expect(full.body).toEqual({ code: 'booking/class-full', message: 'Lo sentimos, esta clase ya está llena.' });
  });

  it('a booking with a guest needs two places', async () => {
    const id = await newClass(server.db, { minutesAhead: 24 * 60, capacity: 1, classType: 'Yoga' });
    const res = await book(cliente, { single_class_id: id, guest: 'Pablo Ríos' });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('booking/class-full');
  });

  it('a guest name needs two characters', async () => {
    const id = await newClass(server.db, { minutesAhead: 24 * 60, capacity: 4, classType: 'Yoga' });
    const res = await book(cliente, { single_class_id: id, guest: ' A ' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(texts.booking.guestNameRequired);
  });

  it('no guests when allow_class_guests is off', async () => {
    const id = await newClass(server.db, { minutesAhead: 24 * 60, capacity: 4, classType: 'Yoga' });
    await withSettings(server.db, { allow_class_guests: 'false' }, async () => {
      const res = await book(cliente, { single_class_id: id, guest: 'Laura Medina' });
      expect(res.status).toBe(412);
      expect(res.body).toEqual(errorOf('booking/guest-not-allowed'));
    });
  });
});

describe('changing a booking and booking for someone else', () => {
  it('adds a guest only while there is a place for them, and removes them', async () => {
    const id = await newClass(server.db, { minutesAhead: 24 * 60, capacity: 2, classType: 'Yoga' });
    const mine = await book(cliente, { single_class_id: id });
    const other = await book(ilimitado, { single_class_id: id });
    expect(other.status).toBe(200);
    const put = (guest: string | null) =>
      call(server.app, 'PUT', '/api/class_reservations', { token: cliente, body: { class_reservation_id: mine.body.class_reservation.class_reservation_id, guest } });
    expect((await put('Tania Ortega')).body).toEqual(errorOf('booking/class-full'));
    await cancel(ilimitado, other.body.class_reservation.class_reservation_id);
    const added = await put('Tania Ortega');
    expect(added.status).toBe(200);
    expect(added.body.class_reservation.guest).toBe('Tania Ortega');
    expect((await book(ilimitado, { single_class_id: id })).body.code).toBe('booking/class-full');
    const removed = await put(null);
    expect(removed.body.class_reservation.guest).toBeNull();
    expect((await book(ilimitado, { single_class_id: id })).status).toBe(200);
    // The desk takes it off so her credit and her cancellations stay as the later tests expect.
    await call(server.app, 'DELETE', `/api/class_reservations/${mine.body.class_reservation.class_reservation_id}`, { token: recepcion });
  });

  it('the front desk books for a customer with customer_id; a customer cannot', async () => {
    const id = await newClass(server.db, { minutesAhead: 24 * 60, capacity: 5, classType: 'Yoga' });
    const denied = await book(ilimitado, { single_class_id: id, customer_id: clienteId });
    expect(denied.status).toBe(403);
    const before = await creditTotal(server.db, clienteId);
    const desk = await book(recepcion, { single_class_id: id, customer_id: clienteId });
    expect(desk.status).toBe(200);
    expect(desk.body.class_reservation.customer_id).toBe(clienteId);
    expect(await creditTotal(server.db, clienteId)).toBe(before - 1);
    await call(server.app, 'DELETE', `/api/class_reservations/${desk.body.class_reservation.class_reservation_id}`, { token: recepcion });
    expect(await creditTotal(server.db, clienteId)).toBe(before);
  });
});

describe('cancelling', () => {
  it('late, with allow_cancel_after_treshold: cancelled, but the credit is kept and the answer says so', async () => {
    const id = await newClass(server.db, { minutesAhead: 120, capacity: 5 });
    const booked = await book(cliente, { single_class_id: id });
    expect(booked.status).toBe(200);
    const before = await creditTotal(server.db, clienteId);
    const res = await cancel(cliente, booked.body.class_reservation.class_reservation_id);
    expect(res.status).toBe(200);
    expect(res.body.credit_returned).toBe(false);
    expect(res.body.class_reservation.credit_returned).toBe(false);
    expect(await creditTotal(server.db, clienteId)).toBe(before);
  });

  it('late, without it: 412', async () => {
    const id = await newClass(server.db, { minutesAhead: 120, capacity: 5 });
    const booked = await book(cliente, { single_class_id: id });
    await withSettings(server.db, { allow_cancel_after_treshold: 'false' }, async () => {
      const res = await cancel(cliente, booked.body.class_reservation.class_reservation_id);
      expect(res.status).toBe(412);
      expect(res.body).toEqual(errorOf('reservation/cancel-too-late'));
    });
    // Front desk can still take it off, and gives the credit back.
    const before = await creditTotal(server.db, clienteId);
    const removed = await call(server.app, 'DELETE', `/api/class_reservations/${booked.body.class_reservation.class_reservation_id}`, { token: recepcion });
    expect(removed.status).toBe(200);
    expect(removed.body.credit_returned).toBe(true);
    expect(await creditTotal(server.db, clienteId)).toBe(before + 1);
  });

  it('disabled: 412 with the spec text', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 5 });
    const booked = await book(cliente, { single_class_id: id });
    await withSettings(server.db, { allow_cancel_reservations: 'false', allow_cancel_after_treshold: 'false' }, async () => {
      const res = await cancel(cliente, booked.body.class_reservation.class_reservation_id);
      expect(res.status).toBe(412);
      expect(res.body).toEqual({ code: 'reservation/cancel-disabled', message: 'Tus clases son transferibles y no son cancelables' });
    });
    await cancel(cliente, booked.body.class_reservation.class_reservation_id);
  });

  it('stops at max_cancels_per_available_class', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 5 });
    const booked = await book(cliente, { single_class_id: id });
    const creditId = booked.body.class_reservation.available_class_id as number;
    await server.db.update(available_classes).set({ cancels_used: 2 }).where(eq(available_classes.available_class_id, creditId));
    const res = await cancel(cliente, booked.body.class_reservation.class_reservation_id);
    expect(res.status).toBe(412);
    expect(res.body).toEqual(errorOf('reservation/cancel-limit'));
    await server.db.update(available_classes).set({ cancels_used: 1 }).where(eq(available_classes.available_class_id, creditId));
    expect((await cancel(cliente, booked.body.class_reservation.class_reservation_id)).status).toBe(200);
    const [credit] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, creditId));
    expect(credit?.cancels_used).toBe(2);
    await server.db.update(available_classes).set({ cancels_used: 0 }).where(eq(available_classes.available_class_id, creditId));
  });

  it('a freed place messages every waitlisted customer on WhatsApp at once; the first to book takes it and leaves the waitlist', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 1, classType: 'Barre' });
    const booked = await book(cliente, { single_class_id: id });
    expect(booked.status).toBe(200);
    const waiting = await server.db
      .select({ id: customer.customer_id, phone: customer.phone })
      .from(customer)
      .where(and(sql`${customer.phone} is not null`, eq(customer.role, 'customer'), sql`${customer.customer_id} not in (${clienteId}, ${ilimitadoId})`))
      .orderBy(customer.customer_id)
      .limit(3);
    await server.db.insert(waitlist).values([...waiting.map((w) => ({ single_class_id: id, customer_id: w.id })), { single_class_id: id, customer_id: ilimitadoId }]);

    const res = await cancel(cliente, booked.body.class_reservation.class_reservation_id);
    expect(res.status).toBe(200);
    const messages = await server.db
      .select()
      .from(outbox_message)
      .where(and(eq(outbox_message.channel, 'whatsapp'), eq(outbox_message.kind, 'waitlist-spot-freed')));
    // Mariana, who cancelled, is told so (the credit came back), by e-mail and WhatsApp.
    const confirmation = await server.db.select().from(outbox_message).where(eq(outbox_message.dedupe_key, `booking-cancelled:${booked.body.class_reservation.class_reservation_id}:email`));
    expect(confirmation[0]?.subject).toMatch(/^Reservación cancelada: Barre, /);
    expect(confirmation[0]?.body).toContain('Tu crédito regresó a tu cuenta');
    const [ilimitadoRow] = await server.db.select({ phone: customer.phone }).from(customer).where(eq(customer.customer_id, ilimitadoId));
    const phones = [...waiting.map((w) => w.phone), ilimitadoRow?.phone].sort();
    expect(messages.map((m) => m.recipient).sort()).toEqual(phones);
    for (const m of messages) {
      expect(m.status).toBe('pending');
      expect(m.body).toContain('Barre');
      expect(m.body).toContain('Se liberó un lugar');
    }
    const rows = await server.db.select().from(waitlist).where(eq(waitlist.single_class_id, id));
    expect(rows.every((w) => w.notifiedAt !== null)).toBe(true);

    const first = await book(ilimitado, { single_class_id: id });
    expect(first.status).toBe(200);
    const left = await server.db.select({ customer_id: waitlist.customer_id }).from(waitlist).where(eq(waitlist.single_class_id, id));
    expect(left.map((w) => w.customer_id)).not.toContain(ilimitadoId);
    expect(left).toHaveLength(3);
    // Too late for the others: the place is gone.
    expect((await book(cliente, { single_class_id: id })).body.code).toBe('booking/class-full');
  });
});

describe('rating', () => {
  it('only an attended class, only once', async () => {
    const mine = await call(server.app, 'GET', '/api/class_reservations/mine?filter=past', { token: cliente });
    const attended = mine.body.class_reservations.find((r: { attend: boolean }) => r.attend);
    expect(attended).toBeDefined();
    const rate = (id: number) =>
      call(server.app, 'POST', `/api/class_reservations/${id}/rating`, { token: cliente, body: { class_stars: 5, coach_stars: 4, comment: '¡Gran clase!' } });
    const res = await rate(attended.class_reservation_id);
    expect(res.status).toBe(200);
    expect(res.body.class_reservation).toMatchObject({ class_stars: 5, coach_stars: 4, comment: '¡Gran clase!' });
    const twice = await rate(attended.class_reservation_id);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual(errorOf('rating/already-rated'));

    const upcoming = await call(server.app, 'GET', '/api/class_reservations/mine?filter=upcoming', { token: cliente });
    const next = upcoming.body.class_reservations[0];
    const early = await rate(next.class_reservation_id);
    expect(early.status).toBe(412);
    expect(early.body).toEqual(errorOf('rating/not-attended'));
  });

  it('stars go from 1 to 5', async () => {
    const res = await call(server.app, 'POST', '/api/class_reservations/1/rating', { token: cliente, body: { class_stars: 6, coach_stars: 0 } });
    expect(res.status).toBe(400);
  });

  it('not when ratings are off', async () => {
    await withSettings(server.db, { reservation_rating_enabled: 'false' }, async () => {
      const mine = await call(server.app, 'GET', '/api/class_reservations/mine?filter=past', { token: cliente });
      const id = mine.body.class_reservations[0].class_reservation_id;
      const res = await call(server.app, 'POST', `/api/class_reservations/${id}/rating`, { token: cliente, body: { class_stars: 5, coach_stars: 5 } });
      expect(res.body).toEqual(errorOf('rating/disabled'));
    });
  });
});

describe('Mis Reservaciones', () => {
  it('filters: upcoming soonest first, past newest first, all with the classes ahead first (soonest first) then the rest newest first, cancelled only cancelled', async () => {
    const get = async (filter: string) =>
      (await call(server.app, 'GET', `/api/class_reservations/mine?filter=${filter}`, { token: cliente })).body as {
        total: number;
        class_reservations: { deletedAt: string | null; single_class: { class_date: string } }[];
      };
    const [all, upcoming, past, cancelled] = await Promise.all(['all', 'upcoming', 'past', 'cancelled'].map(get)) as [
      Awaited<ReturnType<typeof get>>,
      Awaited<ReturnType<typeof get>>,
      Awaited<ReturnType<typeof get>>,
      Awaited<ReturnType<typeof get>>,
    ];
    expect(all.total).toBe(upcoming.total + past.total + cancelled.total);
    expect(upcoming.total).toBeGreaterThan(0);
    expect(past.total).toBeGreaterThan(0);
    expect(cancelled.total).toBeGreaterThanOrEqual(3);
    const dates = (list: typeof all) => list.class_reservations.map((r) => r.single_class.class_date);
    expect(dates(upcoming)).toEqual([...dates(upcoming)].sort());
    expect(dates(past)).toEqual([...dates(past)].sort().reverse());
    const now = new Date().toISOString();
    const ahead = dates(all).filter((d) => d > now);
    const behind = dates(all).filter((d) => d <= now);
    // Two classes ahead at least, so the next one at the top is told from the farthest one (newest first put it last).
    expect(ahead.length).toBeGreaterThan(1);
    expect(behind.length).toBeGreaterThan(0);
    expect(dates(all)).toEqual([...[...ahead].sort(), ...[...behind].sort().reverse()]);
    expect(upcoming.class_reservations.every((r) => r.deletedAt === null && r.single_class.class_date > now)).toBe(true);
    expect(past.class_reservations.every((r) => r.deletedAt === null && r.single_class.class_date <= now)).toBe(true);
    expect(cancelled.class_reservations.every((r) => r.deletedAt !== null)).toBe(true);
  });

  it('50 per page', async () => {
    const nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
    const classes = await server.db.select({ id: single_class.single_class_id }).from(single_class).orderBy(single_class.single_class_id).limit(55);
    expect(classes).toHaveLength(55);
    await server.db
      .insert(class_reservation)
      .values(classes.map((c) => ({ single_class_id: c.id, customer_id: nuevoId, deletedAt: new Date(), credit_returned: true })));
    const page1 = await call(server.app, 'GET', '/api/class_reservations/mine?filter=cancelled&page=1', { token: nuevo });
    const page2 = await call(server.app, 'GET', '/api/class_reservations/mine?filter=cancelled&page=2', { token: nuevo });
    expect(page1.body.total).toBe(55);
    expect(page1.body.class_reservations).toHaveLength(50);
    expect(page2.body.class_reservations).toHaveLength(5);
    const ids = new Set([...page1.body.class_reservations, ...page2.body.class_reservations].map((r: { class_reservation_id: number }) => r.class_reservation_id));
    expect(ids.size).toBe(55);
    expect((await call(server.app, 'GET', '/api/class_reservations/mine?filter=upcoming', { token: nuevo })).body).toEqual({ total: 0, class_reservations: [] });
  });

  it('search: a customer sees only their own rows; the front desk searches a class', async () => {
    const own = await call(server.app, 'GET', `/api/class_reservations?customer_id=${ilimitadoId}`, { token: cliente });
    expect(own.status).toBe(200);
    expect(own.body.class_reservations.length).toBeGreaterThan(0);
    expect(own.body.class_reservations.every((r: { customer_id: number }) => r.customer_id === clienteId)).toBe(true);

    const c = await seededClass('Yoga', { hours: 0, places: 0 });
    const desk = await call(server.app, 'GET', `/api/class_reservations?single_class_id=${c.id}`, { token: recepcion });
    expect(desk.status).toBe(200);
    expect(desk.body.total).toBe(
      (await server.db.select().from(class_reservation).where(and(eq(class_reservation.single_class_id, c.id), isNull(class_reservation.deletedAt)))).length,
    );
  });
});

describe('penalties', () => {
  it('after 3 consecutive no-shows an unlimited member is penalised and cannot book until end_date', async () => {
    const [unlimited] = await server.db
      .select()
      .from(available_classes)
      .where(and(eq(available_classes.customer_id, ilimitadoId), eq(available_classes.available_classes, -1)));
    expect(unlimited).toBeDefined();
    // Three past classes after her last attended one, missed.
    const missed = [-3 * 24 * 60, -2 * 24 * 60, -24 * 60];
    for (const minutesAhead of missed) {
      const id = await newClass(server.db, { minutesAhead, capacity: 10 });
      await server.db.insert(class_reservation).values({ single_class_id: id, customer_id: ilimitadoId, available_class_id: unlimited?.available_class_id, attend: false });
    }
    const c = await seededClass('Yoga', { customers: [ilimitadoId] });
    const res = await book(ilimitado, { single_class_id: c.id });
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ code: 'booking/penalized', message: texts.booking.penalized });
    const penalties = await server.db.select().from(class_reservation_penalty).where(eq(class_reservation_penalty.customer_id, ilimitadoId));
    expect(penalties).toHaveLength(1);
    expect(penalties[0]?.no_shows).toBe(3);
    const days = ((penalties[0]?.end_date.getTime() ?? 0) - (penalties[0]?.start_date.getTime() ?? 0)) / 86_400_000;
    expect(days).toBeCloseTo(7, 5);

    // Still blocked, and no second penalty.
    const again = await book(ilimitado, { single_class_id: c.id });
    expect(again.body.code).toBe('booking/penalized');
    expect(await server.db.select().from(class_reservation_penalty).where(eq(class_reservation_penalty.customer_id, ilimitadoId))).toHaveLength(1);

    // Once the penalty is over she books again: the no-shows before it do not count twice.
    await server.db
      .update(class_reservation_penalty)
      .set({ start_date: new Date(Date.now() - 120_000), end_date: new Date(Date.now() - 60_000) })
      .where(eq(class_reservation_penalty.customer_id, ilimitadoId));
    expect((await book(ilimitado, { single_class_id: c.id })).status).toBe(200);
  });
});
