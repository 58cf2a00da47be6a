import { and, desc, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { texts } from '@estudio/core';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/** The admin console's customers: search, detail, edit, recovery e-mail; every write audited. */
let server: TestServer;
let admin: string;
let adminId: number;
let cliente: string;
let clienteId: number;
let nuevoId: number;

demoStudio(['admin', 'cliente'], (s) => ({ server, tokens: { admin, cliente } } = s));
beforeAll(async () => {
  adminId = await customerId(server.db, 'admin@estudio.demo');
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
  nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
}, 120_000);

const lastAudit = async (entity: string, entityId: number, action?: string) =>
  (
    await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.entity, entity), eq(audit_log.entity_id, String(entityId)), action === undefined ? undefined : eq(audit_log.action, action)))
      .orderBy(desc(audit_log.audit_log_id))
      .limit(1)
  )[0];

describe('GET /api/customer/admin/all', () => {
  it('pages every customer by name with the total', async () => {
    const first = await call(server.app, 'GET', '/api/customer/admin/all?page=1&limit=10', { token: admin });
    expect(first.status).toBe(200);
    expect(first.body.customers).toHaveLength(10);
    const all = await server.db.select({ id: customer.customer_id }).from(customer).where(isNull(customer.deletedAt));
    expect(first.body.total).toBe(all.length);
    const second = await call(server.app, 'GET', '/api/customer/admin/all?page=2&limit=10', { token: admin });
    const ids = new Set((first.body.customers as { customer_id: number }[]).map((c) => c.customer_id));
    for (const c of second.body.customers as { customer_id: number }[]) expect(ids.has(c.customer_id)).toBe(false);
    const names = (first.body.customers as { name: string }[]).map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('searches by name, last name, full name, e-mail and phone', async () => {
    const [row] = await server.db.select().from(customer).where(eq(customer.customer_id, clienteId));
    const find = async (query: string) => {
      const res = await call(server.app, 'GET', `/api/customer/admin/all?query=${encodeURIComponent(query)}`, { token: admin });
      expect(res.status).toBe(200);
      return res.body as { customers: { customer_id: number; email: string }[]; total: number };
    };
    // Accents and case do not count (core's searchKey, the desk's rule too): 'lopez' finds López.
    for (const query of ['mariana', 'López', 'Mariana López', 'lopez', 'LOPEZ', 'mariana lopez', 'cliente@estudio', row!.phone!.slice(-6)]) {
      const res = await find(query);
      expect(res.customers.map((c) => c.customer_id), query).toContain(clienteId);
      expect(res.total).toBe(res.customers.length);
    }
    // A formatted phone finds the digits; % is a literal character, not a wildcard.
    const phone = row!.phone!;
    expect((await find(`(${phone.slice(0, 2)}) ${phone.slice(2, 6)}`)).customers.map((c) => c.customer_id)).toContain(clienteId);
    expect((await find('%')).total).toBe(0);
  });
});

describe('GET /api/customer/admin/{id} and /api/customer/query', () => {
  it('shows the customer with usable credits, membership and purchases', async () => {
    const res = await call(server.app, 'GET', `/api/customer/admin/${clienteId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({ customer_id: clienteId, email: 'cliente@estudio.demo', name: 'Mariana' });
    // What the customer sees in Mis Créditos is what the admin sees.
    const own = await call(server.app, 'GET', '/api/available_classes', { token: cliente });
    expect(res.body.credits.total).toBe(own.body.total);
    expect(res.body.credits.has_unlimited).toBe(false);
    const mine = await call(server.app, 'GET', '/api/purchases', { token: cliente });
    expect(res.body.purchases.map((p: { purchase_id: number }) => p.purchase_id)).toEqual(mine.body.purchases.map((p: { purchase_id: number }) => p.purchase_id));
    expect(res.body.purchases_summary.total).toBe(mine.body.purchases.length);
    expect(res.body.purchases_summary.total_paid).toMatch(/^\d+\.\d{2}$/);

    const ilimitado = await call(server.app, 'GET', `/api/customer/admin/${await customerId(server.db, 'ilimitado@estudio.demo')}`, { token: admin });
    expect(ilimitado.body.credits.has_unlimited).toBe(true);
    expect(ilimitado.body.purchases_summary.active).toBeGreaterThan(0);

    const missing = await call(server.app, 'GET', '/api/customer/admin/999999', { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'customer/unknown', message: 'No encontramos a este cliente.' });
  });

  it('the picker lookup answers at most 10 matches and needs a query', async () => {
    const res = await call(server.app, 'GET', '/api/customer/query?query=a', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.customers.length).toBe(10);
    const one = await call(server.app, 'GET', '/api/customer/query?query=nuevo%40estudio.demo', { token: admin });
    expect(one.body.customers.map((c: { customer_id: number }) => c.customer_id)).toEqual([nuevoId]);
    const empty = await call(server.app, 'GET', '/api/customer/query?query=', { token: admin });
    expect(empty.status).toBe(400);
    expect(empty.body.field).toBe('query');
  });
});

describe('PUT /api/customer as admin', () => {
  it("edits another customer's name, phone and role, and audits it", async () => {
    const res = await call(server.app, 'PUT', '/api/customer', {
      token: admin,
      body: { customer_id: nuevoId, name: 'Diego Alberto', phone: '(55) 1234-9876', role: 'staff' },
    });
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({ customer_id: nuevoId, name: 'Diego Alberto', phone: '5512349876', role: 'staff' });
    const audit = await lastAudit('customer', nuevoId, 'update');
    expect(audit).toMatchObject({ customer_id: adminId, action: 'update' });
    expect(audit?.changes).toMatchObject({ name: 'Diego Alberto', role: 'staff' });
    // The promotion has its own row after the edit's, for Actividad (decision 037).
    const promotion = await lastAudit('customer', nuevoId);
    expect(promotion).toMatchObject({ customer_id: adminId, action: 'role.change', changes: { from: 'customer', to: 'staff' } });
    await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: nuevoId, role: 'customer', name: 'Diego' } });
  });

  it('keeps the phone rules: a taken phone is 409 and nothing changes; a bad one is 400', async () => {
    const [mine] = await server.db.select().from(customer).where(eq(customer.customer_id, clienteId));
    const taken = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: nuevoId, name: 'No Guardar', phone: mine!.phone } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('customer/phone-taken');
    const [after] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(after?.name).toBe('Diego');
    const bad = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: nuevoId, phone: '12' } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('phone');
  });

  it('an unknown customer is 404; an admin cannot change its own role', async () => {
    const missing = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: 999999, name: 'Nadie' } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('customer/unknown');
    const own = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: adminId, role: 'customer' } });
    expect(own.status).toBe(409);
    expect(own.body.code).toBe('customer/own-role');
    const [row] = await server.db.select().from(customer).where(eq(customer.customer_id, adminId));
    expect(row?.role).toBe('admin');
  });

  it('a customer still saves its own profile, her own customer_id and role sent back are nothing to do; another customer or role is refused, not ignored', async () => {
    const self = await call(server.app, 'PUT', '/api/customer', { token: cliente, body: { instagram: '@mariana.lopez' } });
    expect(self.status).toBe(200);
    expect(self.body.customer).toMatchObject({ customer_id: clienteId, instagram: '@mariana.lopez', role: 'customer' });
    const own = await call(server.app, 'PUT', '/api/customer', { token: cliente, body: { customer_id: clienteId, role: 'customer', instagram: '@mariana' } });
    expect(own.status).toBe(200);
    expect(own.body.customer).toMatchObject({ customer_id: clienteId, instagram: '@mariana', role: 'customer' });
    // No silent drop (decision 032): answering 200 while keeping neither would tell her it was saved.
    const other = await call(server.app, 'PUT', '/api/customer', { token: cliente, body: { customer_id: nuevoId, name: 'Mariana' } });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('forbidden');
    const promoted = await call(server.app, 'PUT', '/api/customer', { token: cliente, body: { name: 'Mariana', role: 'admin' } });
    expect(promoted.status).toBe(403);
    const [row] = await server.db.select().from(customer).where(eq(customer.customer_id, clienteId));
    expect(row?.role).toBe('customer');
    expect(await lastAudit('customer', clienteId)).toBeUndefined();
    const [victim] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(victim?.name).toBe('Diego');
  });
});

describe('POST /api/customer/recover', () => {
  it('writes the recovery e-mail to the outbox and audits who sent it', async () => {
    const res = await call(server.app, 'POST', '/api/customer/recover', { token: admin, body: { email: 'Cliente@Estudio.demo' } });
    expect(res.status).toBe(200);
    // This studio has no e-mail set up: the answer says the e-mail waits, never that it went (decision 079).
    expect(res.body.message).toBe(texts.adminCommerce.recoverNotSent);
    const [mail] = await server.db.select().from(outbox_message).where(eq(outbox_message.recipient, 'cliente@estudio.demo')).orderBy(desc(outbox_message.outbox_message_id)).limit(1);
    expect(mail?.body).toContain('/recuperar?token=');
    expect(mail?.status).toBe('pending');
    expect(await lastAudit('customer', clienteId)).toMatchObject({ customer_id: adminId, action: 'recover' });

    const unknown = await call(server.app, 'POST', '/api/customer/recover', { token: admin, body: { email: 'nadie@correo.mx' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('customer/unknown');
  });
});

describe("an admin changes a customer's e-mail", () => {
  it('moves the sign-in and the customer to the new e-mail, ending her sessions, audited', async () => {
    const id = await customerId(server.db, 'ilimitado@estudio.demo');
    const session = (await login(server.app, 'ilimitado@estudio.demo')).idToken;
    // Tokens carry whole seconds: the change must come in a later second than the session's.
    await new Promise((r) => setTimeout(r, 1100 - (Date.now() % 1000)));
    const res = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: id, email: 'Ilimitado.Nuevo@Estudio.Demo' } });
    expect(res.status).toBe(200);
    expect(res.body.customer.email).toBe('ilimitado.nuevo@estudio.demo');
    expect((await call(server.app, 'GET', '/api/customer', { token: session })).body.code).toBe('auth/id-token-revoked');
    expect((await call(server.app, 'POST', '/api/auth/login', { body: { email: 'ilimitado@estudio.demo', password: 'Demo1234!' } })).body.code).toBe('auth/user-not-found');
    expect((await login(server.app, 'ilimitado.nuevo@estudio.demo')).email).toBe('ilimitado.nuevo@estudio.demo');
    const [audit] = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'customer'), eq(audit_log.entity_id, String(id)))).orderBy(desc(audit_log.audit_log_id)).limit(1);
    expect(audit?.changes).toMatchObject({ email: { from: 'ilimitado@estudio.demo', to: 'ilimitado.nuevo@estudio.demo' } });
  });

  it("refuses an e-mail another account has, changing nothing; a customer changes her own only with the mailed link", async () => {
    const id = await customerId(server.db, 'ilimitado.nuevo@estudio.demo');
    const taken = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: id, email: 'nuevo@estudio.demo', name: 'Otro' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'customer/email-taken', message: 'Ya existe una cuenta con ese correo electrónico.' });
    const [row] = await server.db.select().from(customer).where(eq(customer.customer_id, id));
    expect(row).toMatchObject({ email: 'ilimitado.nuevo@estudio.demo' });
    expect(row?.name).not.toBe('Otro');

    const own = await call(server.app, 'PUT', '/api/customer', { token: cliente, body: { email: 'otra@correo.mx' } });
    expect(own.status).toBe(400);
    expect(own.body.code).toBe('customer/email-via-link');
    // Sending her own e-mail back unchanged (the portal sends the whole profile) is fine.
    expect((await call(server.app, 'PUT', '/api/customer', { token: cliente, body: { email: 'cliente@estudio.demo' } })).status).toBe(200);
  });
});
