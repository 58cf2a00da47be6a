import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * Recepción edits a customer at the counter (decision 107): the contact
 * details, the photo and the studio's questions, each save a row in Actividad;
 * what is the owner's (the role, a signed-in customer's e-mail, the staff's
 * accounts) is refused naming it, and nothing of that save is kept.
 */
let server: TestServer;
let recepcion: string;
let admin: string;
let recepcionId: number;
let nuevoId: number;
let adminId: number;
demoStudio(['recepcion', 'admin'], (s) => ({ server, tokens: { recepcion, admin } } = s));
beforeAll(async () => {
  recepcionId = await customerId(server.db, 'recepcion@estudio.demo');
  nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
  adminId = await customerId(server.db, 'admin@estudio.demo');
}, 120_000);

const save = (body: Record<string, unknown>) => call(server.app, 'PUT', '/api/customer', { token: recepcion, body });
const row = async (id: number) => (await server.db.select().from(customer).where(eq(customer.customer_id, id)))[0]!;
const lastAudit = async (id: number) =>
  (await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'customer'), eq(audit_log.entity_id, String(id)))).orderBy(desc(audit_log.audit_log_id)).limit(1))[0];

describe('PUT /api/customer by Recepción', () => {
  it("fixes a customer's phone, birth date and emergency contact: stored, answered as stored, and in Actividad under her name", async () => {
    const res = await save({ customer_id: nuevoId, phone: '5512987654', birthdate: '1995-02-14', custom_fields: { emergency_contact: 'Laura Ruiz 55 1111 2222' } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.customer).toMatchObject({ customer_id: nuevoId, phone: '5512987654', birthdate: '1995-02-14', custom_fields: { emergency_contact: 'Laura Ruiz 55 1111 2222' } });
    expect(await row(nuevoId)).toMatchObject({ phone: '5512987654', birthdate: '1995-02-14' });
    const audit = await lastAudit(nuevoId);
    expect(audit).toMatchObject({ customer_id: recepcionId, action: 'update' });
    expect(Object.keys(audit!.changes as object)).toEqual(['phone', 'birthdate', 'custom_fields']);
  });

  it('a health answer needs the customer’s consent, given at the counter', async () => {
    const without = await save({ customer_id: nuevoId, custom_fields: { health_notes: 'Dolor de espalda baja' } });
    expect(without.status).toBe(400);
    expect(without.body.code).toBe('customer/sensitive-consent-required');
    const given = await save({ customer_id: nuevoId, custom_fields: { health_notes: 'Dolor de espalda baja' }, sensitive_consent: true });
    expect(given.status, given.raw).toBe(200);
    expect(given.body.customer.custom_fields.health_notes).toBe('Dolor de espalda baja');
    // The answer itself is not copied into Actividad, only which question changed.
    expect(JSON.stringify((await lastAudit(nuevoId))!.changes)).not.toContain('espalda');
  });

  it("refuses the role and a signed-in customer's e-mail naming them, keeping nothing of that save", async () => {
    const before = await row(nuevoId);
    const role = await save({ customer_id: nuevoId, name: 'Otro', role: 'staff' });
    expect(role.status).toBe(403);
    // A role is an administrator's to give, as every admin-only call is refused.
    expect(role.body).toMatchObject({ code: 'forbidden', message: 'No tienes permiso para realizar esta acción.' });
    const email = await save({ customer_id: nuevoId, email: 'otro.correo@estudio.demo' });
    expect(email.status, email.raw).toBe(403);
    expect(email.body.message).toBe('Recepción no puede cambiar «Correo electrónico» de un cliente; pídeselo a un administrador.');
    expect(await row(nuevoId)).toMatchObject({ name: before.name, role: before.role, email: before.email });
  });

  it('fixes the e-mail of a walk-in who has no sign-in yet', async () => {
    const [walkIn] = await server.db
      .insert(customer)
      .values({ uid: null, email: 'rocio.mostrador@gmial.com', name: 'Rocío', last_name: 'Mostrador' })
      .returning({ id: customer.customer_id });
    const res = await save({ customer_id: walkIn!.id, email: 'rocio.mostrador@gmail.com' });
    expect(res.status, res.raw).toBe(200);
    expect((await row(walkIn!.id)).email).toBe('rocio.mostrador@gmail.com');
  });

  it("leaves the staff's accounts to an administrator, who still changes anything", async () => {
    const staff = await save({ customer_id: adminId, phone: '5500000001' });
    expect(staff.status).toBe(403);
    expect(staff.body).toMatchObject({ code: 'customer/staff-account', message: 'Los datos del personal y de los coaches los cambia un administrador.' });
    const byAdmin = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: nuevoId, name: 'Diego Alberto', signup_reason: 'Instagram' } });
    expect(byAdmin.status, byAdmin.raw).toBe(200);
    expect(byAdmin.body.customer).toMatchObject({ name: 'Diego Alberto', signup_reason: 'Instagram' });
  });

  it('her own profile is saved as any customer’s, an unknown field is a 400 naming it', async () => {
    const own = await save({ instagram: '@recepcion.demo' });
    expect(own.status).toBe(200);
    expect(own.body.customer).toMatchObject({ customer_id: recepcionId, instagram: '@recepcion.demo' });
    const unknown = await save({ customer_id: nuevoId, apodo: 'Dieguito' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('apodo');
  });

  it('a form that sends the e-mail back as stored changes nothing of it, for Recepción and for a customer saving her own', async () => {
    const diego = await row(nuevoId);
    const staffSave = await save({ customer_id: nuevoId, email: diego.email.toUpperCase(), instagram: '@diego.mostrador' });
    expect(staffSave.status, staffSave.raw).toBe(200);
    expect(staffSave.body.customer).toMatchObject({ email: diego.email, instagram: '@diego.mostrador' });
    const cliente = await call(server.app, 'POST', '/api/auth/login', { body: { email: 'cliente@estudio.demo', password: 'Demo1234!' } });
    const clienteId = await customerId(server.db, 'cliente@estudio.demo');
    const own = await call(server.app, 'PUT', '/api/customer', { token: cliente.body.idToken, body: { customer_id: clienteId, email: 'cliente@estudio.demo', instagram: '@mariana.propia' } });
    expect(own.status, own.raw).toBe(200);
    expect(own.body.customer).toMatchObject({ customer_id: clienteId, instagram: '@mariana.propia' });
  });
});
