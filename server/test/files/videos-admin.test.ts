import { beforeAll, describe, expect, it } from 'vitest';
import { domainErrors } from '@estudio/core';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * The studio's owner puts a class online. Before this, no route
 * created a video, so the library only ever held the seed's twenty.
 */
let server: TestServer;
let admin: string;
let ilimitado: string;
let recepcion: string;

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  [admin, ilimitado, recepcion] = (await Promise.all(
    ['admin', 'ilimitado', 'recepcion'].map(async (who) => (await login(server.app, `${who}@estudio.demo`)).idToken),
  )) as [string, string, string];
}, 120_000);

const names = (body: Record<string, unknown>) => (body.videos as { name: string }[]).map((v) => v.name);
const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('the admin manages the online library', () => {
  it('creates a video with its thumbnail and type, and the unlimited customer finds it in her library', async () => {
    const type = await call(server.app, 'POST', '/api/video_types', { token: admin, body: { name: 'Meditación', order: 9 } });
    expect(type.status).toBe(200);
    const created = await call(server.app, 'POST', '/api/videos', {
      token: admin,
      body: {
        name: 'Respiración para dormir',
        description: 'Diez minutos antes de acostarte.',
        duration: 10,
        url: 'https://vimeo.com/76979871',
        thumbnail: '/files/abc.jpg',
        video_type_id: type.body.video_type.video_type_id,
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.video).toMatchObject({ name: 'Respiración para dormir', duration: 10, status: 'published', thumbnail: '/files/abc.jpg' });

    const library = await call(server.app, 'GET', '/api/videos?query=dormir', { token: ilimitado });
    expect(library.status).toBe(200);
    expect(names(library.body)).toContain('Respiración para dormir');
    expect((library.body.videos as { name: string }[]).find((v) => v.name === 'Respiración para dormir')).toMatchObject({ thumbnail: '/files/abc.jpg', video_type: { name: 'Meditación' } });
  });

  it("a video with a publish date ahead is 'upcoming': on the teaser, not in the library, until the day comes", async () => {
    const created = await call(server.app, 'POST', '/api/videos', {
      token: admin,
      body: { name: 'Estreno de barre', duration: 30, url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', release_date: dayAhead(3) },
    });
    expect(created.status).toBe(200);
    expect(created.body.video.status).toBe('upcoming');
    const upcoming = await call(server.app, 'GET', '/api/videos/upcoming', { token: ilimitado });
    expect(names(upcoming.body)).toContain('Estreno de barre');
    expect(names((await call(server.app, 'GET', '/api/videos?query=estreno', { token: ilimitado })).body)).toEqual([]);

    const released = await call(server.app, 'PUT', '/api/videos', { token: admin, body: { video_id: created.body.video.video_id, release_date: dayAhead(-1) } });
    expect(released.status).toBe(200);
    expect(released.body.video.status).toBe('published');
    expect(names((await call(server.app, 'GET', '/api/videos?query=estreno', { token: ilimitado })).body)).toEqual(['Estreno de barre']);
  });

  it('refuses a player url that is not https, nor a known player, nor a video file, in Spanish, and stores nothing', async () => {
    for (const [url, message] of [
      ['http://vimeo.com/1', 'La liga del video debe empezar con https://.'],
      ['https://example.com/pagina', 'Usa una liga de YouTube, Vimeo, Wistia, Mux o Cloudflare Stream, o la de un archivo de video (.mp4, .webm).'],
      ['javascript:alert(1)', 'La liga del video debe empezar con https://.'],
    ] as const) {
      const res = await call(server.app, 'POST', '/api/videos', { token: admin, body: { name: 'Malo', duration: 5, url } });
      expect(res.status, url).toBe(400);
      expect(JSON.stringify(res.body), url).toContain(message);
    }
    const direct = await call(server.app, 'POST', '/api/videos', { token: admin, body: { name: 'Archivo directo', duration: 5, url: 'https://cdn.estudio.mx/clases/yoga.mp4' } });
    expect(direct.status).toBe(200);
    const all = await call(server.app, 'GET', '/api/videos/admin/all', { token: admin });
    expect(names(all.body)).not.toContain('Malo');
  });

  it('deleting a video takes it out of the library and keeps it out of the lists; customers and reception cannot manage videos', async () => {
    const created = await call(server.app, 'POST', '/api/videos', { token: admin, body: { name: 'Para borrar', duration: 5, url: 'https://youtu.be/abc' } });
    const id = created.body.video.video_id as number;
    expect((await call(server.app, 'POST', `/api/favorites`, { token: ilimitado, body: { video_id: id } })).status).toBe(200);
    for (const token of [ilimitado, recepcion]) {
      expect((await call(server.app, 'DELETE', `/api/videos/${id}`, { token })).status).toBe(403);
      expect((await call(server.app, 'POST', '/api/videos', { token, body: { name: 'x', duration: 1, url: 'https://youtu.be/x' } })).status).toBe(403);
    }
    const removed = await call(server.app, 'DELETE', `/api/videos/${id}`, { token: admin });
    expect(removed.status).toBe(200);
    expect(names((await call(server.app, 'GET', '/api/videos?query=borrar', { token: ilimitado })).body)).toEqual([]);
    expect((await call(server.app, 'GET', `/api/videos/${id}`, { token: ilimitado })).status).toBe(404);
    expect(names((await call(server.app, 'GET', '/api/videos/admin/all', { token: admin })).body)).not.toContain('Para borrar');
    expect((await call(server.app, 'DELETE', `/api/videos/${id}`, { token: admin })).status).toBe(404);
  });

  it('a video type with videos is not deleted (its videos would lose their type silently); an unused one is', async () => {
    const type = await call(server.app, 'POST', '/api/video_types', { token: admin, body: { name: 'Temporal' } });
    const typeId = type.body.video_type.video_type_id as number;
    await call(server.app, 'POST', '/api/videos', { token: admin, body: { name: 'Con tipo', duration: 5, url: 'https://youtu.be/t', video_type_id: typeId } });
    const refused = await call(server.app, 'DELETE', `/api/video_types/${typeId}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(domainErrors['video-type/in-use'].message);
    const renamed = await call(server.app, 'PUT', '/api/video_types', { token: admin, body: { video_type_id: typeId, name: 'Temporada' } });
    expect(renamed.body.video_type.name).toBe('Temporada');
    const unused = await call(server.app, 'POST', '/api/video_types', { token: admin, body: { name: 'Sin uso' } });
    expect((await call(server.app, 'DELETE', `/api/video_types/${unused.body.video_type.video_type_id}`, { token: admin })).status).toBe(200);
  });

  it('an unknown field is refused by name and a video type that does not exist is a Spanish 404', async () => {
    const unknown = await call(server.app, 'POST', '/api/videos', { token: admin, body: { name: 'x', duration: 1, url: 'https://youtu.be/x', poster: 'y' } });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('poster');
    const missing = await call(server.app, 'POST', '/api/videos', { token: admin, body: { name: 'x', duration: 1, url: 'https://youtu.be/x', video_type_id: 999999 } });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(domainErrors['video/reference-not-found'].message);
  });
});
