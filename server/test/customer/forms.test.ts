import { describe, expect, it } from 'vitest';
import { custom_field } from '@estudio/db/schema/content';
import { validateAddress, validateForm, type FormOutput } from '@estudio/core';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
let admin: string;
let cliente: string;
demoStudio(['admin', 'cliente'], (s) => ({ server, tokens: { admin, cliente } } = s));

describe('forms', () => {
  it('lists the seeded forms with fields ordered by step then order, usable by the shared validator', async () => {
    const res = await call(server.app, 'GET', '/api/forms');
    expect(res.status).toBe(200);
    const forms = res.body.forms as FormOutput[];
    const profile = forms.find((f) => f.object === 'customer');
    const address = forms.find((f) => f.object === 'address');
    expect(profile && address).toBeTruthy();
    if (!profile || !address) return;
    const steps = profile.form_fields.map((f) => [f.step, f.order]);
    expect(steps).toEqual([...steps].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0)));

    const one = await call(server.app, 'GET', `/api/forms/${address.form_id}`);
    expect(one.body.form.form_fields.map((f: { key: string }) => f.key)).toContain('city');
    const result = validateForm(address.form_fields, { city: 'CDMX' }, { object: address.object });
    expect(result.errors).toEqual({ state: 'Debes agregar tu estado.', country: 'Debes agregar tu país.' });
    expect(validateAddress({ city: 'CDMX', state: 'CDMX', country: 'México' }).ok).toBe(true);
    expect((await call(server.app, 'GET', '/api/forms/999999')).status).toBe(404);
  });

  it('admins create, update (replacing fields) and delete a form; customers get 403', async () => {
    const created = await call(server.app, 'POST', '/api/forms', {
      token: admin,
      body: {
        form_id: 'nuevo',
        name: 'Salud',
        object: 'customer',
        form_fields: [
          { key: 'lesion', label: '¿Tienes alguna lesión?', type: 'boolean', required: true, step: 1, order: 0 },
          { key: 'detalle', label: 'Cuéntanos', type: 'textarea', required: false, step: 1, order: 1, precondition: { key: 'lesion', value: true } },
          { key: 'certificado', label: 'Certificado médico', type: 'file', required: true, step: 0, order: 0 },
        ],
      },
    });
    expect(created.status).toBe(200);
    const form = created.body.form as FormOutput;
    expect(form.form_fields.map((f) => f.key)).toEqual(['certificado', 'lesion', 'detalle']);
    expect(form.form_fields[2]).toMatchObject({ name: 'detalle', precondition: { key: 'lesion', value: true }, options: null });

    const invalid = await call(server.app, 'POST', '/api/forms', {
      token: admin,
      body: { name: 'Malo', form_fields: [{ key: 'x', label: 'X', type: 'color' }] },
    });
    expect(invalid.status).toBe(400);
    const dupKeys = await call(server.app, 'POST', '/api/forms', {
      token: admin,
      body: { name: 'Malo', form_fields: [{ key: 'x', label: 'X', type: 'text' }, { key: 'x', label: 'Y', type: 'text' }] },
    });
    expect(dupKeys.status).toBe(400);

    const updated = await call(server.app, 'PUT', '/api/forms', {
      token: admin,
      body: { form_id: form.form_id, name: 'Salud y lesiones', form_fields: [{ key: 'tipo_sangre', label: 'Tipo de sangre', type: 'select', required: true, options: [{ label: 'O+', value: 'O+' }] }] },
    });
    expect(updated.body.form).toMatchObject({ name: 'Salud y lesiones', object: 'customer' });
    expect(updated.body.form.form_fields).toHaveLength(1);
    const renamed = await call(server.app, 'PUT', '/api/forms', { token: admin, body: { form_id: form.form_id, name: 'Salud' } });
    expect(renamed.body.form.form_fields).toHaveLength(1);

    expect((await call(server.app, 'POST', '/api/forms', { token: cliente, body: { name: 'X' } })).status).toBe(403);
    expect((await call(server.app, 'DELETE', `/api/forms/${form.form_id}`, { token: cliente })).status).toBe(403);
    expect((await call(server.app, 'DELETE', `/api/forms/${form.form_id}`, { token: admin })).body).toEqual({ deleted: true, id: form.form_id });
    expect((await call(server.app, 'GET', `/api/forms/${form.form_id}`)).status).toBe(404);
  });
});

describe('custom fields', () => {
  it('lists by object type and answers one by id', async () => {
    const before = (await call(server.app, 'GET', '/api/custom_fields')).body.custom_fields as unknown[];
    const [row] = await server.db
      .insert(custom_field)
      .values([
        { object: 'customer', key: 'emergency_phone', label: 'Teléfono de emergencia', type: 'phone', required: true },
        { object: 'instructor', key: 'music', label: 'Música', type: 'text', required: false },
      ])
      .returning();
    const list = await call(server.app, 'GET', '/api/custom_fields?object=customer');
    expect(list.status).toBe(200);
    const fields = list.body.custom_fields as { object: string; key: string }[];
    expect(fields.every((f) => f.object === 'customer')).toBe(true);
    expect(fields.find((f) => f.key === 'emergency_phone')).toEqual({
      custom_field_id: row?.custom_field_id,
      object: 'customer',
      key: 'emergency_phone',
      label: 'Teléfono de emergencia',
      type: 'phone',
      required: true,
      options: null,
      sensitive: false,
    });
    expect((await call(server.app, 'GET', '/api/custom_fields')).body.custom_fields).toHaveLength(before.length + 2);
    expect((await call(server.app, 'GET', `/api/custom_fields/${row?.custom_field_id}`)).body.custom_field.key).toBe('emergency_phone');
    expect((await call(server.app, 'GET', '/api/custom_fields/999999')).status).toBe(404);
  });
});
