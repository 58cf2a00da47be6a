import { cancellationRuleText, configMap, formatAccessCode, formatDate, studioTimeZone } from '@estudio/core';
import { classWhen } from '@estudio/core/messages/templates/bookings';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { discount, discount_use } from '@estudio/db/schema/discounts';
import { message_preference, outbox_message } from '@estudio/db/schema/outbox';
import { purchase } from '@estudio/db/schema/purchases';
import { class_reservation, class_reservation_penalty } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { markPurchasePaid } from '../../src/services/checkout/grant-purchase.ts';
import { bookingConfirmationsJob, bookingConfirmationsName } from '../../src/services/clock/booking-confirmations.ts';
import { classRemindersJob, classRemindersName } from '../../src/services/clock/class-reminders.ts';
import { expireHoldsJob, expireHoldsName } from '../../src/services/clock/expire-holds.ts';
import { noShowsJob, noShowsName } from '../../src/services/clock/no-shows.ts';
import { startClock, type Clock } from '../../src/services/clock/scheduler.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import {
  hour,
  jobRow,
  minute,
  newDiscount,
  outboxOf,
  pendingPurchase,
  plainPackage,
  reservationOf,
  silentLog,
  unlimitedCredit,
} from '../support/clock-fixtures.ts';
import { call, login, startTestServer, testSecret, type TestServer } from '../support/helpers.ts';
import { createBookers, newClass, withSettings, type Booker } from '../support/reservations-fixtures.ts';
import { newClientId, trpcMutation } from '../support/sync-helpers.ts';

/**
 * The booking side of the studio's clock (decision 021) on a real
 * migrated and seeded database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * confirmations, reminders, no-shows and their penalty, lapsed holds. Every
 * fixture is relative to the real clock and each job is run with an explicit
 * `now`, so the file holds on any day (the fin-de-año clock included).
 */
let server: TestServer;
let clock: Clock;
let staff: string;
let admin: string;
beforeAll(async () => {
  server = await startTestServer();
  clock = startClock({
    db: server.db,
    config: server.config,
    log: silentLog,
    timer: false,
    jobs: [bookingConfirmationsJob, classRemindersJob, noShowsJob, expireHoldsJob],
  });
  staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
}, 120_000);
afterAll(async () => {
  await clock?.stop();
  await server?.close();
});

const settingsNow = async () => configMap(await server.db.select({ key: app_config.key, value: app_config.value }).from(app_config));

async function bookers(count: number, prefix: string): Promise<Booker[]> {
  return createBookers(server.db, testSecret, count, { credits: 5, prefix: `${prefix}-${Date.now()}` });
}

describe('booking confirmations', () => {
  it('confirms bookings made after the clock started, from the portal and the front desk, once, with the access code, how to cancel, the .ics and the calendar feed', async () => {
    // The first run only notes where the studio is: the seed's bookings are not messaged.
    expect(await clock.runJob(bookingConfirmationsName, new Date())).toBe(0);
    const start = (await jobRow(server.db, bookingConfirmationsName))?.state as { after: number };
    expect(start.after).toBeGreaterThan(0);
    const seeded = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, start.after));
    expect(seeded).toHaveLength(1);
    expect(await outboxOf(server.db, `booking:${start.after}`)).toEqual([]);

    const [portal, desk, late] = await bookers(3, 'confirma');
    if (!portal || !desk || !late) throw new Error('bookers');
    await server.db.update(customer).set({ phone: '5587654321' }).where(eq(customer.customer_id, portal.customer_id));
    const classId = await newClass(server.db, { minutesAhead: 3 * 24 * 60, capacity: 10 });
    const startedId = await newClass(server.db, { minutesAhead: -5, capacity: 10 });

    const mine = await call(server.app, 'POST', '/api/class_reservations', { body: { single_class_id: classId }, token: portal.token });
    expect(mine.status).toBe(200);
    const byStaff = await call(server.app, 'POST', '/api/class_reservations', { body: { single_class_id: classId, customer_id: desk.customer_id }, token: staff });
    expect(byStaff.status).toBe(200);
    // A class already under way, and a booking cancelled before the run: no confirmation.
    const started = await reservationOf(server.db, late.customer_id, startedId);
    const cancelled = await call(server.app, 'POST', '/api/class_reservations', { body: { single_class_id: classId }, token: late.token });
    expect((await call(server.app, 'DELETE', `/api/class_reservations/${cancelled.body.class_reservation.class_reservation_id}`, { token: late.token })).status).toBe(200);

    const now = new Date();
    expect(await clock.runJob(bookingConfirmationsName, now)).toBe(2);
    const id = mine.body.class_reservation.class_reservation_id as number;
    const [reservation] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
    const settings = await settingsNow();
    const tz = studioTimeZone(settings);
    const rows = await outboxOf(server.db, `booking:${id}`);
    expect(rows.map((r) => r.channel).sort()).toEqual(['email', 'whatsapp']);
    const email = rows.find((r) => r.channel === 'email');
    const [prefs] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, portal.customer_id));
    expect(email).toMatchObject({ kind: 'booking-confirmation', customer_id: portal.customer_id, recipient: expect.stringContaining('@carrera.demo') });
    const classDate = new Date(Date.now() + 3 * 24 * hour);
    for (const expected of [
      'Indoor Cycling',
      formatAccessCode(reservation?.access_code ?? ''),
      'http://estudio.test/mystudio/reservaciones',
      cancellationRuleText(settings),
      `http://estudio.test/api/calendar/${prefs?.calendar_token}.ics`,
    ]) {
      expect(email?.body).toContain(expected);
      expect(email?.html).toContain(expected.replace(/&/g, '&amp;'));
    }
    // The class's date and time on the studio's clock (to the minute of the fixture).
    expect(email?.body).toMatch(new RegExp(classWhen(classDate, tz).replace(/\d\d$/, '\\d\\d')));
    const [invite] = email?.attachments ?? [];
    expect(invite?.filename).toBe('reservacion.ics');
    expect(invite?.content).toContain(`UID:reservacion-${id}@estudio.test`);
    expect(invite?.content).toMatch(/DTSTART:\d{8}T\d{6}Z/);
    const whatsapp = rows.find((r) => r.channel === 'whatsapp');
    expect(whatsapp?.recipient).toContain('5587654321');
    expect(whatsapp?.whatsapp_template?.name).toBe('estudio_confirmacion');
    expect(whatsapp?.whatsapp_template?.parameters).toContain(formatAccessCode(reservation?.access_code ?? ''));

    const staffBooked = byStaff.body.class_reservation.class_reservation_id as number;
    expect((await outboxOf(server.db, `booking:${staffBooked}`)).map((r) => r.channel)).toEqual(['email']);
    expect(await outboxOf(server.db, `booking:${started.class_reservation_id}`)).toEqual([]);
    expect(await outboxOf(server.db, `booking:${cancelled.body.class_reservation.class_reservation_id}`)).toEqual([]);

    // Again, and again after the watermark passed them: nothing more.
    expect(await clock.runJob(bookingConfirmationsName, new Date(now.getTime() + 1_000))).toBe(0);
    expect(await clock.runJob(bookingConfirmationsName, new Date(now.getTime() + 2 * minute))).toBe(0);
    expect(((await jobRow(server.db, bookingConfirmationsName))?.state as { after: number }).after).toBeGreaterThanOrEqual(staffBooked);
    expect(await outboxOf(server.db, `booking:${id}`)).toHaveLength(2);
  });

  it('does not confirm again a booking that the waitlist promotion already told the customer about', async () => {
    // The clock has noted where the studio is (as the first test does when run alone).
    await clock.runJob(bookingConfirmationsName, new Date());
    const [who] = await bookers(1, 'promovido');
    if (!who) throw new Error('booker');
    const classId = await newClass(server.db, { minutesAhead: 2 * 24 * 60, capacity: 10 });
    const promoted = await reservationOf(server.db, who.customer_id, classId);
    const [person] = await server.db.select().from(customer).where(eq(customer.customer_id, who.customer_id));
    await server.db.insert(outbox_message).values({
      channel: 'email',
      recipient: person?.email ?? '',
      kind: 'waitlist-promoted',
      customer_id: who.customer_id,
      subject: 'Te asignamos un lugar',
      body: 'Te asignamos un lugar',
      dedupe_key: `waitlist-promoted:${promoted.class_reservation_id}:email`,
    });
    expect(await clock.runJob(bookingConfirmationsName, new Date())).toBe(0);
    expect(await outboxOf(server.db, `booking:${promoted.class_reservation_id}`)).toEqual([]);
  });

  it('sends nothing while confirmations are off, and does not catch up when they are turned on again', async () => {
    const [who] = await bookers(1, 'apagado');
    if (!who) throw new Error('booker');
    const classId = await newClass(server.db, { minutesAhead: 2 * 24 * 60, capacity: 10 });
    let id = 0;
    await withSettings(server.db, { booking_confirmations_enabled: 'false' }, async () => {
      const res = await call(server.app, 'POST', '/api/class_reservations', { body: { single_class_id: classId }, token: who.token });
      id = res.body.class_reservation.class_reservation_id as number;
      expect(await clock.runJob(bookingConfirmationsName, new Date())).toBe(0);
    });
    expect(await clock.runJob(bookingConfirmationsName, new Date())).toBe(0);
    expect(await outboxOf(server.db, `booking:${id}`)).toEqual([]);
  });
});

describe('class reminders', () => {
  it('reminds bookings made before the window opened, once; not those booked inside it, nor classes further ahead', async () => {
    const [early, recent, ahead, off] = await bookers(4, 'recuerda');
    if (!early || !recent || !ahead || !off) throw new Error('bookers');
    const soon = await newClass(server.db, { minutesAhead: 90, capacity: 10 });
    const later = await newClass(server.db, { minutesAhead: 4 * 60, capacity: 10 });
    const r1 = await reservationOf(server.db, early.customer_id, soon, { bookedMinutesAgo: 24 * 60 });
    const r2 = await reservationOf(server.db, recent.customer_id, soon, { bookedMinutesAgo: 10 });
    const r3 = await reservationOf(server.db, ahead.customer_id, later, { bookedMinutesAgo: 24 * 60 });
    const cancelled = await reservationOf(server.db, off.customer_id, soon, { bookedMinutesAgo: 24 * 60, cancelled: true });

    const now = new Date();
    await clock.runJob(classRemindersName, now);
    const [email] = await outboxOf(server.db, `reminder:${r1.class_reservation_id}`);
    expect(email).toMatchObject({ kind: 'class-reminder', customer_id: early.customer_id });
    expect(email?.body).toContain('empieza en 2 horas');
    expect(email?.body).toContain(formatAccessCode(r1.access_code));
    // Optional: it carries the customer's stop link.
    expect(email?.body).toContain('http://estudio.test/mensajes/baja?token=');
    expect(await outboxOf(server.db, `reminder:${r2.class_reservation_id}`)).toEqual([]);
    expect(await outboxOf(server.db, `reminder:${r3.class_reservation_id}`)).toEqual([]);
    expect(await outboxOf(server.db, `reminder:${cancelled.class_reservation_id}`)).toEqual([]);

    // A minute later: not again. Three hours later the later class is inside its window.
    await clock.runJob(classRemindersName, new Date(now.getTime() + minute));
    expect(await outboxOf(server.db, `reminder:${r1.class_reservation_id}`)).toHaveLength(1);
    await clock.runJob(classRemindersName, new Date(now.getTime() + 2 * hour + 30 * minute));
    expect(await outboxOf(server.db, `reminder:${r3.class_reservation_id}`)).toHaveLength(1);
  });

  it('follows reminder_hours_before and the off switch', async () => {
    const [who, other] = await bookers(2, 'recuerda-horas');
    if (!who || !other) throw new Error('bookers');
    const classId = await newClass(server.db, { minutesAhead: 5 * 60, capacity: 10 });
    const r = await reservationOf(server.db, who.customer_id, classId, { bookedMinutesAgo: 3 * 24 * 60 });
    const r2 = await reservationOf(server.db, other.customer_id, classId, { bookedMinutesAgo: 3 * 24 * 60 });
    await withSettings(server.db, { reminders_enabled: 'false', reminder_hours_before: '6' }, async () => {
      await clock.runJob(classRemindersName, new Date());
    });
    expect(await outboxOf(server.db, `reminder:${r.class_reservation_id}`)).toEqual([]);
    await withSettings(server.db, { reminder_hours_before: '6' }, async () => {
      await clock.runJob(classRemindersName, new Date());
    });
    const [email] = await outboxOf(server.db, `reminder:${r.class_reservation_id}`);
    expect(email?.body).toContain('empieza en 5 horas');
    expect(await outboxOf(server.db, `reminder:${r2.class_reservation_id}`)).toHaveLength(1);
  });
});

describe('no-shows', () => {
  it('marks live reservations without attendance once the check-in window closed; a later check-in (desk sync, staff) clears the mark', async () => {
    const [absent, present, cancelledOne, stillOpen, syncLate, staffLate] = await bookers(6, 'falta');
    if (!absent || !present || !cancelledOne || !stillOpen || !syncLate || !staffLate) throw new Error('bookers');
    // Check-in closes 30 minutes after the end (the desk's default): these classes closed 10 minutes ago, that one closes in 10.
    const closed = await newClass(server.db, { minutesAhead: -(50 + 30 + 10), capacity: 10, durationMinutes: 50 });
    const open = await newClass(server.db, { minutesAhead: -(50 + 30 - 10), capacity: 10, durationMinutes: 50 });
    const a = await reservationOf(server.db, absent.customer_id, closed, { bookedMinutesAgo: 600 });
    const p = await reservationOf(server.db, present.customer_id, closed, { bookedMinutesAgo: 600, attend: true });
    const c = await reservationOf(server.db, cancelledOne.customer_id, closed, { bookedMinutesAgo: 600, cancelled: true });
    const o = await reservationOf(server.db, stillOpen.customer_id, open, { bookedMinutesAgo: 600 });
    const s = await reservationOf(server.db, syncLate.customer_id, closed, { bookedMinutesAgo: 600 });
    const t = await reservationOf(server.db, staffLate.customer_id, closed, { bookedMinutesAgo: 600 });

    const now = new Date();
    await clock.runJob(noShowsName, now);
    const state = async (ids: number[]) =>
      new Map(
        (await server.db.select().from(class_reservation).where(inArray(class_reservation.class_reservation_id, ids))).map((r) => [r.class_reservation_id, r.noShowAt?.getTime() ?? null]),
      );
    let marks = await state([a, p, c, o, s, t].map((r) => r.class_reservation_id));
    expect(marks.get(a.class_reservation_id)).toBe(now.getTime());
    expect(marks.get(s.class_reservation_id)).toBe(now.getTime());
    expect(marks.get(p.class_reservation_id)).toBeNull();
    expect(marks.get(c.class_reservation_id)).toBeNull();
    expect(marks.get(o.class_reservation_id)).toBeNull();
    // Twice: the first mark stays.
    await clock.runJob(noShowsName, new Date(now.getTime() + minute));
    expect((await state([a.class_reservation_id])).get(a.class_reservation_id)).toBe(now.getTime());

    // The desk checked them in offline inside the window and syncs now; staff mark attendance after the class.
    // At the class's start: a check-in 20 minutes later fell on the next studio day for a class begun just before
    // midnight in Mexico City (a run at 01:20 there), which the desk rightly refuses as another day's.
    const [{ class_date: classStart } = { class_date: new Date() }] = await server.db.select({ class_date: single_class.class_date }).from(single_class).where(eq(single_class.single_class_id, closed));
    const push = await trpcMutation(
      server.app,
      'sync.push',
      { clientId: newClientId(), mutations: [{ id: 1, name: 'checkIn', args: { class_reservation_id: s.class_reservation_id, at: classStart.toISOString() } }] },
      staff,
    );
    expect(push.body.result.data.results).toEqual([{ id: 1, status: 'applied' }]);
    const put = await call(server.app, 'PUT', '/api/class_reservations', { body: { class_reservation_id: t.class_reservation_id, attend: true }, token: admin });
    expect(put.status).toBe(200);
    marks = await state([s.class_reservation_id, t.class_reservation_id]);
    expect(marks.get(s.class_reservation_id)).toBeNull();
    expect(marks.get(t.class_reservation_id)).toBeNull();
    // Attended now: never marked again.
    await clock.runJob(noShowsName, new Date(now.getTime() + 2 * minute));
    expect((await state([s.class_reservation_id])).get(s.class_reservation_id)).toBeNull();
  });

  it("penalises an unlimited member at once when the no-shows reach the studio's threshold, and tells them when they can book again", async () => {
    const [member] = await bookers(1, 'falta-ilimitada');
    if (!member) throw new Error('booker');
    const credit = await unlimitedCredit(server.db, member.customer_id);
    // Three classes in a row, each ended before its check-in window closed; the last one closed 5 minutes ago.
    const ids: number[] = [];
    for (const hoursAgo of [50, 26, 0]) {
      const classId = await newClass(server.db, { minutesAhead: -(hoursAgo * 60 + 50 + 30 + 5), capacity: 10, durationMinutes: 50 });
      ids.push((await reservationOf(server.db, member.customer_id, classId, { bookedMinutesAgo: hoursAgo * 60 + 600, credit })).class_reservation_id);
    }
    const now = new Date();
    expect(await clock.runJob(noShowsName, now)).toBeGreaterThanOrEqual(3);
    const penalties = await server.db.select().from(class_reservation_penalty).where(eq(class_reservation_penalty.customer_id, member.customer_id));
    expect(penalties).toHaveLength(1);
    const [penalty] = penalties;
    expect(penalty?.no_shows).toBe(3);
    const [email] = await outboxOf(server.db, `penalty:${penalty?.class_reservation_penalty_id}`);
    expect(email?.kind).toBe('no-show-penalty');
    const tz = studioTimeZone(await settingsNow());
    expect(email?.body).toContain(`Podrás volver a reservar a partir del ${formatDate(penalty?.end_date ?? now, tz)}.`);
    // The next run finds the penalty active: no second one, no second message.
    await clock.runJob(noShowsName, new Date(now.getTime() + minute));
    expect(await server.db.select().from(class_reservation_penalty).where(eq(class_reservation_penalty.customer_id, member.customer_id))).toHaveLength(1);
    // Booking with the membership is refused now, not only after the next attempt creates it.
    const future = await newClass(server.db, { minutesAhead: 3 * 24 * 60, capacity: 10 });
    const refused = await call(server.app, 'POST', '/api/class_reservations', { body: { single_class_id: future }, token: member.token });
    expect(refused.status).toBe(412);
  });
});

describe('lapsed holds', () => {
  it('fails lapsed holds, gives their discount use back once, tells the cash customer with a link to buy again; a live hold stays', async () => {
    const [cash, card, fresh, old] = await bookers(4, 'apartado');
    if (!cash || !card || !fresh || !old) throw new Error('bookers');
    const pkg = await plainPackage(server.db);
    const code = await newDiscount(server.db, `RELOJ${Date.now()}`);
    // cash_hold_hours 24 and card_hold_minutes 30 (the defaults).
    const lapsedCash = await pendingPurchase(server.db, { customerId: cash.customer_id, packageId: pkg.class_package_id, title: pkg.title, provider: 'cash', minutesAgo: 25 * 60, discountId: code.discount_id });
    const lapsedCard = await pendingPurchase(server.db, { customerId: card.customer_id, packageId: pkg.class_package_id, title: pkg.title, provider: 'stripe', minutesAgo: 45 });
    const liveCash = await pendingPurchase(server.db, { customerId: fresh.customer_id, packageId: pkg.class_package_id, title: pkg.title, provider: 'cash', minutesAgo: 60, discountId: code.discount_id });
    const monthOld = await pendingPurchase(server.db, { customerId: old.customer_id, packageId: pkg.class_package_id, title: pkg.title, provider: 'cash', minutesAgo: 30 * 24 * 60 });
    const usesBefore = 2;
    expect((await server.db.select().from(discount).where(eq(discount.discount_id, code.discount_id)))[0]?.uses).toBe(usesBefore);

    const now = new Date();
    expect(await clock.runJob(expireHoldsName, now)).toBeGreaterThanOrEqual(3);
    const statuses = new Map(
      (await server.db.select().from(purchase).where(inArray(purchase.purchase_id, [lapsedCash, lapsedCard, liveCash, monthOld].map((p) => p.purchase_id)))).map((p) => [p.purchase_id, p.status]),
    );
    expect(statuses.get(lapsedCash.purchase_id)).toBe('failed');
    expect(statuses.get(lapsedCard.purchase_id)).toBe('failed');
    expect(statuses.get(monthOld.purchase_id)).toBe('failed');
    expect(statuses.get(liveCash.purchase_id)).toBe('pending');
    const uses = async () => (await server.db.select().from(discount).where(eq(discount.discount_id, code.discount_id)))[0]?.uses;
    expect(await uses()).toBe(usesBefore - 1);
    expect(await server.db.select().from(discount_use).where(eq(discount_use.purchase_id, lapsedCash.purchase_id))).toEqual([]);

    const [email] = await outboxOf(server.db, `hold-expired:${lapsedCash.purchase_id}`);
    expect(email?.kind).toBe('hold-expired');
    expect(email?.body).toContain('Tu compra apartada en efectivo venció');
    expect(email?.body).toContain(`http://estudio.test/checkout/${pkg.class_package_id}`);
    expect(await outboxOf(server.db, `hold-expired:${lapsedCard.purchase_id}`)).toEqual([]);
    expect(await outboxOf(server.db, `hold-expired:${monthOld.purchase_id}`)).toEqual([]);
    // Mis Compras no longer lists it.
    const mine = await call(server.app, 'GET', '/api/purchases', { token: cash.token });
    expect(JSON.stringify(mine.body)).not.toContain(`"purchase_id":${lapsedCash.purchase_id},`);

    // Again: nothing more, the use is not given back twice.
    expect(await clock.runJob(expireHoldsName, new Date(now.getTime() + minute))).toBe(0);
    expect(await uses()).toBe(usesBefore - 1);
    expect(await outboxOf(server.db, `hold-expired:${lapsedCash.purchase_id}`)).toHaveLength(1);

    // Staff may still collect the lapsed cash purchase (decision 015): it takes its use again, once.
    const paid = await server.db.transaction((tx) => markPurchasePaid(tx, lapsedCash.purchase_id, { messages: messageContextOf(server.config) }));
    expect(paid.paidNow).toBe(true);
    expect(await uses()).toBe(usesBefore);
  });
});
