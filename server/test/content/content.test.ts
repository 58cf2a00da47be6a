import { describe, expect, it } from 'vitest';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
let admin: string;
let cliente: string;
demoStudio(['admin', 'cliente'], (s) => ({ server, tokens: { admin, cliente } } = s));

describe('pages (admin)', () => {
  it('creates, updates and deletes a page; the HTML is stored as given and never served as HTML', async () => {
    const html = '<h2>Horarios</h2><script>alert(1)</script>';
    const created = await call(server.app, 'POST', '/api/pages', {
      token: admin,
      body: { page_id: 'nueva', slug: 'horarios-especiales', title: 'Horarios especiales', content: html, order: 9 },
    });
    expect(created.status).toBe(200);
    expect(created.headers['content-type']).toMatch(/^application\/json/);
    expect(created.body.page).toMatchObject({ slug: 'horarios-especiales', content: html, required: false, order: 9 });
    const id = created.body.page.page_id as number;

    const read = await call(server.app, 'GET', '/api/pages/horarios-especiales');
    expect(read.headers['content-type']).toMatch(/^application\/json/);
    expect(read.body.page.content).toBe(html);

    const updated = await call(server.app, 'PUT', '/api/pages', { token: admin, body: { page_id: id, title: 'Horarios de diciembre', required: true } });
    expect(updated.status).toBe(200);
    expect(updated.body.page).toMatchObject({ page_id: id, title: 'Horarios de diciembre', required: true, content: html });

    const duplicate = await call(server.app, 'POST', '/api/pages', { token: admin, body: { slug: 'horarios-especiales', title: 'Otra' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('page/slug-taken');

    // A required page is not deleted (decision 014): unmarked first.
    expect((await call(server.app, 'DELETE', `/api/pages/${id}`, { token: admin })).status).toBe(409);
    await call(server.app, 'PUT', '/api/pages', { token: admin, body: { page_id: id, required: false } });
    const removed = await call(server.app, 'DELETE', `/api/pages/${id}`, { token: admin });
    expect(removed.body).toEqual({ deleted: true, id });
    expect((await call(server.app, 'GET', '/api/pages/horarios-especiales')).status).toBe(404);
    expect((await call(server.app, 'DELETE', `/api/pages/${id}`, { token: admin })).status).toBe(404);
  });

  it('refuses customers with 403 and visitors with 401', async () => {
    const body = { slug: 'no-permitida', title: 'No' };
    const denied = await call(server.app, 'POST', '/api/pages', { token: cliente, body });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
    expect((await call(server.app, 'PUT', '/api/pages', { token: cliente, body: { page_id: 1, title: 'x' } })).status).toBe(403);
    expect((await call(server.app, 'DELETE', '/api/pages/1', { token: cliente })).status).toBe(403);
    expect((await call(server.app, 'POST', '/api/pages', { body })).status).toBe(401);
  });

  it('validates the slug and title in Spanish', async () => {
    const res = await call(server.app, 'POST', '/api/pages', { token: admin, body: { slug: 'con espacios', title: '' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.message).toMatch(/slug|título/);
  });
});

describe('announcements', () => {
  it('lists publicly; an admin creates, hides, updates and deletes', async () => {
    const list = await call(server.app, 'GET', '/api/announcements');
    expect(list.status).toBe(200);
    expect(list.body.announcements.length).toBeGreaterThan(0);

    const created = await call(server.app, 'POST', '/api/announcements', {
      token: admin,
      body: { announcement_id: 'nuevo', title: 'Cerramos el 25', content: 'El estudio cierra el 25 de diciembre.' },
    });
    expect(created.status).toBe(200);
    const id = created.body.announcement.announcement_id as number;
    expect(created.body.announcement).toMatchObject({ title: 'Cerramos el 25', available: true, file: null });
    expect((await call(server.app, 'GET', `/api/announcements/${id}`)).body.announcement.title).toBe('Cerramos el 25');

    await call(server.app, 'PUT', '/api/announcements', { token: admin, body: { announcement_id: id, available: false } });
    const publicList = await call(server.app, 'GET', '/api/announcements');
    expect((publicList.body.announcements as { announcement_id: number }[]).some((a) => a.announcement_id === id)).toBe(false);
    expect((await call(server.app, 'GET', `/api/announcements/${id}`)).status).toBe(404);
    const adminList = await call(server.app, 'GET', '/api/announcements', { token: admin });
    expect((adminList.body.announcements as { announcement_id: number }[]).some((a) => a.announcement_id === id)).toBe(true);

    expect((await call(server.app, 'POST', '/api/announcements', { token: cliente, body: { title: 'x', content: 'y' } })).status).toBe(403);
    const badFile = await call(server.app, 'PUT', '/api/announcements', { token: admin, body: { announcement_id: id, file_id: 999_999 } });
    expect(badFile.status).toBe(404);
    expect(badFile.body.code).toBe('file/not-found');

    expect((await call(server.app, 'DELETE', `/api/announcements/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
    expect((await call(server.app, 'GET', `/api/announcements/${id}`, { token: admin })).status).toBe(404);
  });
});

describe('instructors', () => {
  it('the home list has visible coaches with photo src, bio and quote', async () => {
    const res = await call(server.app, 'GET', '/api/instructors/home/all');
    expect(res.status).toBe(200);
    const coaches = res.body.instructors as { show_on_home: boolean; available: boolean; file: { src: string } | null; short_bio: string | null }[];
    expect(coaches.length).toBeGreaterThan(0);
    for (const coach of coaches) {
      expect(coach.show_on_home && coach.available).toBe(true);
      expect(coach.file?.src).toBeTruthy();
    }
    expect(coaches.some((c) => c.short_bio)).toBe(true);
  });

  it('answers one coach, 404 for an unknown one, and admins create, update and soft-delete', async () => {
    const unknown = await call(server.app, 'GET', '/api/instructors/999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('instructor/not-found');

    const created = await call(server.app, 'POST', '/api/instructors', {
      token: admin,
      body: { name: 'Rocío', last_name: 'Luna', quote: 'Respira y sigue.', short_bio: 'Coach de barre.', show_on_home: false },
    });
    expect(created.status).toBe(200);
    const id = created.body.instructor.instructor_id as number;
    expect((await call(server.app, 'GET', `/api/instructors/${id}`)).body.instructor).toMatchObject({ name: 'Rocío', quote: 'Respira y sigue.' });
    const home = await call(server.app, 'GET', '/api/instructors/home/all');
    expect((home.body.instructors as { instructor_id: number }[]).some((i) => i.instructor_id === id)).toBe(false);

    const updated = await call(server.app, 'PUT', `/api/instructors/${id}`, { token: admin, body: { show_on_home: true, nick_name: 'Ro' } });
    expect(updated.body.instructor).toMatchObject({ instructor_id: id, show_on_home: true, nick_name: 'Ro' });
    expect(((await call(server.app, 'GET', '/api/instructors/home/all')).body.instructors as { instructor_id: number }[]).some((i) => i.instructor_id === id)).toBe(true);

    expect((await call(server.app, 'PUT', `/api/instructors/${id}`, { token: cliente, body: { name: 'X' } })).status).toBe(403);
    expect((await call(server.app, 'DELETE', `/api/instructors/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
    expect((await call(server.app, 'GET', `/api/instructors/${id}`)).status).toBe(404);
    expect(((await call(server.app, 'GET', '/api/instructors')).body.instructors as { instructor_id: number }[]).some((i) => i.instructor_id === id)).toBe(false);
  });
});
