import { and, desc, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@estudio/core';
import { audit_log } from '@estudio/db/schema/audit';
import { accepted_page, page } from '@estudio/db/schema/content';
import { customer } from '@estudio/db/schema/customer';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { cancelAtDesk } from '../../src/services/desk/cancel-at-desk.ts';
import { checkIn } from '../../src/services/desk/check-in.ts';
import { moveReservation } from '../../src/services/desk/move-reservation.ts';
import { undoCheckIn } from '../../src/services/desk/undo-check-in.ts';
import { joinWaitlistAtDesk, leaveWaitlistAtDesk } from '../../src/services/desk/waitlist-at-desk.ts';
import { walkIn } from '../../src/services/desk/walk-in.ts';
import { call, testSecret, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { createBookers, customerId, newClass, withSettings } from '../support/reservations-fixtures.ts';
import { minutesAheadToday, newClientId, trpcMutation } from '../support/sync-helpers.ts';
import type { StaffActor } from '../../src/services/permissions/staff-permissions.ts';

/**
 * The desk's missing actions, through the services the desk's
 * push reaches (and POST /api/customer through REST), on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */
let server: TestServer;
let staffToken: string;
let adminToken: string;
let clienteToken: string;
let staffId: number;
/** The receptionist as the services see her from a desk's push. */
let staff: StaffActor;
let run = 0;

demoStudio(['recepcion', 'admin', 'cliente'], (s) => ({ server, tokens: { recepcion: staffToken, admin: adminToken, cliente: clienteToken } } = s));
beforeAll(async () => {
  staffId = await customerId(server.db, 'recepcion@estudio.demo');
  staff = { customer_id: staffId };
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

/** A new customer with `credits` classes in one credit row. */
async function person(credits = 3) {
  const [b] = await createBookers(server.db, testSecret, 1, { credits, prefix: `mostrador-${Date.now()}-${run++}` });
  if (!b) throw new Error('no booker');
  return b;
}

async function credit(id: number) {
  const [row] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, id));
  if (!row) throw new Error('no credit');
  return row;
}

async function reservationRow(id: number) {
  const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
  if (!row) throw new Error('no reservation');
  return row;
}

async function lastAudit(entityId: number) {
  const [row] = await server.db
    .select()
    .from(audit_log)
    .where(eq(audit_log.entity_id, String(entityId)))
    .orderBy(desc(audit_log.audit_log_id))
    .limit(1);
  return row;
}

async function requiredPageIds(): Promise<number[]> {
  return (await server.db.select({ id: page.page_id }).from(page).where(eq(page.required, true))).map((p) => p.id);
}

describe('POST /api/customer: a first-time walk-in registered by staff', () => {
  const body = async (n: string) => ({
    name: 'Lucía',
    last_name: 'Peña Ávila',
    phone: `55 12${n.padStart(6, '0')}`,
    email: `Lucia.${n}@Mostrador.MX`,
    accepted_page_ids: await requiredPageIds(),
  });

  it('staff register a customer: the answer is the record as stored, the documents and an audit entry recorded', async () => {
    expect((await requiredPageIds()).length).toBeGreaterThan(0);
    const res = await call(server.app, 'POST', '/api/customer', { token: staffToken, body: await body('1') });
    expect(res.status).toBe(200);
    const created = res.body.customer;
    expect(created).toMatchObject({ name: 'Lucía', last_name: 'Peña Ávila', email: 'lucia.1@mostrador.mx', phone: '5512000001', uid: null, role: 'customer' });
    const [stored] = await server.db.select().from(customer).where(eq(customer.customer_id, created.customer_id));
    expect(stored).toMatchObject({ email: created.email, phone: created.phone, name: created.name, last_name: created.last_name });
    const accepted = await server.db.select().from(accepted_page).where(eq(accepted_page.customer_id, created.customer_id));
    expect(accepted.map((a) => a.page_id).sort()).toEqual((await requiredPageIds()).sort());
    const audit = await lastAudit(created.customer_id);
    expect(audit).toMatchObject({ customer_id: staffId, action: 'customer.create', entity: 'customer' });
  });

  it('admins may register too; a customer is refused with 403', async () => {
    const admin = await call(server.app, 'POST', '/api/customer', { token: adminToken, body: await body('2') });
    expect(admin.status).toBe(200);
    const self = await call(server.app, 'POST', '/api/customer', { token: clienteToken, body: await body('3') });
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('forbidden');
  });

  it('refuses an unknown field with 400 naming it, and stores nothing', async () => {
    const res = await call(server.app, 'POST', '/api/customer', { token: staffToken, body: { ...(await body('4')), role: 'admin' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation/unknown-field', field: 'role' });
    expect(res.body.message).toContain('role');
    const [none] = await server.db.select().from(customer).where(eq(customer.email, 'lucia.4@mostrador.mx'));
    expect(none).toBeUndefined();
  });

  it('refuses an e-mail or a phone that already has an account (409, Spanish), and missing required documents (400)', async () => {
    const first = await call(server.app, 'POST', '/api/customer', { token: staffToken, body: await body('5') });
    expect(first.status).toBe(200);
    const sameEmail = await call(server.app, 'POST', '/api/customer', { token: staffToken, body: { ...(await body('6')), email: 'LUCIA.5@mostrador.mx' } });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ code: 'customer/email-taken', message: 'Ya existe una cuenta con ese correo electrónico.' });
    const samePhone = await call(server.app, 'POST', '/api/customer', { token: staffToken, body: { ...(await body('7')), phone: '5512000005' } });
    expect(samePhone.status).toBe(409);
    expect(samePhone.body).toEqual({ code: 'customer/phone-taken', message: 'Ya existe una cuenta con ese número de teléfono' });
    const noDocs = await call(server.app, 'POST', '/api/customer', { token: staffToken, body: { ...(await body('8')), accepted_page_ids: [] } });
    expect(noDocs.status).toBe(400);
    expect(noDocs.body.code).toBe('customer/documents-not-accepted');
    const noPhone = await call(server.app, 'POST', '/api/customer', { token: staffToken, body: { ...(await body('9')), phone: '' } });
    expect(noPhone.status).toBe(400);
    expect(noPhone.body).toMatchObject({ field: 'phone', message: 'Revisa el campo phone: Escribe el teléfono del cliente.' });
  });

  it('the new customer can be booked at once (walk-in, then book)', async () => {
    const res = await call(server.app, 'POST', '/api/customer', { token: staffToken, body: await body('10') });
    const id = res.body.customer.customer_id as number;
    await server.db.insert(available_classes).values({ customer_id: id, available_classes: 1 });
    const klass = await newClass(server.db, { minutesAhead: 30, capacity: 5 });
    expect(await walkIn(server.db, staff, { customer_id: id, single_class_id: klass, spot: null, guest: null })).toMatchObject({ customer_id: id });
  });
});

describe('cancel at the desk: the spec’s credit rules, and a staff override with a reason', () => {
  it('in time: the credit comes back and uses one of the credit’s cancellations', async () => {
    const who = await person();
    const klass = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 5 });
    const r = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: klass, spot: null, guest: null });
    expect((await credit(who.available_class_id)).available_classes).toBe(2);
    const done = await cancelAtDesk(server.db, staff, { class_reservation_id: r.class_reservation_id, customer_id: who.customer_id, single_class_id: klass, return_credit: null, reason: null });
    expect(done.creditReturned).toBe(true);
    expect(await credit(who.available_class_id)).toMatchObject({ available_classes: 3, cancels_used: 1 });
    expect(await lastAudit(r.class_reservation_id)).toMatchObject({ customer_id: staffId, action: 'reservation.cancel' });
  });

  it('late: the rules keep the credit; with an override and a reason staff give it back, recorded with who and why', async () => {
    const who = await person();
    const klass = await newClass(server.db, { minutesAhead: 60, capacity: 5 });
    const late = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: klass, spot: null, guest: null });
    const ruled = await cancelAtDesk(server.db, staff, { class_reservation_id: late.class_reservation_id, customer_id: who.customer_id, single_class_id: klass, return_credit: null, reason: null });
    expect(ruled.creditReturned).toBe(false);
    expect((await credit(who.available_class_id)).available_classes).toBe(2);

    const again = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: klass, spot: null, guest: null });
    const args = { class_reservation_id: again.class_reservation_id, customer_id: who.customer_id, single_class_id: klass, return_credit: true };
    expect(await refusal(cancelAtDesk(server.db, staff, { ...args, reason: ' ' }))).toBe('desk/override-reason');
    const overridden = await cancelAtDesk(server.db, staff, { ...args, reason: 'Llegó tarde por el tráfico; la gerente autorizó' });
    expect(overridden.creditReturned).toBe(true);
    expect(overridden.rules).toMatchObject({ allowed: true, creditReturned: false });
    // The override is staff's gift: none of the customer's cancellations is used (nor by the late one, which gave nothing back).
    expect(await credit(who.available_class_id)).toMatchObject({ available_classes: 2, cancels_used: 0 });
    const audit = await lastAudit(again.class_reservation_id);
    expect(audit).toMatchObject({ customer_id: staffId, action: 'reservation.cancel.override' });
    expect(audit?.changes).toMatchObject({ reason: 'Llegó tarde por el tráfico; la gerente autorizó', credit_returned: true, rules: { creditReturned: false } });
  });

  it('a cancellation the rules refuse is refused with their message, and an override lets it through', async () => {
    await withSettings(server.db, { allow_cancel_after_treshold: 'false' }, async () => {
      const who = await person();
      const klass = await newClass(server.db, { minutesAhead: 60, capacity: 5 });
      const r = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: klass, spot: null, guest: null });
      const args = { class_reservation_id: r.class_reservation_id, customer_id: who.customer_id, single_class_id: klass };
      expect(await refusal(cancelAtDesk(server.db, staff, { ...args, return_credit: null, reason: null }))).toBe('reservation/cancel-too-late');
      expect((await reservationRow(r.class_reservation_id)).deletedAt).toBeNull();
      const done = await cancelAtDesk(server.db, staff, { ...args, return_credit: false, reason: 'Pidió cancelar; sin devolución' });
      expect(done.creditReturned).toBe(false);
      expect(await refusal(cancelAtDesk(server.db, staff, { ...args, return_credit: true, reason: 'otra vez' }))).toBe('reservation/already-cancelled');
    });
  });

  it('judges an offline cancellation by the desk’s time, and refuses a reservation named with another customer', async () => {
    const who = await person();
    const klass = await newClass(server.db, { minutesAhead: 60, capacity: 5 });
    const r = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: klass, spot: null, guest: null });
    const base = { class_reservation_id: r.class_reservation_id, single_class_id: klass, return_credit: null, reason: null };
    expect(await refusal(cancelAtDesk(server.db, staff, { ...base, customer_id: staffId }))).toBe('reservation/not-found');
    // Made 13 hours before class while offline, reaching the server an hour before: in time.
    const at = new Date(Date.now() - 12 * 3_600_000).toISOString();
    const done = await cancelAtDesk(server.db, staff, { ...base, customer_id: who.customer_id, at });
    expect(done.creditReturned).toBe(true);
    expect((await reservationRow(r.class_reservation_id)).deletedAt?.toISOString()).toBe(at);
  });
});

describe('undo a mistaken check-in', () => {
  it('clears the attendance (audited), and undoing twice changes nothing', async () => {
    const who = await person();
    const klass = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 5 });
    const r = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: klass, spot: null, guest: null });
    await checkIn(server.db, staff, { class_reservation_id: r.class_reservation_id });
    const args = { class_reservation_id: r.class_reservation_id, customer_id: who.customer_id, single_class_id: klass };
    const undone = await undoCheckIn(server.db, staff, args);
    expect(undone).toMatchObject({ attend: false, attendedAt: null });
    expect(await lastAudit(r.class_reservation_id)).toMatchObject({ customer_id: staffId, action: 'reservation.check-in.undo' });
    const again = await undoCheckIn(server.db, staff, args);
    expect(again.updatedAt.getTime()).toBe(undone.updatedAt.getTime());
    expect((await checkIn(server.db, staff, { class_reservation_id: r.class_reservation_id })).attend).toBe(true);
  });
});

describe('move a customer to another class', () => {
  it('moves the booking with its credit in one step, and the old class frees the place', async () => {
    const who = await person();
    const from = await newClass(server.db, { minutesAhead: 60, capacity: 5 });
    const to = await newClass(server.db, { minutesAhead: 120, capacity: 5 });
    const r = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: from, spot: null, guest: null });
    expect((await credit(who.available_class_id)).available_classes).toBe(2);
    const moved = await moveReservation(server.db, staff, { class_reservation_id: r.class_reservation_id, customer_id: who.customer_id, from_single_class_id: from, single_class_id: to, spot: null });
    expect(moved).toMatchObject({ customer_id: who.customer_id, single_class_id: to, available_class_id: who.available_class_id });
    expect((await reservationRow(r.class_reservation_id)).deletedAt).not.toBeNull();
    // Late for the old class, yet the credit moved: it is neither lost nor a cancellation used.
    expect(await credit(who.available_class_id)).toMatchObject({ available_classes: 2, cancels_used: 0 });
    expect(await lastAudit(moved.class_reservation_id)).toMatchObject({ customer_id: staffId, action: 'reservation.move' });
  });

  it('refuses a full class and leaves the old reservation and the credit as they were', async () => {
    const who = await person();
    const other = await person();
    const from = await newClass(server.db, { minutesAhead: 60, capacity: 5 });
    const full = await newClass(server.db, { minutesAhead: 120, capacity: 1 });
    await walkIn(server.db, staff, { customer_id: other.customer_id, single_class_id: full, spot: null, guest: null });
    const r = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: from, spot: null, guest: null });
    const args = { class_reservation_id: r.class_reservation_id, customer_id: who.customer_id, from_single_class_id: from, spot: null };
    expect(await refusal(moveReservation(server.db, staff, { ...args, single_class_id: full }))).toBe('booking/class-full');
    expect((await reservationRow(r.class_reservation_id)).deletedAt).toBeNull();
    expect(await credit(who.available_class_id)).toMatchObject({ available_classes: 2, cancels_used: 0 });
    expect(await refusal(moveReservation(server.db, staff, { ...args, single_class_id: from }))).toBe('desk/move-same-class');
  });

  it('two moves into the last place at once: one moves, the other is refused and keeps its booking (capacity under the class lock)', async () => {
    const [a, b] = [await person(), await person()];
    const from = await newClass(server.db, { minutesAhead: 60, capacity: 5 });
    const last = await newClass(server.db, { minutesAhead: 120, capacity: 1 });
    const ra = await walkIn(server.db, staff, { customer_id: a.customer_id, single_class_id: from, spot: null, guest: null });
    const rb = await walkIn(server.db, staff, { customer_id: b.customer_id, single_class_id: from, spot: null, guest: null });
    const results = await Promise.allSettled([
      moveReservation(server.db, staff, { class_reservation_id: ra.class_reservation_id, customer_id: a.customer_id, from_single_class_id: from, single_class_id: last, spot: null }),
      moveReservation(server.db, staff, { class_reservation_id: rb.class_reservation_id, customer_id: b.customer_id, from_single_class_id: from, single_class_id: last, spot: null }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason instanceof DomainError ? refused.reason.code : null).toBe('booking/class-full');
    const live = await server.db.select().from(class_reservation).where(and(eq(class_reservation.single_class_id, last), isNull(class_reservation.deletedAt)));
    expect(live).toHaveLength(1);
    const stayed = live[0]?.customer_id === a.customer_id ? rb : ra;
    expect((await reservationRow(stayed.class_reservation_id)).deletedAt).toBeNull();
  });

  it('refuses a reservation already checked in', async () => {
    const who = await person();
    const from = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 5 });
    const to = await newClass(server.db, { minutesAhead: 26 * 60, capacity: 5 });
    const r = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: from, spot: null, guest: null });
    await checkIn(server.db, staff, { class_reservation_id: r.class_reservation_id });
    expect(
      await refusal(moveReservation(server.db, staff, { class_reservation_id: r.class_reservation_id, customer_id: who.customer_id, from_single_class_id: from, single_class_id: to, spot: null })),
    ).toBe('desk/move-attended');
  });
});

describe('a class’s waitlist at the desk', () => {
  it('adds a customer to a full class, removes them, and promotes the next one when a place frees', async () => {
    const [a, b, c] = [await person(), await person(), await person()];
    const klass = await newClass(server.db, { minutesAhead: 120, capacity: 1 });
    expect(await refusal(joinWaitlistAtDesk(server.db, staff, { customer_id: b.customer_id, single_class_id: klass }))).toBe('waitlist/class-not-full');
    const booked = await walkIn(server.db, staff, { customer_id: a.customer_id, single_class_id: klass, spot: null, guest: null });
    await joinWaitlistAtDesk(server.db, staff, { customer_id: b.customer_id, single_class_id: klass });
    await joinWaitlistAtDesk(server.db, staff, { customer_id: c.customer_id, single_class_id: klass });
    expect(await refusal(joinWaitlistAtDesk(server.db, staff, { customer_id: c.customer_id, single_class_id: klass }))).toBe('waitlist/already-joined');
    await leaveWaitlistAtDesk(server.db, staff, { customer_id: c.customer_id, single_class_id: klass });
    expect(await refusal(leaveWaitlistAtDesk(server.db, staff, { customer_id: c.customer_id, single_class_id: klass }))).toBe('waitlist/not-found');

    expect(await refusal(walkIn(server.db, staff, { customer_id: b.customer_id, single_class_id: klass, spot: null, guest: null }))).toBe('booking/class-full');
    await cancelAtDesk(server.db, staff, { class_reservation_id: booked.class_reservation_id, customer_id: a.customer_id, single_class_id: klass, return_credit: null, reason: null });
    const promoted = await walkIn(server.db, staff, { customer_id: b.customer_id, single_class_id: klass, spot: null, guest: null });
    expect(promoted.customer_id).toBe(b.customer_id);
    const left = await server.db.select().from(waitlist).where(and(eq(waitlist.single_class_id, klass)));
    expect(left).toEqual([]);
  });
});

describe('through the desk’s push: applied once, refusals named', () => {
  it('a cancellation with override sent twice gives the credit back once; a move to a full class is rejected with its reason', async () => {
    const who = await person();
    const other = await person();
    const klass = await newClass(server.db, { minutesAhead: 60, capacity: 5 });
    const full = await newClass(server.db, { minutesAhead: 90, capacity: 1 });
    await walkIn(server.db, staff, { customer_id: other.customer_id, single_class_id: full, spot: null, guest: null });
    const r1 = await walkIn(server.db, staff, { customer_id: who.customer_id, single_class_id: klass, spot: null, guest: null });
    const desk = newClientId();
    const batch = {
      clientId: desk,
      mutations: [
        {
          id: 1,
          name: 'moveReservation',
          args: { class_reservation_id: r1.class_reservation_id, customer_id: who.customer_id, from_single_class_id: klass, single_class_id: full },
        },
        {
          id: 2,
          name: 'cancelReservation',
          args: { class_reservation_id: r1.class_reservation_id, customer_id: who.customer_id, single_class_id: klass, return_credit: true, reason: 'Error de la recepción' },
        },
      ],
    };
    const first = await trpcMutation(server.app, 'sync.push', batch, staffToken);
    expect(first.status).toBe(200);
    expect(first.body.result.data.results).toEqual([
      { id: 1, status: 'rejected', code: 'booking/class-full', message: 'Lo sentimos, esta clase ya está llena.' },
      { id: 2, status: 'applied' },
    ]);
    expect((await credit(who.available_class_id)).available_classes).toBe(3);
    const second = await trpcMutation(server.app, 'sync.push', batch, staffToken);
    expect(second.body.result.data.results.map((x: { status: string }) => x.status)).toEqual(['duplicate', 'duplicate']);
    expect((await credit(who.available_class_id)).available_classes).toBe(3);
  });
});
