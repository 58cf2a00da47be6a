import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { createBookers, customerId, newClass } from '../support/reservations-fixtures.ts';

let server: TestServer;
let admin: string;
let staff: string;
let staffId: number;
let cliente: string;
let clienteId: number;
demoStudio(['admin', 'recepcion', 'cliente'], (s) => ({ server, tokens: { admin, recepcion: staff, cliente } } = s));
beforeAll(async () => {
  staffId = await customerId(server.db, 'recepcion@estudio.demo');
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
}, 60_000);

type Listed = { class_reservation_id: number; customer_id: number; single_class_id: number; deletedAt: string | null; attend: boolean; customer: { customer_id: number; email: string }; single_class: { single_class_id: number } };

async function lastAudit(entity: string, entityId: number) {
  const [row] = await server.db
    .select()
    .from(audit_log)
    .where(and(eq(audit_log.entity, entity), eq(audit_log.entity_id, String(entityId))))
    .orderBy(desc(audit_log.audit_log_id))
    .limit(1);
  return row;
}

const credit = async (id: number) => (await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, id)))[0]?.available_classes;

describe('GET /api/class_reservations (filters)', () => {
  it('staff filter by class, customer and status, with customer and class; a customer still sees only their own', async () => {
    const classId = await newClass(server.db, { minutesAhead: 3 * 24 * 60, capacity: 10, classType: 'Yoga' });
    const [a, b, c] = await createBookers(server.db, server.config.AUTH_SECRET, 3, { prefix: 'buscar-reservas', credits: 2 });
    if (!a || !b || !c) throw new Error('bookers');
    const ids: number[] = [];
    for (const x of [a, b, c]) {
      const res = await call(server.app, 'POST', '/api/class_reservations', { token: x.token, body: { single_class_id: classId } });
      ids.push(res.body.class_reservation.class_reservation_id as number);
    }
    await call(server.app, 'POST', `/api/class_reservations/${ids[2]}/cancel`, { token: c.token });

    const live = await call(server.app, 'GET', `/api/class_reservations?single_class_id=${classId}`, { token: staff });
    expect(live.status).toBe(200);
    expect(live.body.total).toBe(2);
    const rows = live.body.class_reservations as Listed[];
    expect(rows.map((r) => r.customer.email).sort()).toEqual(['buscar-reservas-0@carrera.demo', 'buscar-reservas-1@carrera.demo']);
    expect(rows.every((r) => r.single_class.single_class_id === classId)).toBe(true);
    expect(rows[0]?.customer).toMatchObject({ name: 'Cliente', phone: null });

    const cancelled = await call(server.app, 'GET', `/api/class_reservations?single_class_id=${classId}&status=cancelled`, { token: admin });
    expect((cancelled.body.class_reservations as Listed[]).map((r) => r.class_reservation_id)).toEqual([ids[2]]);
    const all = await call(server.app, 'GET', `/api/class_reservations?single_class_id=${classId}&status=all`, { token: admin });
    expect(all.body.total).toBe(3);
    // include_cancelled, the customer's older filter, still means every reservation.
    expect((await call(server.app, 'GET', `/api/class_reservations?single_class_id=${classId}&include_cancelled=true`, { token: admin })).body.total).toBe(3);
    const byCustomer = await call(server.app, 'GET', `/api/class_reservations?customer_id=${b.customer_id}`, { token: admin });
    expect((byCustomer.body.class_reservations as Listed[]).map((r) => r.class_reservation_id)).toEqual([ids[1]]);
    expect((await call(server.app, 'GET', `/api/class_reservations?single_class_id=${classId}&status=otro`, { token: admin })).status).toBe(400);

    // A customer asking for someone else's rows gets their own (none in this class).
    const pinned = await call(server.app, 'GET', `/api/class_reservations?customer_id=${a.customer_id}&single_class_id=${classId}`, { token: b.token });
    expect((pinned.body.class_reservations as Listed[]).map((r) => r.customer_id)).toEqual([b.customer_id]);
    const mineOnly = await call(server.app, 'GET', '/api/class_reservations?status=all', { token: cliente });
    expect((mineOnly.body.class_reservations as Listed[]).every((r) => r.customer_id === clienteId && r.customer.customer_id === clienteId)).toBe(true);
  });

  it('attended and no-show statuses and the local date range', async () => {
    const past = await newClass(server.db, { minutesAhead: -3 * 24 * 60, capacity: 10, classType: 'Yoga' });
    const [x, y] = await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: 'estado-reservas', credits: 1 });
    if (!x || !y) throw new Error('bookers');
    await server.db.insert(class_reservation).values([
      { single_class_id: past, customer_id: x.customer_id, attend: true },
      { single_class_id: past, customer_id: y.customer_id, attend: false },
    ]);
    const attended = await call(server.app, 'GET', `/api/class_reservations?single_class_id=${past}&status=attended`, { token: admin });
    expect((attended.body.class_reservations as Listed[]).map((r) => r.customer_id)).toEqual([x.customer_id]);
    const noShow = await call(server.app, 'GET', `/api/class_reservations?single_class_id=${past}&status=no_show`, { token: admin });
    expect((noShow.body.class_reservations as Listed[]).map((r) => r.customer_id)).toEqual([y.customer_id]);
    const [row] = (await call(server.app, 'GET', `/api/class_reservations?single_class_id=${past}`, { token: admin })).body.class_reservations as Listed[];
    const day = (row as unknown as { single_class: { class_date: string } }).single_class.class_date;
    const local = new Date(day).toLocaleDateString('en-CA', { timeZone: 'America/Mexico_City' });
    const inDay = await call(server.app, 'GET', `/api/class_reservations?customer_id=${x.customer_id}&start_date=${local}&end_date=${local}`, { token: admin });
    expect(inDay.body.total).toBe(1);
    const otherDay = await call(server.app, 'GET', `/api/class_reservations?customer_id=${x.customer_id}&start_date=2030-01-01&end_date=2030-01-02`, { token: admin });
    expect(otherDay.body.total).toBe(0);
  });
});

describe('POST, PUT and DELETE /api/class_reservations as staff', () => {
  it('books for a customer inside the lead time (byStaff), audited; a customer cannot book for another', async () => {
    // Starts in 5 minutes: too late for the customer, fine for the desk.
    const classId = await newClass(server.db, { minutesAhead: 5, capacity: 10, classType: 'Yoga' });
    const [x] = await createBookers(server.db, server.config.AUTH_SECRET, 1, { prefix: 'reserva-staff', credits: 2 });
    if (!x) throw new Error('booker');
    const own = await call(server.app, 'POST', '/api/class_reservations', { token: x.token, body: { single_class_id: classId } });
    expect(own.body.code).toBe('booking/outside-window');
    const forOther = await call(server.app, 'POST', '/api/class_reservations', { token: cliente, body: { single_class_id: classId, customer_id: x.customer_id } });
    expect(forOther.status).toBe(403);

    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: staff, body: { single_class_id: classId, customer_id: x.customer_id } });
    expect(booked.status).toBe(200);
    expect(booked.body.class_reservation).toMatchObject({ customer_id: x.customer_id, available_class_id: x.available_class_id });
    expect(await credit(x.available_class_id)).toBe(1);
    const id = booked.body.class_reservation.class_reservation_id as number;
    expect(await lastAudit('class_reservation', id)).toMatchObject({ customer_id: staffId, action: 'create' });

    // A refused staff booking writes no audit row.
    const twice = await call(server.app, 'POST', '/api/class_reservations', { token: staff, body: { single_class_id: classId, customer_id: x.customer_id } });
    expect(twice.body.code).toBe('booking/already-booked');
    const rows = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'class_reservation'), eq(audit_log.action, 'create')));
    expect(rows.filter((r) => (r.changes as { customer_id?: number } | null)?.customer_id === x.customer_id)).toHaveLength(1);
  });

  it('staff mark attendance, payment and guest; a customer may not; audited', async () => {
    const classId = await newClass(server.db, { minutesAhead: 2 * 24 * 60, capacity: 10, classType: 'Yoga' });
    const [x] = await createBookers(server.db, server.config.AUTH_SECRET, 1, { prefix: 'editar-reserva', credits: 1 });
    if (!x) throw new Error('booker');
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: x.token, body: { single_class_id: classId } });
    const id = booked.body.class_reservation.class_reservation_id as number;
    await server.db.update(class_reservation).set({ is_cash: true, is_paid: false }).where(eq(class_reservation.class_reservation_id, id));

    const byCustomer = await call(server.app, 'PUT', '/api/class_reservations', { token: x.token, body: { class_reservation_id: id, attend: true } });
    expect(byCustomer.status).toBe(403);
    const paidByCustomer = await call(server.app, 'PUT', '/api/class_reservations', { token: x.token, body: { class_reservation_id: id, is_paid: true } });
    expect(paidByCustomer.status).toBe(403);

    const updated = await call(server.app, 'PUT', '/api/class_reservations', {
      token: staff,
      body: { class_reservation_id: id, attend: true, is_paid: true, guest: 'Laura Invitada' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.class_reservation).toMatchObject({ attend: true, is_paid: true, is_cash: true, guest: 'Laura Invitada' });
    const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
    expect(row?.attendedAt).not.toBeNull();
    expect(await lastAudit('class_reservation', id)).toMatchObject({ customer_id: staffId, action: 'update', changes: { attend: true, is_paid: true, guest: 'Laura Invitada' } });

    const badGuest = await call(server.app, 'PUT', '/api/class_reservations', { token: staff, body: { class_reservation_id: id, guest: 'L' } });
    expect(badGuest.status).toBe(400);
    // The customer's own change of guest still works as before.
    const mine = await call(server.app, 'PUT', '/api/class_reservations', { token: x.token, body: { class_reservation_id: id, guest: 'Otra Persona' } });
    expect(mine.body.class_reservation.guest).toBe('Otra Persona');
  });

  it('DELETE by admin returns the credit, messages the waitlist, audited', async () => {
    const classId = await newClass(server.db, { minutesAhead: 30, capacity: 1, classType: 'Yoga' });
    const [x, waiting] = await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: 'borrar-reserva', credits: 1 });
    if (!x || !waiting) throw new Error('bookers');
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: admin, body: { single_class_id: classId, customer_id: x.customer_id } });
    const id = booked.body.class_reservation.class_reservation_id as number;
    expect(await credit(x.available_class_id)).toBe(0);
    await server.db.update(customer).set({ phone: '5599887766' }).where(eq(customer.customer_id, waiting.customer_id));
    await server.db.insert(waitlist).values({ single_class_id: classId, customer_id: waiting.customer_id });

    const cancelled = await call(server.app, 'DELETE', `/api/class_reservations/${id}`, { token: admin });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.credit_returned).toBe(true);
    expect(await credit(x.available_class_id)).toBe(1);
    const messages = await server.db.select().from(outbox_message).where(eq(outbox_message.recipient, '5599887766'));
    expect(messages).toHaveLength(1);
    expect(messages[0]?.channel).toBe('whatsapp');
    expect(await lastAudit('class_reservation', id)).toMatchObject({ action: 'cancel', changes: { customer_id: x.customer_id, credit_returned: true } });
    expect((await call(server.app, 'DELETE', `/api/class_reservations/${id}`, { token: admin })).status).toBe(409);
  });
});

describe('the QR link: GET /api/class_reservations/single/{id} and PUT /api/class_reservations/{id}/checkin', () => {
  it('staff read a reservation with its customer and class and check it in once; customers get 403', async () => {
    const today = await newClass(server.db, { minutesAhead: 2, capacity: 10, classType: 'Yoga' });
    const later = await newClass(server.db, { minutesAhead: 3 * 24 * 60, capacity: 10, classType: 'Yoga' });
    // Three: the guest of the first booking takes one more (guest_uses_credit, decision 028).
    const [x] = await createBookers(server.db, server.config.AUTH_SECRET, 1, { prefix: 'checkin-qr', credits: 3 });
    if (!x) throw new Error('booker');
    const a = await call(server.app, 'POST', '/api/class_reservations', { token: staff, body: { single_class_id: today, customer_id: x.customer_id, guest: 'Mario Invitado' } });
    const b = await call(server.app, 'POST', '/api/class_reservations', { token: x.token, body: { single_class_id: later } });
    const todayId = a.body.class_reservation.class_reservation_id as number;
    const laterId = b.body.class_reservation.class_reservation_id as number;

    const read = await call(server.app, 'GET', `/api/class_reservations/single/${todayId}`, { token: staff });
    expect(read.status).toBe(200);
    expect(read.body.class_reservation).toMatchObject({
      class_reservation_id: todayId,
      guest: 'Mario Invitado',
      attend: false,
      customer: { customer_id: x.customer_id, email: 'checkin-qr-0@carrera.demo' },
      single_class: { single_class_id: today, class_type: { name: 'Yoga' } },
    });
    expect((await call(server.app, 'GET', `/api/class_reservations/single/${todayId}`, { token: x.token })).status).toBe(403);
    expect((await call(server.app, 'GET', `/api/class_reservations/single/${todayId}`)).status).toBe(401);
    expect((await call(server.app, 'GET', '/api/class_reservations/single/999999', { token: admin })).status).toBe(404);

    expect((await call(server.app, 'PUT', `/api/class_reservations/${todayId}/checkin`, { token: x.token })).status).toBe(403);
    const checked = await call(server.app, 'PUT', `/api/class_reservations/${todayId}/checkin`, { token: staff });
    expect(checked.status).toBe(200);
    expect(checked.body.class_reservation.attend).toBe(true);
    const [first] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, todayId));
    const again = await call(server.app, 'PUT', `/api/class_reservations/${todayId}/checkin`, { token: admin });
    expect(again.status).toBe(200);
    const [second] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, todayId));
    expect(second?.attendedAt?.toISOString()).toBe(first?.attendedAt?.toISOString());
    expect(await lastAudit('class_reservation', todayId)).toMatchObject({ action: 'reservation.check-in' });

    const wrongDay = await call(server.app, 'PUT', `/api/class_reservations/${laterId}/checkin`, { token: staff });
    expect(wrongDay.status).toBe(409);
    expect(wrongDay.body).toMatchObject({ code: 'checkin/wrong-day', message: 'Esta reservación es para otro día.' });
  });
});
