import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { configMap, domainErrors, guestRuleText } from '@estudio/core';
import { app_config } from '@estudio/db/schema/app-config';
import { page } from '@estudio/db/schema/content';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { call, testSecret, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { createBookers, newClass, withSettings } from '../support/reservations-fixtures.ts';

/**
 * Points 6, 7 and 12 on the real app over a migrated database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL): a guest takes a seat and,
 * when the studio says so (guest_uses_credit), one more credit; a second
 * cancel of the same reservation is refused and gives nothing back twice;
 * the schedule says whether the caller may book a package-only class, and
 * the server refuses a class whose booking has not opened.
 */
let server: TestServer;
let ilimitado: string;
let secret: string;

demoStudio(['ilimitado'], (s) => ({ server, tokens: { ilimitado } } = s));
beforeAll(async () => {
  secret = testSecret;
}, 120_000);

const book = (token: string, body: Record<string, unknown>) => call(server.app, 'POST', '/api/class_reservations', { token, body });
const put = (token: string, body: Record<string, unknown>) => call(server.app, 'PUT', '/api/class_reservations', { token, body });
const cancel = (token: string, id: number) => call(server.app, 'POST', `/api/class_reservations/${id}/cancel`, { token });
const errorOf = (code: keyof typeof domainErrors) => ({ code, message: domainErrors[code].message });

async function creditOf(id: number) {
  const [row] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, id));
  if (!row) throw new Error('no credit');
  return row;
}

let people = 0;
/** A customer of this test with `credits` class credits in one row. */
async function booker(credits: number) {
  const [one] = await createBookers(server.db, secret, 1, { credits, prefix: `invitados-${Date.now()}-${people++}` });
  if (!one) throw new Error('no booker');
  return one;
}

describe('a guest on a seat-mapped class', () => {
  it('needs a seat of their own, which the seat map then shows as taken', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 16, classType: 'Indoor Cycling' });
    const ana = await booker(5);
    expect((await book(ana.token, { single_class_id: id, spot: 3, guest: 'Laura Medina' })).body).toEqual(errorOf('booking/guest-spot-required'));
    expect((await book(ana.token, { single_class_id: id, spot: 3, guest: 'Laura Medina', guest_spot: 3 })).body).toEqual(errorOf('booking/guest-spot-invalid'));
    expect((await book(ana.token, { single_class_id: id, spot: 3, guest: 'Laura Medina', guest_spot: 99 })).body).toEqual(errorOf('booking/spot-invalid'));
    expect((await book(ana.token, { single_class_id: id, spot: 3, guest_spot: 4 })).body).toEqual(errorOf('booking/guest-spot-invalid'));

    const booked = await book(ana.token, { single_class_id: id, spot: 3, guest: 'Laura Medina', guest_spot: 4 });
    expect(booked.status).toBe(200);
    expect(booked.body.class_reservation).toMatchObject({ spot: 3, guest: 'Laura Medina', guest_spot: 4 });

    const seen = await call(server.app, 'GET', `/api/single_class/single/${id}`, { token: ana.token });
    expect(seen.body.single_class.taken_spots).toEqual([3, 4]);
    expect(seen.body.single_class.reservation_count).toBe(2);
    expect(seen.body.single_class.class_reservations[0]).toMatchObject({ spot: 3, guest: 'Laura Medina', guest_spot: 4 });

    // Neither seat is anyone else's: not as their own, not for their guest.
    const beto = await booker(5);
    expect((await book(beto.token, { single_class_id: id, spot: 4 })).body).toEqual(errorOf('booking/spot-taken'));
    expect((await book(beto.token, { single_class_id: id, spot: 5, guest: 'Pablo Ríos', guest_spot: 3 })).body).toEqual(errorOf('booking/spot-taken'));

    // Moving the guest to another seat frees the old one; dropping the guest frees the seat and the place.
    const rid = booked.body.class_reservation.class_reservation_id as number;
    expect((await put(ana.token, { class_reservation_id: rid, guest_spot: 6 })).body.class_reservation.guest_spot).toBe(6);
    expect((await book(beto.token, { single_class_id: id, spot: 4 })).status).toBe(200);
    const dropped = await put(ana.token, { class_reservation_id: rid, guest: null });
    expect(dropped.body.class_reservation).toMatchObject({ guest: null, guest_spot: null });
    const after = await call(server.app, 'GET', `/api/single_class/single/${id}`, { token: ana.token });
    expect(after.body.single_class.taken_spots).toEqual([3, 4]);
  });
});

describe('what a guest costs (guest_uses_credit)', () => {
  it('on (the demo studio): the guest takes one more credit, and cancelling in time gives both back', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });
    const ana = await booker(3);
    const booked = await book(ana.token, { single_class_id: id, guest: 'Laura Medina' });
    expect(booked.status).toBe(200);
    expect(booked.body.class_reservation.guest_available_class_id).toBe(ana.available_class_id);
    expect((await creditOf(ana.available_class_id)).available_classes).toBe(1);

    const cancelled = await cancel(ana.token, booked.body.class_reservation.class_reservation_id);
    expect(cancelled.status).toBe(200);
    const credit = await creditOf(ana.available_class_id);
    expect(credit.available_classes).toBe(3);
    // One cancellation used, for the booking, not one per person.
    expect(credit.cancels_used).toBe(1);
  });

  it('on: cancelling late (less than the 12 hours’ notice, late cancelling allowed) gives neither class back, the booker’s nor the guest’s', async () => {
    // Six hours ahead: inside the demo studio's 12-hour notice; allow_cancel_after_treshold lets her cancel, the studio keeps the classes.
    const id = await newClass(server.db, { minutesAhead: 6 * 60, capacity: 10, classType: 'Yoga' });
    const ana = await booker(3);
    const booked = await book(ana.token, { single_class_id: id, guest: 'Laura Medina' });
    expect(booked.status).toBe(200);
    expect(booked.body.class_reservation.guest_available_class_id).toBe(ana.available_class_id);
    expect((await creditOf(ana.available_class_id)).available_classes).toBe(1);

    const cancelled = await cancel(ana.token, booked.body.class_reservation.class_reservation_id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.credit_returned).toBe(false);
    const credit = await creditOf(ana.available_class_id);
    expect(credit.available_classes).toBe(1);
    // A late cancel uses none of her cancellations: nothing came back.
    expect(credit.cancels_used).toBe(0);
    // Her balance as she reads it in the portal: one class left.
    const mine = await call(server.app, 'GET', '/api/available_classes', { token: ana.token });
    expect(mine.body.available_classes.find((c: { available_class_id: number }) => c.available_class_id === ana.available_class_id)).toMatchObject({ available_classes: 1 });
  });

  it('on: the guest’s class is paid from a second credit row, and a late cancel keeps that one too', async () => {
    const id = await newClass(server.db, { minutesAhead: 6 * 60, capacity: 10, classType: 'Yoga' });
    // One class in a row that expires in a month, three in one that expires in two: the booker's place takes the first to expire, the guest's the other.
    const ana = await booker(1);
    await server.db.update(available_classes).set({ expiration_date: new Date(Date.now() + 30 * 86_400_000) }).where(eq(available_classes.available_class_id, ana.available_class_id));
    await server.db.insert(available_classes).values({ customer_id: ana.customer_id, available_classes: 3, expiration_date: new Date(Date.now() + 60 * 86_400_000) });
    const booked = await book(ana.token, { single_class_id: id, guest: 'Laura Medina' });
    expect(booked.status).toBe(200);
    const { available_class_id: bookerCredit, guest_available_class_id: guestCredit } = booked.body.class_reservation as { available_class_id: number; guest_available_class_id: number };
    expect(bookerCredit).toBe(ana.available_class_id);
    expect(guestCredit).not.toBe(bookerCredit);
    expect((await creditOf(bookerCredit)).available_classes).toBe(0);
    expect((await creditOf(guestCredit)).available_classes).toBe(2);

    const cancelled = await cancel(ana.token, booked.body.class_reservation.class_reservation_id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.credit_returned).toBe(false);
    expect((await creditOf(bookerCredit)).available_classes).toBe(0);
    expect((await creditOf(guestCredit)).available_classes).toBe(2);
  });

  it('on, with one credit left: the booking with a guest is refused and nothing is spent', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });
    const ana = await booker(1);
    expect((await book(ana.token, { single_class_id: id, guest: 'Laura Medina' })).body).toEqual(errorOf('booking/guest-no-credits'));
    expect((await creditOf(ana.available_class_id)).available_classes).toBe(1);
    const live = await server.db
      .select()
      .from(class_reservation)
      .where(and(eq(class_reservation.single_class_id, id), isNull(class_reservation.deletedAt)));
    expect(live).toHaveLength(0);
  });

  it('on: an unlimited membership is its holder’s alone — a guest needs a class credit', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });
    expect((await book(ilimitado, { single_class_id: id, guest: 'Laura Medina' })).body).toEqual(errorOf('booking/guest-no-credits'));
  });

  it('on: adding a guest later spends the credit, dropping the guest gives it back', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });
    const ana = await booker(2);
    const booked = await book(ana.token, { single_class_id: id });
    const rid = booked.body.class_reservation.class_reservation_id as number;
    expect((await creditOf(ana.available_class_id)).available_classes).toBe(1);
    expect((await put(ana.token, { class_reservation_id: rid, guest: 'Tania Ortega' })).status).toBe(200);
    expect((await creditOf(ana.available_class_id)).available_classes).toBe(0);
    // Renaming the guest costs nothing more.
    expect((await call(server.app, 'PUT', '/api/single_class/guest', { token: ana.token, body: { class_reservation_id: rid, name: 'Tania Ortega Ruiz' } })).status).toBe(200);
    expect((await creditOf(ana.available_class_id)).available_classes).toBe(0);
    expect((await put(ana.token, { class_reservation_id: rid, guest: null })).status).toBe(200);
    expect((await creditOf(ana.available_class_id)).available_classes).toBe(1);
    // The spec's guest call adds a guest under the same rule.
    expect((await call(server.app, 'PUT', '/api/single_class/guest', { token: ana.token, body: { class_reservation_id: rid, name: 'Tania Ortega' } })).status).toBe(200);
    expect((await creditOf(ana.available_class_id)).available_classes).toBe(0);
  });

  it('off: the guest comes free, only the booker’s credit is spent', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });
    const ana = await booker(1);
    await withSettings(server.db, { guest_uses_credit: 'false' }, async () => {
      const booked = await book(ana.token, { single_class_id: id, guest: 'Laura Medina' });
      expect(booked.status).toBe(200);
      expect(booked.body.class_reservation.guest_available_class_id).toBeNull();
    });
    expect((await creditOf(ana.available_class_id)).available_classes).toBe(0);
  });
});

describe("the demo studio's FAQ", () => {
  it('says what a guest costs as the studio’s setting does', async () => {
    const config = configMap(await server.db.select().from(app_config));
    const [faq] = await server.db.select().from(page).where(eq(page.slug, 'preguntas-frecuentes'));
    expect(config.guest_uses_credit).toBe('true');
    expect(faq?.content).toContain(guestRuleText(config));
  });
});

describe('cancelling twice', () => {
  it('the second cancel, sent at the same moment, is refused as already cancelled and gives nothing back twice', async () => {
    const id = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });
    const ana = await booker(2);
    const booked = await book(ana.token, { single_class_id: id });
    const rid = booked.body.class_reservation.class_reservation_id as number;
    const [first, second] = await Promise.all([cancel(ana.token, rid), cancel(ana.token, rid)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    expect([first, second].find((r) => r.status === 409)?.body).toEqual(errorOf('reservation/already-cancelled'));
    const credit = await creditOf(ana.available_class_id);
    expect(credit.available_classes).toBe(2);
    expect(credit.cancels_used).toBe(1);
  });
});

describe('what the schedule tells before the click', () => {
  it('package_access: false on a package-only class for a customer without its package, true on other classes', async () => {
    const [special] = await server.db.select({ id: single_class.single_class_id, pkg: single_class.class_package_id }).from(single_class).where(isNotNull(single_class.class_package_id)).limit(1);
    expect(special?.pkg, 'the demo has a package-only class').toBeTruthy();
    const ana = await booker(1);
    const seen = await call(server.app, 'GET', `/api/single_class/single/${special?.id}`, { token: ana.token });
    expect(seen.body.single_class.package_access).toBe(false);
    const plain = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });
    expect((await call(server.app, 'GET', `/api/single_class/single/${plain}`, { token: ana.token })).body.single_class.package_access).toBe(true);
  });

  it('reservation_opens_days: a class further ahead than that is refused as not open yet', async () => {
    const id = await newClass(server.db, { minutesAhead: 5 * 24 * 60, capacity: 10, classType: 'Yoga' });
    const ana = await booker(1);
    await withSettings(server.db, { reservation_opens_days: '2' }, async () => {
      expect((await book(ana.token, { single_class_id: id })).body).toEqual(errorOf('booking/not-open-yet'));
    });
    expect((await book(ana.token, { single_class_id: id })).status).toBe(200);
  });
});
