import { and, eq, inArray, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { customer } from '@estudio/db/schema/customer';
import { message_preference, outbox_message } from '@estudio/db/schema/outbox';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { waitlistPromotionJob } from '../../src/services/clock/waitlist-promotion.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { preferencesOf } from '../../src/services/messages/queue-message.ts';
import { cancelReservation } from '../../src/services/reservations/cancel-reservation.ts';
import { createBookers, newClass, withSettings, type Booker } from '../support/reservations-fixtures.ts';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { newClientId, trpcMutation } from '../support/sync-helpers.ts';

/*
 * The waitlist's messages (decision 023): the spec's notify-all on a
 * freed place, and the automatic promotion of the clock's 'waitlist-promotion'
 * job. Real migrated database (PGlite, or PostgreSQL with TEST_DATABASE_URL),
 * real HTTP through the app; classes made relative to now.
 */

let server: TestServer;
let seq = 0;
const silent = { info: () => {}, warn: () => {}, error: () => {} };

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  // The seed's own waitlists (places freed before any message existed) are told by a first run; the tests count from here.
  await runJob();
}, 120_000);

const ctx = () => messageContextOf(server.config);
const runJob = (now = new Date()) => waitlistPromotionJob.run({ db: server.db, config: server.config, messages: ctx(), log: silent }, now);

async function people(count: number, credits: number): Promise<Booker[]> {
  return createBookers(server.db, server.config.AUTH_SECRET, count, { credits, prefix: `espera-${++seq}-${Date.now()}` });
}

/** A class of `capacity` places, all taken by new customers; returns it with the bookers' reservations. */
async function fullClass(minutesAhead: number, capacity = 1) {
  const classId = await newClass(server.db, { minutesAhead, capacity, classType: 'Barre' });
  const bookers = await people(capacity, 2);
  const reservations: number[] = [];
  for (const b of bookers) {
    const res = await call(server.app, 'POST', '/api/class_reservations', { token: b.token, body: { single_class_id: classId } });
    expect(res.status, res.raw).toBe(200);
    reservations.push(res.body.class_reservation.class_reservation_id as number);
  }
  return { classId, bookers, reservations };
}

/** They join in order; each asked to be booked automatically unless told (decision 088). */
async function wait(classId: number, who: Booker[], autoBook = true) {
  for (const w of who) {
    await server.db.insert(waitlist).values({ single_class_id: classId, customer_id: w.customer_id, auto_book: autoBook });
    // Joined one after the other: the list's order is the order of joining.
    await new Promise((r) => setTimeout(r, 5));
  }
}

const messagesTo = (ids: number[], kind?: string) =>
  server.db
    .select()
    .from(outbox_message)
    .where(and(inArray(outbox_message.customer_id, ids), kind ? eq(outbox_message.kind, kind) : undefined))
    .orderBy(outbox_message.outbox_message_id);

const liveIn = (classId: number) =>
  server.db
    .select()
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, classId), isNull(class_reservation.deletedAt)));

const creditLeft = async (id: number) =>
  (await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, id)))[0]?.available_classes;

describe('notify-all (waitlist_auto_promote off, the default)', () => {
  it('a customer who cancels frees the place and every waiting customer is told at once, by e-mail and WhatsApp, with a link to book that class', async () => {
    const { classId, bookers, reservations } = await fullClass(48 * 60);
    const waiting = await people(3, 1);
    const [w1, w2, w3] = waiting as [Booker, Booker, Booker];
    const phone = `55${String(Date.now()).slice(-8)}`;
    await server.db.update(customer).set({ phone }).where(eq(customer.customer_id, w2.customer_id));
    // w3 turned e-mail off: an optional message does not reach them there.
    await preferencesOf(server.db, w3.customer_id);
    await server.db.update(message_preference).set({ email_enabled: false }).where(eq(message_preference.customer_id, w3.customer_id));
    await wait(classId, waiting);

    const res = await call(server.app, 'POST', `/api/class_reservations/${reservations[0]}/cancel`, { token: bookers[0]?.token });
    expect(res.status, res.raw).toBe(200);

    const rows = await messagesTo(waiting.map((w) => w.customer_id));
    expect(rows.map((m) => [m.customer_id, m.channel, m.kind])).toEqual([
      [w1.customer_id, 'email', 'waitlist-spot-freed'],
      [w2.customer_id, 'email', 'waitlist-spot-freed'],
      [w2.customer_id, 'whatsapp', 'waitlist-spot-freed'],
    ]);
    const email = rows[0];
    expect(email?.subject).toBe('Se liberó un lugar en Barre');
    expect(email?.body).toContain('el lugar es para la primera persona que reserve');
    expect(email?.html).toContain(`/calendario?semana=`);
    expect(email?.html).toContain(`clase=${classId}`);
    // Optional: it carries the way to stop it.
    expect(email?.body).toContain('http://estudio.test/mensajes/baja?token=');
    const whatsapp = rows[2];
    expect(whatsapp?.recipient).toBe(phone);
    expect(whatsapp?.whatsapp_template?.name).toBe('estudio_lugar_libre');
    expect(whatsapp?.whatsapp_template?.parameters).toHaveLength(4);
    expect(whatsapp?.whatsapp_template?.parameters[1]).toBe('Barre');
    expect(whatsapp?.whatsapp_template?.parameters[3]).toMatch(new RegExp(`^http://estudio.test/calendario\\?semana=\\d{4}-\\d{2}-\\d{2}&clase=${classId}$`));
    const entries = await server.db.select().from(waitlist).where(eq(waitlist.single_class_id, classId));
    expect(entries.every((e) => e.notifiedAt !== null)).toBe(true);

    // The clock's run after it has nothing left to tell: nobody is told twice.
    expect(await runJob()).toBe(0);
    expect(await messagesTo(waiting.map((w) => w.customer_id))).toHaveLength(3);

    // The first to book takes the place and leaves the list; the others stay.
    expect((await call(server.app, 'POST', '/api/class_reservations', { token: w2.token, body: { single_class_id: classId } })).status).toBe(200);
    expect((await call(server.app, 'POST', '/api/class_reservations', { token: w1.token, body: { single_class_id: classId } })).body.code).toBe('booking/class-full');
  });

  it('staff at the admin (DELETE) free a place: the waitlist is told the same way', async () => {
    const { classId, reservations } = await fullClass(3 * 24 * 60);
    const waiting = await people(1, 1);
    await wait(classId, waiting);
    const [admin] = await people(1, 0);
    await server.db.update(customer).set({ role: 'admin' }).where(eq(customer.customer_id, admin?.customer_id ?? 0));
    const res = await call(server.app, 'DELETE', `/api/class_reservations/${reservations[0]}`, { token: admin?.token });
    expect(res.status, res.raw).toBe(200);
    expect((await messagesTo([waiting[0]?.customer_id ?? 0], 'waitlist-spot-freed')).map((m) => m.channel)).toEqual(['email']);
  });

  it("a desk's cancellation and a desk's move, pushed through the sync, tell the waitlists of the classes they free at once", async () => {
    const staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    const one = await fullClass(48 * 60);
    const two = await fullClass(50 * 60);
    const target = await newClass(server.db, { minutesAhead: 52 * 60, capacity: 5, classType: 'Barre' });
    const [waitsOne, waitsTwo] = await people(2, 1);
    if (!waitsOne || !waitsTwo) throw new Error('fixtures');
    await wait(one.classId, [waitsOne]);
    await wait(two.classId, [waitsTwo]);
    const res = await trpcMutation(
      server.app,
      'sync.push',
      {
        clientId: newClientId(),
        mutations: [
          {
            id: 1,
            name: 'cancelReservation',
            args: { class_reservation_id: one.reservations[0], customer_id: one.bookers[0]?.customer_id, single_class_id: one.classId, return_credit: null, reason: null },
          },
          {
            id: 2,
            name: 'moveReservation',
            args: { class_reservation_id: two.reservations[0], customer_id: two.bookers[0]?.customer_id, from_single_class_id: two.classId, single_class_id: target, spot: null },
          },
        ],
      },
      staff,
    );
    expect(res.status).toBe(200);
    expect(res.body.result.data.results.map((r: { status: string }) => r.status)).toEqual(['applied', 'applied']);
    expect((await messagesTo([waitsOne.customer_id], 'waitlist-spot-freed')).map((m) => m.channel)).toEqual(['email']);
    expect((await messagesTo([waitsTwo.customer_id], 'waitlist-spot-freed')).map((m) => m.channel)).toEqual(['email']);
  });

  it('a customer who drops their guest frees a place: the waitlist is told at once', async () => {
    await withSettings(server.db, { allow_class_guests: 'true' }, async () => {
      const classId = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 2, classType: 'Barre' });
      const [host] = await people(1, 2);
      const waiting = await people(1, 1);
      if (!host) throw new Error('fixtures');
      const booked = await call(server.app, 'POST', '/api/class_reservations', { token: host.token, body: { single_class_id: classId, guest: 'Lucía Invitada' } });
      expect(booked.status, booked.raw).toBe(200);
      await wait(classId, waiting);
      const id = booked.body.class_reservation.class_reservation_id as number;
      // Renaming the guest frees nothing; dropping them frees a place.
      expect((await call(server.app, 'PUT', '/api/class_reservations', { token: host.token, body: { class_reservation_id: id, guest: 'Lucía Otra' } })).status).toBe(200);
      expect(await messagesTo([waiting[0]?.customer_id ?? 0])).toHaveLength(0);
      const dropped = await call(server.app, 'PUT', '/api/class_reservations', { token: host.token, body: { class_reservation_id: id, guest: null } });
      expect(dropped.status, dropped.raw).toBe(200);
      expect((await messagesTo([waiting[0]?.customer_id ?? 0])).map((m) => m.kind)).toEqual(['waitlist-spot-freed']);
    });
  });

  it('a cancellation by a path without a message context is told by the next clock run, once', async () => {
    const { classId, bookers, reservations } = await fullClass(48 * 60);
    const waiting = await people(2, 1);
    await wait(classId, waiting);
    await cancelReservation(server.db, { reservationId: reservations[0] ?? 0, actor: { customerId: bookers[0]?.customer_id ?? 0, role: 'customer' }, mode: 'customer' });
    const ids = waiting.map((w) => w.customer_id);
    expect(await messagesTo(ids)).toHaveLength(0);
    expect(await runJob()).toBe(2);
    expect((await messagesTo(ids)).map((m) => m.kind)).toEqual(['waitlist-spot-freed', 'waitlist-spot-freed']);
    expect(await runJob()).toBe(0);
    expect(await messagesTo(ids)).toHaveLength(2);
  });

  it('two places freed in one transaction send each waiting customer one message', async () => {
    const { classId, bookers, reservations } = await fullClass(48 * 60, 2);
    const waiting = await people(2, 1);
    await wait(classId, waiting);
    const later = new Date(Date.now() + 60_000);
    await server.db.transaction(async (tx) => {
      await cancelReservation(tx, { reservationId: reservations[0] ?? 0, actor: { customerId: bookers[0]?.customer_id ?? 0, role: 'staff' }, mode: 'staff', messages: ctx() });
      await cancelReservation(tx, { reservationId: reservations[1] ?? 0, actor: { customerId: bookers[0]?.customer_id ?? 0, role: 'staff' }, mode: 'staff', messages: ctx(), now: later });
    });
    const rows = await messagesTo(waiting.map((w) => w.customer_id));
    expect(rows.map((m) => m.customer_id).sort()).toEqual(waiting.map((w) => w.customer_id).sort());
  });
});

describe('automatic promotion (waitlist_auto_promote on)', () => {
  const on = { waitlist_auto_promote: 'true', waitlist_promotion_cutoff_minutes: '60' };

  it('the first waiting customer with a usable credit is booked and charged by the clock, told which credit and the access code; those without one stay on the list', async () => {
    await withSettings(server.db, on, async () => {
      await runJob(); // the seed's waitlists, promoted first under the setting: the counts below are this test's
      const { classId, bookers, reservations } = await fullClass(3 * 60);
      const [broke] = await people(1, 0);
      const [paid, next] = await people(2, 2);
      if (!broke || !paid || !next) throw new Error('fixtures');
      await wait(classId, [broke, paid, next]);

      const res = await call(server.app, 'POST', `/api/class_reservations/${reservations[0]}/cancel`, { token: bookers[0]?.token });
      expect(res.status, res.raw).toBe(200);
      // Promotion applies: nobody is messaged at the cancellation, the clock does it.
      expect(await messagesTo([broke.customer_id, paid.customer_id, next.customer_id])).toHaveLength(0);

      const done = await runJob();
      expect(done).toBe(2); // one customer booked, one e-mail
      const live = await liveIn(classId);
      expect(live.map((r) => r.customer_id)).toEqual([paid.customer_id]);
      expect(await creditLeft(paid.available_class_id)).toBe(1);
      const left = await server.db.select({ customer_id: waitlist.customer_id }).from(waitlist).where(eq(waitlist.single_class_id, classId));
      expect(left.map((w) => w.customer_id).sort()).toEqual([broke.customer_id, next.customer_id].sort());

      const [promoted, ...others] = await messagesTo([broke.customer_id, paid.customer_id, next.customer_id]);
      expect(others).toHaveLength(0); // the class is full again: nobody else is told
      expect(promoted).toMatchObject({ customer_id: paid.customer_id, kind: 'waitlist-promoted', channel: 'email', subject: 'Tienes lugar en Barre' });
      expect(promoted?.body).toContain('ya te reservamos');
      expect(promoted?.body).toContain(`Código de acceso: ${live[0]?.access_code}`);
      expect(promoted?.body).toContain('Crédito usado: Créditos de clase (te queda 1 clase)');
      // The class is 3 h away and the default rule gives the credit back up to 12 h before: too late.
      expect(promoted?.body).toContain('si cancelas, el crédito no regresa');
      expect(promoted?.body).not.toContain('/mensajes/baja'); // transactional

      // Idempotent: a second run books nobody and sends nothing.
      expect(await runJob()).toBe(0);
      expect(await liveIn(classId)).toHaveLength(1);
    });
  });

  it('books only those who asked to be booked, in their order; the first in line who did not ask keeps her place and is told if a place stays free', async () => {
    await withSettings(server.db, on, async () => {
      await runJob(); // the seed's waitlists, promoted first under the setting: the counts below are this test's
      const { classId, bookers, reservations } = await fullClass(3 * 60, 2);
      const [first, asked] = await people(2, 2);
      if (!first || !asked) throw new Error('fixtures');
      await wait(classId, [first], false);
      await wait(classId, [asked]);
      for (const [i, r] of reservations.entries()) await call(server.app, 'POST', `/api/class_reservations/${r}/cancel`, { token: bookers[i]?.token });
      await runJob();
      expect((await liveIn(classId)).map((r) => r.customer_id)).toEqual([asked.customer_id]);
      expect(await creditLeft(first.available_class_id)).toBe(2);
      // One place is still free: she, who did not ask, is told (the spec's notify-all) and books it herself if she wants.
      expect((await messagesTo([first.customer_id])).map((m) => m.kind)).toEqual(['waitlist-spot-freed']);
      expect((await messagesTo([asked.customer_id])).map((m) => m.kind)).toEqual(['waitlist-promoted']);
    });
  });

  it('with a day to go, the promotion message says until when cancelling gives the credit back', async () => {
    await withSettings(server.db, on, async () => {
      await runJob(); // the seed's waitlists, promoted first under the setting: the counts below are this test's
      const { classId, bookers, reservations } = await fullClass(2 * 24 * 60);
      const [paid] = await people(1, 3);
      if (!paid) throw new Error('fixtures');
      await wait(classId, [paid]);
      await call(server.app, 'POST', `/api/class_reservations/${reservations[0]}/cancel`, { token: bookers[0]?.token });
      expect(await runJob()).toBe(2);
      const [promoted] = await messagesTo([paid.customer_id], 'waitlist-promoted');
      expect(promoted?.body).toMatch(/cancela en Mis Reservaciones antes del \d{2} \S+ \d{4} \d{2}:\d{2} y tu crédito regresa/);
      expect(promoted?.body).toContain('http://estudio.test/mystudio/reservaciones');
    });
  });

  it('when nobody waiting has a usable credit, everyone is told (notify-all) once and stays on the list', async () => {
    await withSettings(server.db, on, async () => {
      await runJob(); // the seed's waitlists, promoted first under the setting: the counts below are this test's
      const { classId, bookers, reservations } = await fullClass(3 * 60);
      const waiting = await people(2, 0);
      await wait(classId, waiting);
      await call(server.app, 'POST', `/api/class_reservations/${reservations[0]}/cancel`, { token: bookers[0]?.token });
      expect(await runJob()).toBe(2);
      const ids = waiting.map((w) => w.customer_id);
      expect((await messagesTo(ids)).map((m) => m.kind)).toEqual(['waitlist-spot-freed', 'waitlist-spot-freed']);
      expect(await liveIn(classId)).toHaveLength(0);
      expect(await runJob()).toBe(0);
      expect(await messagesTo(ids)).toHaveLength(2);
    });
  });

  it('after the cut-off the spec applies: the cancellation tells everyone at once and the clock books nobody', async () => {
    await withSettings(server.db, on, async () => {
      await runJob(); // the seed's waitlists, promoted first under the setting: the counts below are this test's
      const { classId, bookers, reservations } = await fullClass(40);
      const waiting = await people(2, 2);
      await wait(classId, waiting);
      await call(server.app, 'POST', `/api/class_reservations/${reservations[0]}/cancel`, { token: bookers[0]?.token });
      const ids = waiting.map((w) => w.customer_id);
      expect((await messagesTo(ids)).map((m) => m.kind)).toEqual(['waitlist-spot-freed', 'waitlist-spot-freed']);
      expect(await runJob()).toBe(0);
      expect(await liveIn(classId)).toHaveLength(0);
    });
  });
});
