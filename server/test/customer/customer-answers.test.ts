import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { customer, customer_field_value } from '@estudio/db/schema/customer';
import { file, form, form_field } from '@estudio/db/schema/content';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Decision 087, the studio's own questions as customers and staff live them:
 * the demo asks "Antes de tu primera clase" (emergency contact, and the health
 * question asked with express consent) once before the first booking; Mariana
 * answered it, Diego (nuevo@) has not; a required question the owner adds to
 * the sign-up form is asked at sign-up and blocks booking for those who lack
 * it; every answer is checked by its type with the spec's messages; an unknown
 * key is refused naming it; staff read the answers at the desk, customers and
 * coaches cannot; a health answer never reaches the activity log.
 */

let server: TestServer;
let mariana: string;
let diego: string;
let admin: string;
let recepcion: string;
let marianaId: number;

demoStudio(['cliente', 'nuevo', 'admin', 'recepcion'], (s) => ({ server, tokens: { cliente: mariana, nuevo: diego, admin, recepcion } } = s));
beforeAll(async () => {
  const [row] = await server.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  marianaId = row?.id ?? -1;
}, 120_000);

const me = (token: string) => call(server.app, 'GET', '/api/customer', { token });
const save = (token: string, body: Record<string, unknown>) => call(server.app, 'PUT', '/api/customer', { token, body });

describe('her own profile', () => {
  it('Mariana reads her answers and has nothing pending; Diego must answer his profile and the first-class questions first', async () => {
    const hers = await me(mariana);
    expect(hers.body.customer.custom_fields).toEqual({
      emergency_contact: 'Jorge López (esposo) 55 1234 0099',
      health_notes: 'Lesión antigua de rodilla derecha: evito saltos.',
    });
    expect(hers.body.customer.pending_fields).toEqual([]);
    const his = await me(diego);
    expect(his.body.customer.custom_fields).toEqual({});
    expect(his.body.customer.pending_fields).toEqual(['phone', 'birthdate', 'emergency_contact', 'health_notes']);
  });

  it('an answer is stored and the save answers the record as stored; an empty one counts as asked', async () => {
    const saved = await save(diego, { custom_fields: { emergency_contact: '  Ana Ruiz 55 8888 7777 ', health_notes: '' } });
    expect(saved.status, saved.raw).toBe(200);
    expect(saved.body.customer.custom_fields).toEqual({ emergency_contact: 'Ana Ruiz 55 8888 7777' });
    expect(saved.body.customer.pending_fields).toEqual(['phone', 'birthdate']);
    expect((await me(diego)).body.customer).toMatchObject({ custom_fields: { emergency_contact: 'Ana Ruiz 55 8888 7777' }, pending_fields: ['phone', 'birthdate'] });
  });

  it('a key that is none of the studio’s questions is refused naming it, and nothing of the save is kept', async () => {
    const before = await me(diego);
    const res = await save(diego, { name: 'Diego Armando', custom_fields: { emergency_contact: 'Otra persona', talla_de_zapato: 25 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation/unknown-field', field: 'custom_fields.talla_de_zapato', message: 'El campo "custom_fields.talla_de_zapato" no existe en esta operación.' });
    const after = await me(diego);
    expect(after.body.customer.name).toBe(before.body.customer.name);
    expect(after.body.customer.custom_fields).toEqual(before.body.customer.custom_fields);
    // The profile's own columns travel at the top level, not as answers.
    const column = await save(diego, { custom_fields: { phone: '5512345678' } });
    expect(column.body).toMatchObject({ code: 'validation/unknown-field', field: 'custom_fields.phone' });
  });

  it('a health answer is stored only with her express consent; resent unchanged it keeps it; emptied, the consent goes with it', async () => {
    const refused = await save(diego, { custom_fields: { health_notes: 'Asma controlada' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'customer/sensitive-consent-required',
      field: 'custom_fields.health_notes',
      message: 'Para guardar esta información de salud necesitamos tu consentimiento expreso: marca la casilla.',
    });
    const given = await save(diego, { custom_fields: { health_notes: 'Asma controlada' }, sensitive_consent: true });
    expect(given.status, given.raw).toBe(200);
    expect(given.body.customer.custom_fields.health_notes).toBe('Asma controlada');
    const diegoId = given.body.customer.customer_id as number;
    const stored = async () =>
      (await server.db.select().from(customer_field_value).where(and(eq(customer_field_value.customer_id, diegoId), eq(customer_field_value.key, 'health_notes'))))[0];
    const consentedAt = (await stored())?.consented_at;
    expect(consentedAt).toBeInstanceOf(Date);
    const resent = await save(diego, { custom_fields: { health_notes: 'Asma controlada', emergency_contact: 'Ana Ruiz 55 8888 7777' } });
    expect(resent.status, resent.raw).toBe(200);
    expect((await stored())?.consented_at).toEqual(consentedAt);
    const changed = await save(diego, { custom_fields: { health_notes: 'Asma y alergia al látex' } });
    expect(changed.body.code).toBe('customer/sensitive-consent-required');
    const emptied = await save(diego, { custom_fields: { health_notes: null } });
    expect(emptied.status).toBe(200);
    expect(emptied.body.customer.custom_fields).not.toHaveProperty('health_notes');
    expect(await stored()).toMatchObject({ value: null, consented_at: null });
  });
});

describe('a required question the owner adds to the sign-up form', () => {
  let formId: number;
  beforeAll(async () => {
    const forms = await call(server.app, 'GET', '/api/forms');
    const signupForm = (forms.body.forms as { form_id: number; placement: string; form_fields: Record<string, unknown>[] }[]).find((f) => f.placement === 'signup');
    if (!signupForm) throw new Error('the demo has a sign-up form');
    formId = signupForm.form_id;
    const fields = signupForm.form_fields.map(({ form_field_id: _id, form_id: _form, ...f }) => f);
    const updated = await call(server.app, 'PUT', '/api/forms', {
      token: admin,
      body: {
        form_id: formId,
        form_fields: [
          ...fields,
          { key: 'level', label: '¿Cuál es tu nivel?', type: 'select', required: true, step: 2, order: 0, options: [{ label: 'Principiante', value: 'principiante' }, { label: 'Avanzado', value: 'avanzado' }] },
          { key: 'weekly_classes', label: '¿Cuántas clases quieres tomar por semana?', type: 'number', required: true, step: 2, order: 1 },
          { key: 'goals', label: 'Tus objetivos', type: 'creatable-select', required: false, step: 2, order: 2 },
          { key: 'medical_certificate', label: 'Certificado médico', type: 'file', required: false, step: 2, order: 3 },
        ],
      },
    });
    expect(updated.status, updated.raw).toBe(200);
  });
  afterAll(async () => {
    await server.db.delete(form_field).where(and(eq(form_field.form_id, formId), eq(form_field.key, 'level')));
    await server.db.delete(form_field).where(and(eq(form_field.form_id, formId), eq(form_field.key, 'weekly_classes')));
  });

  it('blocks booking for a customer who lacks it: it is pending for Mariana now', async () => {
    expect((await me(mariana)).body.customer.pending_fields).toEqual(['level', 'weekly_classes']);
  });

  it('each answer is checked by its type with the spec’s messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ level: 'experta' }, 'level', 'Revisa el campo: ¿Cuál es tu nivel? Elige una de las opciones.'],
      [{ level: null }, 'level', 'Revisa el campo: ¿Cuál es tu nivel? Debes seleccionar una opción.'],
      [{ weekly_classes: -2 }, 'weekly_classes', 'Revisa el campo: ¿Cuántas clases quieres tomar por semana? Escribe un número mayor o igual a cero.'],
      [{ goals: 'fuerza' }, 'goals', 'Revisa el campo: Tus objetivos. El valor no es válido.'],
      [{ medical_certificate: 'abc' }, 'medical_certificate', 'Revisa el campo: Certificado médico. Debes cargar el archivo solicitado.'],
    ];
    for (const [answers, key, message] of cases) {
      const res = await save(mariana, { custom_fields: answers });
      expect(res.status, JSON.stringify(answers)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation', field: `custom_fields.${key}`, message });
    }
  });

  it('a file answer must be her own upload', async () => {
    const [theirs] = await server.db.insert(file).values({ name: 'ajeno.pdf', type: 'application/pdf', src: '/files/ajeno.pdf', customer_id: (await me(diego)).body.customer.customer_id }).returning();
    const res = await save(mariana, { custom_fields: { medical_certificate: theirs?.file_id } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'custom_fields.medical_certificate', message: 'Revisa el campo: Certificado médico. Debes cargar el archivo solicitado.' });
  });

  it('answered, she may book again; a list keeps its words once each', async () => {
    const res = await save(mariana, { custom_fields: { level: 'avanzado', weekly_classes: '3', goals: [' fuerza ', 'fuerza', 'flexibilidad'] } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.customer.custom_fields).toMatchObject({ level: 'avanzado', weekly_classes: 3, goals: ['fuerza', 'flexibilidad'] });
    expect(res.body.customer.pending_fields).toEqual([]);
  });

  it('is asked at sign-up: without it the sign-up is refused, with it the answers are stored', async () => {
    const email = 'sofia.intake@estudio.demo';
    const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Sofia2024!' } });
    expect(identity.status, identity.raw).toBe(200);
    const pages = await call(server.app, 'GET', '/api/pages');
    const required = (pages.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
    const base = { name: 'Sofía', last_name: 'Ramos', email, phone: '+52 (55) 7777-1234', birthdate: '1995-06-02', accepted_page_ids: required };
    const without = await call(server.app, 'POST', '/api/customer/signup', { token: identity.body.idToken, body: base });
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ field: 'custom_fields.level', message: 'Revisa el campo: ¿Cuál es tu nivel? Debes seleccionar una opción.' });
    const signedUp = await call(server.app, 'POST', '/api/customer/signup', {
      token: identity.body.idToken,
      body: { ...base, custom_fields: { level: 'principiante', weekly_classes: 2 } },
    });
    expect(signedUp.status, signedUp.raw).toBe(200);
    // +52 is Mexico's code: the ten digits are kept.
    expect(signedUp.body.customer).toMatchObject({ phone: '5577771234', custom_fields: { level: 'principiante', weekly_classes: 2 } });
    // The first-class questions come before the first booking, not at sign-up.
    expect(signedUp.body.customer.pending_fields).toEqual(['emergency_contact', 'health_notes']);
  });
});

describe('at the desk', () => {
  it('staff read every question with her answers, health included; a customer and the owner’s audit never see the health text', async () => {
    const res = await call(server.app, 'GET', `/api/customer/${marianaId}/answers`, { token: recepcion });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.answers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'emergency_contact', label: 'Contacto de emergencia (nombre y teléfono)', text: 'Jorge López (esposo) 55 1234 0099', sensitive: false }),
        expect.objectContaining({ key: 'health_notes', text: 'Lesión antigua de rodilla derecha: evito saltos.', sensitive: true, consented_at: expect.any(String) }),
      ]),
    );
    // The question comes with its answer as stored, so staff can answer it at the desk.
    expect(res.body.answers.find((a: { key: string }) => a.key === 'health_notes')).toMatchObject({
      type: 'textarea',
      required: false,
      options: null,
      precondition: null,
      value: 'Lesión antigua de rodilla derecha: evito saltos.',
    });
    const asCustomer = await call(server.app, 'GET', `/api/customer/${marianaId}/answers`, { token: diego });
    expect(asCustomer.status).toBe(403);
    const missing = await call(server.app, 'GET', '/api/customer/999999/answers', { token: recepcion });
    expect(missing.status).toBe(404);

    const edited = await save(admin, { customer_id: marianaId, custom_fields: { emergency_contact: 'Jorge López 55 1234 0099' } });
    expect(edited.status, edited.raw).toBe(200);
    const logged = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'customer'), eq(audit_log.entity_id, String(marianaId))));
    expect(JSON.stringify(logged.map((l) => l.changes))).not.toContain('Jorge');
    expect(JSON.stringify(logged.map((l) => l.changes))).toContain('emergency_contact');
  });

  it('reception answers for her at the counter: a health answer only with her consent, given there, and the save is in Actividad without its text', async () => {
    const [row] = await server.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'nuevo@estudio.demo'));
    const diegoId = row?.id ?? -1;
    const noConsent = await save(recepcion, { customer_id: diegoId, custom_fields: { emergency_contact: 'Lucía Pérez 55 2222 3333', health_notes: 'Asma leve' } });
    expect(noConsent.status).toBe(400);
    expect(noConsent.body).toMatchObject({ field: 'custom_fields.health_notes' });
    expect(noConsent.body.message).toMatch(/consentimiento/i);
    // Refused whole: the emergency contact of that save was not kept either.
    const untouched = await call(server.app, 'GET', `/api/customer/${diegoId}/answers`, { token: recepcion });
    expect(untouched.body.answers.find((a: { key: string }) => a.key === 'emergency_contact').value).not.toBe('Lucía Pérez 55 2222 3333');

    const saved = await save(recepcion, {
      customer_id: diegoId,
      custom_fields: { emergency_contact: 'Lucía Pérez 55 2222 3333', health_notes: 'Asma leve' },
      sensitive_consent: true,
    });
    expect(saved.status, saved.raw).toBe(200);
    const after = await call(server.app, 'GET', `/api/customer/${diegoId}/answers`, { token: recepcion });
    expect(after.body.answers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'emergency_contact', value: 'Lucía Pérez 55 2222 3333' }),
        expect.objectContaining({ key: 'health_notes', value: 'Asma leve', consented_at: expect.any(String) }),
      ]),
    );
    const logged = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'customer'), eq(audit_log.entity_id, String(diegoId))));
    expect(JSON.stringify(logged.map((l) => l.changes))).toContain('health_notes');
    expect(JSON.stringify(logged.map((l) => l.changes))).not.toContain('Asma');
  });

  it('no answer reaches a public answer or a form definition', async () => {
    for (const url of ['/api/forms', '/api/custom_fields?object=customer', '/api/instructors', '/api/appconfig']) {
      const res = await call(server.app, 'GET', url);
      expect(res.raw, url).not.toContain('rodilla');
    }
    const fields = await call(server.app, 'GET', '/api/custom_fields?object=customer');
    expect(fields.body.custom_fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'health_notes', sensitive: true }), expect.objectContaining({ key: 'emergency_contact', sensitive: false })]),
    );
    const placements = (await call(server.app, 'GET', '/api/forms')).body.forms.map((f: { name: string; placement: string }) => [f.name, f.placement]);
    expect(placements).toEqual([
      ['Información personal', 'signup'],
      ['Antes de tu primera clase', 'booking'],
      ['Dirección', 'profile'],
    ]);
    // form.id is stable for the seed's first form.
    expect((await server.db.select({ id: form.form_id }).from(form)).length).toBe(3);
  });
});
