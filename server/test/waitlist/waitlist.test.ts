import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { weekOf, type SingleClassOutput } from '@estudio/core';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { customerId, newClass, withSettings } from '../support/reservations-fixtures.ts';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

const tz = 'America/Mexico_City';

let server: TestServer;
let cliente: string;
let clienteId: number;
/** Upcoming full classes Mariana has not booked (the seed sells out every sixth class). */
let fullClasses: SingleClassOutput[];
let openClass: SingleClassOutput;

demoStudio(['cliente'], (s) => ({ server, tokens: { cliente } } = s));
beforeAll(async () => {
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
  const start = weekOf(new Date(), tz).start_date;
  const end = weekOf(new Date(Date.now() + 13 * 86_400_000), tz).end_date;
  const res = await call(server.app, 'GET', `/api/single_class?start_date=${start}&end_date=${end}`, { token: cliente });
  const upcoming = (res.body.single_classes as SingleClassOutput[]).filter(
    (c) => Date.parse(c.class_date) > Date.now() + 3_600_000 && !c.cancelledAt && c.class_reservations.length === 0,
  );
  fullClasses = upcoming.filter((c) => c.reservation_count >= c.capacity && c.waitlist_id === null);
  const open = upcoming.find((c) => c.reservation_count < c.capacity);
  if (fullClasses.length < 2 || !open) throw new Error('the seed has upcoming full and open classes');
  openClass = open;
}, 120_000);

const first = () => fullClasses[0] as SingleClassOutput;
const second = () => fullClasses[1] as SingleClassOutput;

describe('waitlists', () => {
  it("Mariana joins a full class's waitlist ('Anotada en lista de espera.'), sees it on the calendar and in her list", async () => {
    const joined = await call(server.app, 'POST', '/api/waitlist', { token: cliente, body: { single_class_id: first().single_class_id } });
    expect(joined.status, joined.raw).toBe(200);
    expect(joined.body.waitlist).toMatchObject({ single_class_id: first().single_class_id, customer_id: clienteId });
    expect(joined.body.waitlist.single_class).toMatchObject({ single_class_id: first().single_class_id, capacity: first().capacity });
    expect(joined.body.waitlist.single_class).not.toHaveProperty('class_reservations');
    const waitlistId = joined.body.waitlist.waitlist_id as number;

    const card = await call(server.app, 'GET', `/api/single_class/single/${first().single_class_id}`, { token: cliente });
    expect(card.body.single_class.waitlist_id).toBe(waitlistId);

    const list = await call(server.app, 'GET', '/api/waitlist', { token: cliente });
    expect(list.status).toBe(200);
    expect((list.body.waitlists as { waitlist_id: number }[]).map((w) => w.waitlist_id)).toEqual([waitlistId]);

    const one = await call(server.app, 'GET', `/api/waitlist/${waitlistId}`, { token: cliente });
    expect(one.body.waitlist.waitlist_id).toBe(waitlistId);

    const again = await call(server.app, 'POST', '/api/waitlist', { token: cliente, body: { single_class_id: first().single_class_id } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 'waitlist/already-joined', message: 'Ya estás en la lista de espera de esta clase.' });
  });

  it('refuses a class with places (412), a class she booked (409), a past class and an unknown one', async () => {
    const open = await call(server.app, 'POST', '/api/waitlist', { token: cliente, body: { single_class_id: openClass.single_class_id } });
    expect(open.status).toBe(412);
    expect(open.body.code).toBe('waitlist/class-not-full');

    const [booked] = await server.db
      .select({ id: class_reservation.single_class_id })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(and(eq(class_reservation.customer_id, clienteId), isNull(class_reservation.deletedAt), gt(single_class.class_date, new Date())));
    const mine = await call(server.app, 'POST', '/api/waitlist', { token: cliente, body: { single_class_id: booked?.id } });
    expect(mine.status).toBe(409);
    expect(mine.body.code).toBe('waitlist/already-booked');

    const past = await newClass(server.db, { minutesAhead: -120, capacity: 0 });
    const started = await call(server.app, 'POST', '/api/waitlist', { token: cliente, body: { single_class_id: past } });
    expect(started.status).toBe(412);
    expect(started.body.code).toBe('booking/class-started');

    const unknown = await call(server.app, 'POST', '/api/waitlist', { token: cliente, body: { single_class_id: 999999 } });
    expect(unknown.status).toBe(404);
  });

  it('answers 412 when waitlists are disabled', async () => {
    await withSettings(server.db, { waitlist_enabled: 'false' }, async () => {
      const res = await call(server.app, 'POST', '/api/waitlist', { token: cliente, body: { single_class_id: second().single_class_id } });
      expect(res.status).toBe(412);
      expect(res.body).toEqual({ code: 'waitlist/disabled', message: 'La lista de espera no está disponible.' });
    });
  });

  it('moves her entry to another full class, not to one with places', async () => {
    const [entry] = await server.db.select().from(waitlist).where(and(eq(waitlist.customer_id, clienteId), eq(waitlist.single_class_id, first().single_class_id)));
    const toOpen = await call(server.app, 'PUT', '/api/waitlist', { token: cliente, body: { waitlist_id: entry?.waitlist_id, single_class_id: openClass.single_class_id } });
    expect(toOpen.status).toBe(412);
    const moved = await call(server.app, 'PUT', '/api/waitlist', { token: cliente, body: { waitlist_id: entry?.waitlist_id, single_class_id: second().single_class_id } });
    expect(moved.status, moved.raw).toBe(200);
    expect(moved.body.waitlist).toMatchObject({ waitlist_id: entry?.waitlist_id, single_class_id: second().single_class_id });
  });

  it("keeps other customers' entries out of reach (404)", async () => {
    const [theirs] = await server.db.select().from(waitlist).where(ne(waitlist.customer_id, clienteId)).limit(1);
    if (!theirs) throw new Error('the seed waitlists community members on full classes');
    for (const [method, url, body] of [
      ['GET', `/api/waitlist/${theirs.waitlist_id}`, undefined],
      ['DELETE', `/api/waitlist/${theirs.waitlist_id}`, undefined],
      ['PUT', '/api/waitlist', { waitlist_id: theirs.waitlist_id, single_class_id: second().single_class_id }],
    ] as const) {
      const res = await call(server.app, method, url, { token: cliente, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.code).toBe('waitlist/not-found');
    }
    const still = await server.db.select().from(waitlist).where(eq(waitlist.waitlist_id, theirs.waitlist_id));
    expect(still).toHaveLength(1);
  });

  it("she leaves ('Eliminada de lista de espera.'); leaving twice is 404", async () => {
    const [entry] = await server.db.select().from(waitlist).where(eq(waitlist.customer_id, clienteId));
    const left = await call(server.app, 'DELETE', `/api/waitlist/${entry?.waitlist_id}`, { token: cliente });
    expect(left.status).toBe(200);
    expect(left.body).toEqual({ ok: true });
    const list = await call(server.app, 'GET', '/api/waitlist', { token: cliente });
    expect(list.body.waitlists).toEqual([]);
    const again = await call(server.app, 'DELETE', `/api/waitlist/${entry?.waitlist_id}`, { token: cliente });
    expect(again.status).toBe(404);
  });

  it('the front desk puts a customer on a waitlist; a customer cannot name someone else', async () => {
    const nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
    const staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    const res = await call(server.app, 'POST', '/api/waitlist', { token: staff, body: { single_class_id: first().single_class_id, customer_id: nuevoId } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.waitlist.customer_id).toBe(nuevoId);

    const denied = await call(server.app, 'POST', '/api/waitlist', { token: cliente, body: { single_class_id: second().single_class_id, customer_id: nuevoId } });
    expect(denied.status).toBe(403);

    const visitor = await call(server.app, 'GET', '/api/waitlist');
    expect(visitor.status).toBe(401);
  });

  it('tells her place in line and how many wait, in the order people joined (decision 088)', async () => {
    const target = fullClasses[2] ?? second();
    const others = await server.db.select({ id: customer.customer_id }).from(customer).where(and(ne(customer.customer_id, clienteId), eq(customer.role, 'customer'))).limit(2);
    await server.db.delete(waitlist).where(eq(waitlist.single_class_id, target.single_class_id));
    for (const o of others) {
      await server.db.insert(waitlist).values({ single_class_id: target.single_class_id, customer_id: o.id });
      await new Promise((r) => setTimeout(r, 5));
    }
    const joined = await call(server.app, 'POST', '/api/waitlist', { token: cliente, body: { single_class_id: target.single_class_id } });
    expect(joined.status, joined.raw).toBe(200);
    expect(joined.body.waitlist).toMatchObject({ position: 3, waiting: 3, auto_book: false });
    await server.db.delete(waitlist).where(and(eq(waitlist.single_class_id, target.single_class_id), eq(waitlist.customer_id, others[0]?.id ?? 0)));
    const list = await call(server.app, 'GET', '/api/waitlist', { token: cliente });
    expect(list.body.waitlists.find((w: { single_class_id: number }) => w.single_class_id === target.single_class_id)).toMatchObject({ position: 2, waiting: 2 });
  });

  it('she asks to be booked automatically only where the studio books from its waitlists, and can change her mind', async () => {
    const [entry] = await server.db.select().from(waitlist).where(eq(waitlist.customer_id, clienteId));
    if (!entry) throw new Error('she waits for a class');
    const off = await call(server.app, 'PUT', '/api/waitlist', { token: cliente, body: { waitlist_id: entry.waitlist_id, auto_book: true } });
    expect(off.status).toBe(412);
    expect(off.body).toEqual({ code: 'waitlist/auto-book-off', message: 'Este estudio no reserva automáticamente desde la lista de espera: te avisaremos cuando se libere un lugar.' });
    await withSettings(server.db, { waitlist_auto_promote: 'true' }, async () => {
      const on = await call(server.app, 'PUT', '/api/waitlist', { token: cliente, body: { waitlist_id: entry.waitlist_id, auto_book: true } });
      expect(on.status, on.raw).toBe(200);
      expect(on.body.waitlist).toMatchObject({ waitlist_id: entry.waitlist_id, single_class_id: entry.single_class_id, auto_book: true });
      const back = await call(server.app, 'PUT', '/api/waitlist', { token: cliente, body: { waitlist_id: entry.waitlist_id, auto_book: false } });
      expect(back.body.waitlist.auto_book).toBe(false);
    });
    const nothing = await call(server.app, 'PUT', '/api/waitlist', { token: cliente, body: { waitlist_id: entry.waitlist_id } });
    expect(nothing.status).toBe(400);
  });
});
