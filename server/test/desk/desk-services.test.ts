import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultStudioTimeZone, DomainError, localDate } from '@estudio/core';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { checkIn } from '../../src/services/desk/check-in.ts';
import { markCashPurchasePaid } from '../../src/services/desk/mark-purchase-paid.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { markReservationPaid } from '../../src/services/desk/mark-reservation-paid.ts';
import { walkIn } from '../../src/services/desk/walk-in.ts';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { creditTotal, customerId, newClass } from '../support/reservations-fixtures.ts';
import { minutesAheadToday } from '../support/sync-helpers.ts';
import type { StaffActor } from '../../src/services/permissions/staff-permissions.ts';

/** The front desk's services, with the demo seed, as the desk's push and the spec's /api routes reach them. */
let server: TestServer;
let staff: string;
let clienteToken: string;
let clienteId: number;
let nuevoId: number;
/** The receptionist as the services see her from a desk's push. */
let deskStaff: StaffActor;

demoStudio(['recepcion', 'cliente'], (s) => ({ server, tokens: { recepcion: staff, cliente: clienteToken } } = s));
beforeAll(async () => {
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
  nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
  deskStaff = { customer_id: await customerId(server.db, 'recepcion@estudio.demo') };
}, 60_000);

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('expected a DomainError');
}

async function reserve(classId: number, values: Partial<typeof class_reservation.$inferInsert> = {}): Promise<number> {
  const [row] = await server.db
    .insert(class_reservation)
    .values({ single_class_id: classId, customer_id: clienteId, ...values })
    .returning();
  if (!row) throw new Error('no reservation');
  return row.class_reservation_id;
}

async function reservation(id: number) {
  const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
  if (!row) throw new Error(`no reservation ${id}`);
  return row;
}

async function packageId(title: string): Promise<number> {
  const [row] = await server.db.select({ id: class_package.class_package_id }).from(class_package).where(eq(class_package.title, title));
  if (!row) throw new Error(`no package ${title}`);
  return row.id;
}

describe('check-in', () => {
  it('marks today’s reservation attended at the scan time, and a second scan keeps the first time', async () => {
    const id = await reserve(await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 }));
    const at = new Date(Date.now() - 60_000);
    const first = await checkIn(server.db, deskStaff, { class_reservation_id: id, at: at.toISOString() });
    expect(first).toMatchObject({ attend: true });
    expect(first.attendedAt?.getTime()).toBe(at.getTime());
    const again = await checkIn(server.db, deskStaff, { class_reservation_id: id });
    expect(again.attendedAt?.getTime()).toBe(at.getTime());
  });

  it('refuses an unknown reservation, a cancelled one, a cancelled class and another day', async () => {
    expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: 999_999 }))).toBe('reservation/not-found');

    const today = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 });
    const cancelled = await reserve(today, { deletedAt: new Date() });
    expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: cancelled }))).toBe('checkin/reservation-cancelled');

    const cancelledClass = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 });
    await server.db.update(single_class).set({ cancelledAt: new Date() }).where(eq(single_class.single_class_id, cancelledClass));
    expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: await reserve(cancelledClass) }))).toBe('checkin/class-cancelled');

    const tomorrow = await reserve(await newClass(server.db, { minutesAhead: 26 * 60, capacity: 10 }));
    expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: tomorrow }))).toBe('checkin/wrong-day');
    // Made offline yesterday and sent today: judged by the day it was scanned.
    const todays = await reserve(await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 }));
    const yesterday = new Date(Date.now() - 24 * 3_600_000).toISOString();
    expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: todays, at: yesterday }))).toBe('checkin/wrong-day');
    expect((await reservation(todays)).attend).toBe(false);
  });

  it('refuses a scan time well in the future (a desk clock that is wrong), but tolerates a few seconds', async () => {
    const id = await reserve(await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 }));
    const later = new Date(Date.now() + 10 * 60_000).toISOString();
    expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: id, at: later }))).toBe('checkin/time-in-future');
    const skew = new Date(Date.now() + 30_000);
    const done = await checkIn(server.db, deskStaff, { class_reservation_id: id, at: skew.toISOString() });
    expect(done.attendedAt?.getTime()).toBe(skew.getTime());
  });
});

describe('check-in window (decision 016)', () => {
  const hour = 3_600_000;
  /** A scan time ≤ now and a class start `gapMs` away from it, on the same studio day (so only the window can refuse). */
  function sameDay(gapMs: number): { at: Date; start: Date } {
    let at = new Date(Date.now() - 5 * 60_000);
    while (localDate(new Date(at.getTime() - gapMs), defaultStudioTimeZone) !== localDate(at, defaultStudioTimeZone)) at = new Date(at.getTime() - hour);
    return { at, start: new Date(at.getTime() - gapMs) };
  }
  async function classAt(start: Date): Promise<number> {
    const id = await newClass(server.db, { minutesAhead: 60, capacity: 10 });
    await server.db.update(single_class).set({ class_date: start, duration_minutes: 50 }).where(eq(single_class.single_class_id, id));
    return id;
  }

  it('refuses a check-in 7 hours after the class (by the scan time `at`, also when sent later)', async () => {
    const { at, start } = sameDay(7 * hour);
    const id = await reserve(await classAt(start));
    expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: id, at: at.toISOString() }))).toBe('checkin/too-late');
    expect((await reservation(id)).attend).toBe(false);
    // Scanned offline 20 minutes after it started, sent now: admitted.
    const inTime = new Date(start.getTime() + 20 * 60_000);
    expect((await checkIn(server.db, deskStaff, { class_reservation_id: id, at: inTime.toISOString() })).attendedAt?.getTime()).toBe(inTime.getTime());
    // A replay after the window closed keeps the first time and succeeds (a second desk, a retried push).
    expect((await checkIn(server.db, deskStaff, { class_reservation_id: id, at: at.toISOString() })).attendedAt?.getTime()).toBe(inTime.getTime());
  });

  it('closes 30 minutes after the class ends and opens 60 minutes before it starts, ends included', async () => {
    const { at, start } = sameDay(3 * hour);
    const classId = await classAt(start);
    const lastMinute = new Date(start.getTime() + 80 * 60_000);
    const tooLate = new Date(lastMinute.getTime() + 1000);
    const r1 = await reserve(classId);
    expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: r1, at: tooLate.toISOString() }))).toBe('checkin/too-late');
    expect((await checkIn(server.db, deskStaff, { class_reservation_id: r1, at: lastMinute.toISOString() })).attend).toBe(true);
    const r2 = await reserve(classId);
    const opens = new Date(start.getTime() - 60 * 60_000);
    if (localDate(opens, defaultStudioTimeZone) === localDate(start, defaultStudioTimeZone)) {
      expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: r2, at: new Date(opens.getTime() - 1000).toISOString() }))).toBe('checkin/too-early');
      expect((await checkIn(server.db, deskStaff, { class_reservation_id: r2, at: opens.toISOString() })).attend).toBe(true);
    }
    void at;
  });

  it('the window is a setting: widening check_in_closes_minutes admits a late check-in', async () => {
    const { at, start } = sameDay(7 * hour);
    const id = await reserve(await classAt(start));
    expect(await refusal(checkIn(server.db, deskStaff, { class_reservation_id: id, at: at.toISOString() }))).toBe('checkin/too-late');
    await server.db.insert(app_config).values({ key: 'check_in_closes_minutes', value: '420' }).onConflictDoUpdate({ target: app_config.key, set: { value: '420' } });
    try {
      expect((await checkIn(server.db, deskStaff, { class_reservation_id: id, at: at.toISOString() })).attend).toBe(true);
    } finally {
      await server.db.delete(app_config).where(eq(app_config.key, 'check_in_closes_minutes'));
    }
  });
});

describe('walk-in', () => {
  it('books a class that already started with the customer’s credit, which the portal no longer allows', async () => {
    const started = await newClass(server.db, { minutesAhead: -10, capacity: 10 });
    const portal = await call(server.app, 'POST', '/api/class_reservations', { token: clienteToken, body: { single_class_id: started } });
    expect(portal.status).toBe(412);
    expect(portal.body.code).toBe('booking/class-started');

    const before = await creditTotal(server.db, clienteId);
    const booked = await walkIn(server.db, deskStaff, { customer_id: clienteId, single_class_id: started, spot: null, guest: null });
    expect(booked).toMatchObject({ customer_id: clienteId, single_class_id: started });
    expect(await creditTotal(server.db, clienteId)).toBe(before - 1);
  });

  it('keeps capacity, the seat, credits and the class end strict', async () => {
    const full = await newClass(server.db, { minutesAhead: 60, capacity: 1 });
    await reserve(full);
    expect(await refusal(walkIn(server.db, deskStaff, { customer_id: nuevoId, single_class_id: full, spot: null, guest: null }))).toBe('booking/class-full');

    const open = await newClass(server.db, { minutesAhead: 90, capacity: 10 });
    expect(await refusal(walkIn(server.db, deskStaff, { customer_id: nuevoId, single_class_id: open, spot: null, guest: null }))).toBe('booking/no-credits');

    const ended = await newClass(server.db, { minutesAhead: -120, capacity: 10, durationMinutes: 50 });
    expect(await refusal(walkIn(server.db, deskStaff, { customer_id: clienteId, single_class_id: ended, spot: null, guest: null }))).toBe('booking/class-started');
  });
});

describe('cash collected at the desk', () => {
  it('marks a cash reservation paid once; a cancelled one takes no money', async () => {
    const classId = await newClass(server.db, { minutesAhead: 60, capacity: 10 });
    const id = await reserve(classId, { is_cash: true, is_paid: false });
    const paid = await markReservationPaid(server.db, deskStaff, { class_reservation_id: id });
    expect(paid.is_paid).toBe(true);
    const again = await markReservationPaid(server.db, deskStaff, { class_reservation_id: id });
    expect(again.updatedAt.getTime()).toBe(paid.updatedAt.getTime());

    const cancelled = await reserve(await newClass(server.db, { minutesAhead: 70, capacity: 10 }), { is_cash: true, is_paid: false, deletedAt: new Date() });
    expect(await refusal(markReservationPaid(server.db, deskStaff, { class_reservation_id: cancelled }))).toBe('reservation/already-cancelled');
    expect(await refusal(markReservationPaid(server.db, deskStaff, { class_reservation_id: 999_999 }))).toBe('reservation/not-found');
  });

  it('pays a pending cash purchase through the grant path exactly once; anything else is not pending', async () => {
    const five = await packageId('5 Clases');
    const [cash] = await server.db.select().from(payment_method).where(eq(payment_method.provider, 'cash'));
    const [pending] = await server.db
      .insert(purchase)
      .values({
        customer_id: nuevoId,
        class_package_id: five,
        payment_method_id: cash?.payment_method_id ?? null,
        title: '5 Clases',
        amount: '800.00',
        total_payment: '800.00',
        class_amount: 5,
        expiration_days: 60,
        status: 'pending',
        provider: 'cash',
      })
      .returning();
    if (!pending) throw new Error('no purchase');
    const paid = await markCashPurchasePaid(server.db, deskStaff, { purchase_id: pending.purchase_id, paid_with: 'cash' }, messageContextOf(server.config));
    expect(paid.status).toBe('completed');
    expect(await creditTotal(server.db, nuevoId)).toBe(5);
    const invoices = await server.db.select().from(invoice).where(eq(invoice.purchase_id, pending.purchase_id));
    expect(invoices.map((i) => i.total_payment)).toEqual(['800.00']);

    expect(await refusal(markCashPurchasePaid(server.db, deskStaff, { purchase_id: pending.purchase_id, paid_with: 'cash' }, messageContextOf(server.config)))).toBe('purchase/not-pending');
    expect(await creditTotal(server.db, nuevoId)).toBe(5);
    const [card] = await server.db.select().from(purchase).where(and(eq(purchase.customer_id, clienteId), eq(purchase.provider, 'sandbox')));
    if (!card) throw new Error('the demo seed gives cliente@ a card purchase');
    expect(await refusal(markCashPurchasePaid(server.db, deskStaff, { purchase_id: card.purchase_id, paid_with: 'cash' }, messageContextOf(server.config)))).toBe('purchase/not-pending');
    expect(await refusal(markCashPurchasePaid(server.db, deskStaff, { purchase_id: 999_999, paid_with: 'cash' }, messageContextOf(server.config)))).toBe('purchase/not-found');
  });
});

describe('access: the spec’s /api/customer routes', () => {
  it('giveAccess: a gift of a package for the given days, granted like a purchase, answered with ¡Acceso agregado!', async () => {
    const ten = await packageId('10 Clases');
    const res = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: (await login(server.app, 'admin@estudio.demo')).idToken, // Recepción may not gift 10 Clases (decision 037)
      body: { customer_id: nuevoId, class_package_id: ten, package_days: 15, is_gift: true, reason: 'Cortesía' },
    });
    expect(res.status).toBe(200);
    // The spec's message and ids, beside the purchase as stored (d807e68, no silent drop).
    expect(res.body).toMatchObject({ message: '¡Acceso agregado!', purchase_id: expect.any(Number), purchase: { is_gift: true } });
    const [given] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
    expect(given).toMatchObject({ provider: 'admin', is_gift: true, status: 'completed', total_payment: '0.00', customer_id: nuevoId, expiration_days: 15 });
    const credits = await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, res.body.purchase_id));
    expect(credits.map((c) => c.available_classes)).toEqual([10]);
    const days = ((credits[0]?.expiration_date?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(14.9);
    expect(days).toBeLessThanOrEqual(15);
    // No bill asked: no invoice.
    expect(await server.db.select().from(invoice).where(eq(invoice.purchase_id, res.body.purchase_id))).toEqual([]);
  });

  it('giveAccess paid at the desk with a bill: the package’s price and its invoice; an unlimited package makes a member', async () => {
    const unlimited = await packageId('Ilimitado Mensual');
    const [cash] = await server.db.select().from(payment_method).where(eq(payment_method.provider, 'cash'));
    const res = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: staff,
      body: { customer_id: nuevoId, class_package_id: unlimited, is_gift: false, payment_method_id: cash?.payment_method_id, bill: true },
    });
    expect(res.status).toBe(200);
    const [given] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
    expect(given).toMatchObject({ total_payment: '1990.00', is_gift: false, subscription_period: null, status: 'completed' });
    const bills = await server.db.select().from(invoice).where(eq(invoice.purchase_id, res.body.purchase_id));
    expect(bills.map((b) => b.total_payment)).toEqual(['1990.00']);
    const [member] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(member?.has_unlimited).toBe(true);

    // revokeAccess: the credits go, the membership follows, a reservation already made stays.
    const classId = await newClass(server.db, { minutesAhead: 180, capacity: 10 });
    const booked = await walkIn(server.db, deskStaff, { customer_id: nuevoId, single_class_id: classId, spot: null, guest: null });
    const revoked = await call(server.app, 'PUT', '/api/customer/revokeAccess', { token: staff, body: { purchase_id: res.body.purchase_id, reason: 'Se cargó por error' } });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ message: '¡Acceso eliminado!', purchase_id: res.body.purchase_id, available_class_ids: [expect.any(Number)], purchase: { status: 'revoked' } });
    const [after] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
    expect(after?.status).toBe('revoked');
    const live = await server.db
      .select()
      .from(available_classes)
      .where(and(eq(available_classes.purchase_id, res.body.purchase_id), isNull(available_classes.deletedAt)));
    expect(live).toEqual([]);
    const [former] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(former?.has_unlimited).toBe(false);
    expect((await reservation(booked.class_reservation_id)).deletedAt).toBeNull();

    const twice = await call(server.app, 'PUT', '/api/customer/revokeAccess', { token: staff, body: { purchase_id: res.body.purchase_id, reason: 'Se cargó por error' } });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ code: 'access/already-revoked', message: 'Este acceso ya fue eliminado.' });
  });

  it('removeClasses takes from the credits that expire first, answered with ¡Clases Restadas!; too many is refused whole', async () => {
    const soon = new Date(Date.now() + 5 * 86_400_000);
    const later = new Date(Date.now() + 50 * 86_400_000);
    const customerWithCredits = await customerId(server.db, 'admin@estudio.demo');
    await server.db.delete(available_classes).where(eq(available_classes.customer_id, customerWithCredits));
    const [a, b, expired] = await server.db
      .insert(available_classes)
      .values([
        { customer_id: customerWithCredits, available_classes: 4, expiration_date: later },
        { customer_id: customerWithCredits, available_classes: 2, expiration_date: soon },
        { customer_id: customerWithCredits, available_classes: 9, expiration_date: new Date(Date.now() - 86_400_000) },
      ])
      .returning();
    if (!a || !b || !expired) throw new Error('no credits');

    const res = await call(server.app, 'PUT', '/api/customer/removeClasses', { token: staff, body: { customer_id: customerWithCredits, amount: 3, reason: 'Ajuste de saldo' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: '¡Clases Restadas!', available_class_ids: [b.available_class_id, a.available_class_id] });
    const left = await server.db.select().from(available_classes).where(eq(available_classes.customer_id, customerWithCredits));
    const byId = new Map(left.map((c) => [c.available_class_id, c.available_classes]));
    expect([byId.get(a.available_class_id), byId.get(b.available_class_id), byId.get(expired.available_class_id)]).toEqual([3, 0, 9]);

    const tooMany = await call(server.app, 'PUT', '/api/customer/removeClasses', { token: staff, body: { customer_id: customerWithCredits, amount: 4, reason: 'Ajuste de saldo' } });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body).toEqual({ code: 'access/not-enough-classes', message: 'El cliente no tiene suficientes clases para restar.' });
    const [unchanged] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, a.available_class_id));
    expect(unchanged?.available_classes).toBe(3);
  });

  it('only staff and admin reach the access routes; unknown rows are 404', async () => {
    const ten = await packageId('10 Clases');
    const asCustomer = await Promise.all([
      call(server.app, 'POST', '/api/customer/giveAccess', { token: clienteToken, body: { customer_id: clienteId, class_package_id: ten, is_gift: true, reason: 'Cortesía' } }),
      call(server.app, 'PUT', '/api/customer/revokeAccess', { token: clienteToken, body: { purchase_id: 1, reason: 'Se cargó por error' } }),
      call(server.app, 'PUT', '/api/customer/removeClasses', { token: clienteToken, body: { customer_id: clienteId, amount: 1, reason: 'Ajuste de saldo' } }),
    ]);
    expect(asCustomer.map((r) => r.status)).toEqual([403, 403, 403]);

    const unknown = await Promise.all([
      call(server.app, 'POST', '/api/customer/giveAccess', { token: staff, body: { customer_id: 999_999, class_package_id: ten, is_gift: true, reason: 'Cortesía' } }),
      call(server.app, 'POST', '/api/customer/giveAccess', { token: staff, body: { customer_id: clienteId, class_package_id: 999_999, is_gift: true, reason: 'Cortesía' } }),
      call(server.app, 'PUT', '/api/customer/revokeAccess', { token: staff, body: { purchase_id: 999_999, reason: 'Se cargó por error' } }),
    ]);
    expect(unknown.map((r) => [r.status, r.body.code])).toEqual([
      [404, 'customer/not-found'],
      [404, 'package/not-found'],
      [404, 'purchase/not-found'],
    ]);
  });
});
