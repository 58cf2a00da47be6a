import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AvailableClassOutput } from '@estudio/core';
import { customer } from '@estudio/db/schema/customer';
import { available_classes } from '@estudio/db/schema/purchases';
import { classTypeId, customerId } from '../support/reservations-fixtures.ts';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
let cliente: string;
let nuevo: string;
let admin: string;
let staff: string;
let nuevoId: number;
demoStudio(['cliente', 'nuevo', 'admin', 'recepcion'], (s) => ({ server, tokens: { cliente, nuevo, admin, recepcion: staff } } = s));
beforeAll(async () => {
  nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
}, 120_000);

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('GET /api/available_classes', () => {
  it('Mariana has 5 classes left from her 10-class package', async () => {
    const res = await call(server.app, 'GET', '/api/available_classes', { token: cliente });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, has_unlimited: false, unlimited_membership_expiration: null });
    const credits = res.body.available_classes as AvailableClassOutput[];
    expect(credits.map((c) => c.available_classes)).toEqual([5]);
    expect(Date.parse(credits[0]?.expiration_date as string)).toBeGreaterThan(Date.now());
  });

  it('Sofía is an unlimited member until her period ends', async () => {
    const token = (await login(server.app, 'ilimitado@estudio.demo')).idToken;
    const res = await call(server.app, 'GET', '/api/available_classes', { token });
    expect(res.body.has_unlimited).toBe(true);
    expect(Date.parse(res.body.unlimited_membership_expiration)).toBeGreaterThan(Date.now());
    expect((res.body.available_classes as AvailableClassOutput[]).some((c) => c.available_classes === -1)).toBe(true);
    expect(res.body.total).toBe(0);
  });

  it('Diego has none', async () => {
    const res = await call(server.app, 'GET', '/api/available_classes', { token: nuevo });
    expect(res.body).toEqual({ available_classes: [], total: 0, has_unlimited: false, unlimited_membership_expiration: null });
  });

  it('the history keeps spent and expired credits; the total stays the usable balance', async () => {
    const id = await customerId(server.db, 'cliente@estudio.demo');
    const [expired] = await server.db
      .insert(available_classes)
      .values({ customer_id: id, available_classes: 2, expiration_date: new Date(Date.now() - 86_400_000) })
      .returning();
    const list = await call(server.app, 'GET', '/api/available_classes', { token: cliente });
    expect(list.body.total).toBe(5);
    expect((list.body.available_classes as AvailableClassOutput[]).map((c) => c.available_class_id)).not.toContain(expired?.available_class_id);
    const history = await call(server.app, 'GET', '/api/available_classes/date/all', { token: cliente });
    expect(history.status).toBe(200);
    expect(history.body.total).toBe(5);
    expect((history.body.available_classes as AvailableClassOutput[]).map((c) => c.available_class_id)).toContain(expired?.available_class_id);
  });

  it("shows one's own credit row and hides others' (404)", async () => {
    const list = await call(server.app, 'GET', '/api/available_classes', { token: cliente });
    const mine = (list.body.available_classes as AvailableClassOutput[])[0] as AvailableClassOutput;
    const own = await call(server.app, 'GET', `/api/available_classes/${mine.available_class_id}`, { token: cliente });
    expect(own.status).toBe(200);
    expect(own.body.available_class).toEqual(mine);
    const other = await call(server.app, 'GET', `/api/available_classes/${mine.available_class_id}`, { token: nuevo });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('credit/not-found');
  });
});

describe('granting, correcting and removing credits (front desk, admin)', () => {
  it('the admin grants Diego 3 Yoga classes at 07:00; he sees them; a customer cannot grant', async () => {
    const yoga = await classTypeId(server.db, 'Yoga');
    const granted = await call(server.app, 'POST', '/api/available_classes', {
      token: admin,
      body: { customer_id: nuevoId, available_classes: 3, expiration_date: inDays(30), class_type_id: yoga.id, allowed_times: '07:00', reason: 'Cortesía por la clase cancelada' },
    });
    expect(granted.status, granted.raw).toBe(200);
    expect(granted.body.available_class).toMatchObject({ customer_id: nuevoId, available_classes: 3, class_type_id: yoga.id, allowed_times: '07:00', cancels_used: 0 });
    expect(granted.body.available_class.class_types.name).toBe('Yoga');

    const his = await call(server.app, 'GET', '/api/available_classes', { token: nuevo });
    expect(his.body.total).toBe(3);

    const denied = await call(server.app, 'POST', '/api/available_classes', { token: cliente, body: { customer_id: nuevoId, available_classes: 3 } });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
  });

  it('validates a grant with Spanish messages', async () => {
    const zero = await call(server.app, 'POST', '/api/available_classes', { token: admin, body: { customer_id: nuevoId, available_classes: 0, reason: 'Prueba' } });
    expect(zero.status).toBe(400);
    expect(zero.body.code).toBe('credit/invalid-amount');
    const past = await call(server.app, 'POST', '/api/available_classes', { token: admin, body: { customer_id: nuevoId, available_classes: 2, expiration_date: inDays(-1), reason: 'Prueba' } });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('credit/expiration-past');
    const times = await call(server.app, 'POST', '/api/available_classes', { token: admin, body: { customer_id: nuevoId, available_classes: 2, allowed_times: '7am', reason: 'Prueba' } });
    expect(times.status).toBe(400);
    expect(times.body.field).toBe('allowed_times');
    const nobody = await call(server.app, 'POST', '/api/available_classes', { token: admin, body: { customer_id: 999999, available_classes: 2, reason: 'Prueba' } });
    expect(nobody.status).toBe(404);
    expect(nobody.body.code).toBe('customer/not-found');
    const noType = await call(server.app, 'POST', '/api/available_classes', { token: admin, body: { customer_id: nuevoId, available_classes: 2, class_type_id: 999999, reason: 'Prueba' } });
    expect(noType.status).toBe(404);
    expect(noType.body.code).toBe('class-type/not-found');
  });

  it('the front desk lowers a credit, the admin widens it, and the front desk removes it (soft delete)', async () => {
    const his = await call(server.app, 'GET', '/api/available_classes', { token: nuevo });
    const credit = (his.body.available_classes as AvailableClassOutput[])[0] as AvailableClassOutput;
    const lowered = await call(server.app, 'PUT', `/api/available_classes/${credit.available_class_id}`, {
      token: staff,
      body: { available_classes: 2, reason: 'Se registró de más' },
    });
    expect(lowered.status, lowered.raw).toBe(200);
    expect(lowered.body.available_class).toMatchObject({ available_classes: 2, allowed_times: '07:00' });
    const fixed = await call(server.app, 'PUT', `/api/available_classes/${credit.available_class_id}`, {
      token: admin,
      body: { class_type_id: null, allowed_times: null, reason: 'Puede tomar cualquier clase' },
    });
    expect(fixed.status, fixed.raw).toBe(200);
    expect(fixed.body.available_class).toMatchObject({ available_classes: 2, class_type_id: null, class_types: null, allowed_times: null });
    expect(fixed.body.available_class.expiration_date).toBe(credit.expiration_date);
    expect((await call(server.app, 'GET', '/api/available_classes', { token: nuevo })).body.total).toBe(2);

    const byCustomer = await call(server.app, 'PUT', `/api/available_classes/${credit.available_class_id}`, { token: nuevo, body: { available_classes: 50, reason: 'Quiero más' } });
    expect(byCustomer.status).toBe(403);

    const removed = await call(server.app, 'DELETE', `/api/available_classes/${credit.available_class_id}?reason=Duplicado`, { token: staff });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true });
    const [row] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, credit.available_class_id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect((await call(server.app, 'GET', '/api/available_classes', { token: nuevo })).body.total).toBe(0);
    expect((await call(server.app, 'GET', `/api/available_classes/${credit.available_class_id}`, { token: nuevo })).status).toBe(404);
    expect((await call(server.app, 'DELETE', `/api/available_classes/${credit.available_class_id}?reason=Duplicado`, { token: staff })).status).toBe(404);
  });

  it('an unlimited grant makes the customer an unlimited member; removing it ends the membership', async () => {
    const expires = inDays(30);
    const granted = await call(server.app, 'POST', '/api/available_classes', { token: admin, body: { customer_id: nuevoId, available_classes: -1, expiration_date: expires, reason: 'Membresía de cortesía' } });
    expect(granted.status).toBe(200);
    const his = await call(server.app, 'GET', '/api/available_classes', { token: nuevo });
    expect(his.body).toMatchObject({ has_unlimited: true, unlimited_membership_expiration: expires, total: 0 });

    await call(server.app, 'DELETE', `/api/available_classes/${granted.body.available_class.available_class_id}?reason=Fin%20de%20cortes%C3%ADa`, { token: admin });
    const after = await call(server.app, 'GET', '/api/available_classes', { token: nuevo });
    expect(after.body).toMatchObject({ has_unlimited: false, unlimited_membership_expiration: null });
    const [row] = await server.db.select({ has_unlimited: customer.has_unlimited }).from(customer).where(eq(customer.customer_id, nuevoId));
    expect(row?.has_unlimited).toBe(false);
  });
});
