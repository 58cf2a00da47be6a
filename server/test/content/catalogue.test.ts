import { describe, expect, it } from 'vitest';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
let admin: string;
let cliente: string;
demoStudio(['admin', 'cliente'], (s) => ({ server, tokens: { admin, cliente } } = s));

describe('class categories', () => {
  it("creates with 'nueva' as id (dropped), available by default and a derived handle; lists available ones", async () => {
    const created = await call(server.app, 'POST', '/api/class_categories', {
      token: admin,
      body: { class_category_id: 'nueva', name: 'Baile y Expresión' },
    });
    expect(created.status).toBe(200);
    expect(created.body.class_category).toMatchObject({ name: 'Baile y Expresión', handle: 'baile-y-expresion', available: true });
    const id = created.body.class_category.class_category_id as number;

    const available = await call(server.app, 'GET', '/api/class_categories/available');
    expect(available.status).toBe(200);
    expect((available.body.class_categories as { class_category_id: number }[]).some((c) => c.class_category_id === id)).toBe(true);

    await call(server.app, 'PUT', '/api/class_categories', { token: admin, body: { class_category_id: id, available: false } });
    const after = await call(server.app, 'GET', '/api/class_categories/available');
    expect((after.body.class_categories as { class_category_id: number }[]).some((c) => c.class_category_id === id)).toBe(false);
    const all = await call(server.app, 'GET', '/api/class_categories');
    expect((all.body.class_categories as { class_category_id: number }[]).some((c) => c.class_category_id === id)).toBe(true);
    expect((await call(server.app, 'GET', `/api/class_categories/${id}`)).body.class_category.available).toBe(false);

    const dup = await call(server.app, 'POST', '/api/class_categories', { token: admin, body: { name: 'Baile y expresión' } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('class-category/handle-taken');

    expect((await call(server.app, 'POST', '/api/class_categories', { token: cliente, body: { name: 'X' } })).status).toBe(403);
    expect((await call(server.app, 'DELETE', `/api/class_categories/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
    expect((await call(server.app, 'GET', `/api/class_categories/${id}`)).status).toBe(404);
  });
});

describe('class types', () => {
  it('lists publicly, admins create, update and delete; one with classes cannot be deleted', async () => {
    const list = await call(server.app, 'GET', '/api/class_types');
    expect(list.status).toBe(200);
    const seeded = list.body.class_types as { class_type_id: number }[];
    expect(seeded.length).toBeGreaterThan(0);

    const created = await call(server.app, 'POST', '/api/class_types', {
      token: admin,
      body: { class_type_id: 'nuevo', name: 'Stretching', spot_map: '3,4', order: 7 },
    });
    expect(created.status).toBe(200);
    const id = created.body.class_type.class_type_id as number;
    expect(created.body.class_type).toMatchObject({ name: 'Stretching', spot_map: '3,4', available: true, order: 7 });

    const badMap = await call(server.app, 'PUT', '/api/class_types', { token: admin, body: { class_type_id: id, spot_map: '3;4' } });
    expect(badMap.status).toBe(400);
    const updated = await call(server.app, 'PUT', '/api/class_types', { token: admin, body: { class_type_id: id, spot_map: '', description: 'Movilidad' } });
    expect(updated.body.class_type).toMatchObject({ spot_map: null, description: 'Movilidad' });
    expect((await call(server.app, 'GET', `/api/class_types/${id}`)).body.class_type.name).toBe('Stretching');

    expect((await call(server.app, 'DELETE', `/api/class_types/${id}`, { token: cliente })).status).toBe(403);
    expect((await call(server.app, 'DELETE', `/api/class_types/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
    expect((await call(server.app, 'GET', `/api/class_types/${id}`)).status).toBe(404);

    const inUse = await call(server.app, 'DELETE', `/api/class_types/${seeded[0]?.class_type_id}`, { token: admin });
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('in-use');
  });

  it("carries its level and what to bring: the owner writes them, the week's classes say them, an empty text clears them", async () => {
    const types = (await call(server.app, 'GET', '/api/class_types')).body.class_types as { class_type_id: number; name: string; level: string | null; what_to_bring: string | null }[];
    const yoga = types.find((t) => t.name === 'Yoga');
    expect(yoga).toMatchObject({ level: 'Todos los niveles', what_to_bring: 'Ropa cómoda y agua; el estudio presta tapetes y bloques.' });
    const id = yoga!.class_type_id;
    try {
      const saved = await call(server.app, 'PUT', '/api/class_types', { token: admin, body: { class_type_id: id, level: '  Principiante  ', what_to_bring: 'Tapete propio.' } });
      expect(saved.status).toBe(200);
      expect(saved.body.class_type).toMatchObject({ level: 'Principiante', what_to_bring: 'Tapete propio.' });
      const today = new Date().toISOString().slice(0, 10);
      const inTwoWeeks = new Date(Date.now() + 13 * 86_400_000).toISOString().slice(0, 10);
      const week = await call(server.app, 'GET', `/api/single_class?start_date=${today}&end_date=${inTwoWeeks}&class_type_id=${id}`);
      const classes = week.body.single_classes as { class_type: { level: string | null; what_to_bring: string | null } }[];
      expect(classes.length).toBeGreaterThan(0);
      for (const c of classes) expect(c.class_type).toMatchObject({ level: 'Principiante', what_to_bring: 'Tapete propio.' });
      const tooLong = await call(server.app, 'PUT', '/api/class_types', { token: admin, body: { class_type_id: id, level: 'x'.repeat(101) } });
      expect(tooLong.status).toBe(400);
      expect((await call(server.app, 'GET', `/api/class_types/${id}`)).body.class_type.level).toBe('Principiante');
    } finally {
      const cleared = await call(server.app, 'PUT', '/api/class_types', { token: admin, body: { class_type_id: id, level: 'Todos los niveles', what_to_bring: 'Ropa cómoda y agua; el estudio presta tapetes y bloques.' } });
      expect(cleared.status).toBe(200);
    }
    const none = await call(server.app, 'POST', '/api/class_types', { token: admin, body: { name: 'Meditación', level: '', what_to_bring: null } });
    expect(none.body.class_type).toMatchObject({ level: null, what_to_bring: null });
    await call(server.app, 'DELETE', `/api/class_types/${none.body.class_type.class_type_id}`, { token: admin });
  });
});

describe('locations (admin)', () => {
  it('creates, reads, updates and deletes; customers get 403; a location with classes is in use', async () => {
    const seeded = ((await call(server.app, 'GET', '/api/locations')).body.locations as { location_id: number }[])[0]?.location_id;
    const created = await call(server.app, 'POST', '/api/locations', {
      token: admin,
      body: { location_id: 'nueva', name: 'Polanco', address: 'Av. Presidente Masaryk 100', maps_url: 'https://maps.example.com/polanco' },
    });
    expect(created.status).toBe(200);
    const id = created.body.location.location_id as number;
    expect(created.body.location).toMatchObject({ name: 'Polanco', available: true, city: null });

    const list = await call(server.app, 'GET', '/api/locations');
    expect((list.body.locations as { location_id: number }[]).some((l) => l.location_id === id)).toBe(true);

    const updated = await call(server.app, 'PUT', '/api/locations', { token: admin, body: { location_id: id, city: 'Ciudad de México', available: false } });
    expect(updated.body.location).toMatchObject({ city: 'Ciudad de México', available: false });
    expect((await call(server.app, 'GET', `/api/locations/${id}`)).body.location.city).toBe('Ciudad de México');

    const missingAddress = await call(server.app, 'POST', '/api/locations', { token: admin, body: { name: 'Sin dirección' } });
    expect(missingAddress.status).toBe(400);
    expect((await call(server.app, 'POST', '/api/locations', { token: cliente, body: { name: 'X', address: 'Y' } })).status).toBe(403);

    expect((await call(server.app, 'DELETE', `/api/locations/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
    expect((await call(server.app, 'PUT', '/api/locations', { token: admin, body: { location_id: id, name: 'X' } })).status).toBe(404);

    const inUse = await call(server.app, 'DELETE', `/api/locations/${seeded}`, { token: admin });
    expect(inUse.status).toBe(409);
  });
});
