import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { domainErrors, VIDEO_PAGE_SIZE } from '@estudio/core';
import { class_category, class_type, instructor } from '@estudio/db/schema/catalogue';
import { outbox_message } from '@estudio/db/schema/outbox';
import { favorite, playback, program, tag, video, video_tag } from '@estudio/db/schema/videos';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

let server: TestServer;
let ilimitado: string;
let cliente: string;
let nuevo: string;
let recepcion: string;
let admin: string;
let ilimitadoId: number;
let clienteId: number;

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  [ilimitado, cliente, nuevo, recepcion, admin] = (await Promise.all(
    ['ilimitado', 'cliente', 'nuevo', 'recepcion', 'admin'].map(async (who) => (await login(server.app, `${who}@estudio.demo`)).idToken),
  )) as [string, string, string, string, string];
  ilimitadoId = await customerId(server.db, 'ilimitado@estudio.demo');
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
}, 120_000);

const errorOf = (code: keyof typeof domainErrors) => ({ code, message: domainErrors[code].message });
const get = (url: string, token = ilimitado) => call(server.app, 'GET', url, { token });
const names = (body: Record<string, unknown>) => (body.videos as { name: string }[]).map((v) => v.name);

async function videoId(name: string): Promise<number> {
  const [row] = await server.db.select({ id: video.video_id }).from(video).where(eq(video.name, name));
  if (!row) throw new Error(`no video ${name}`);
  return row.id;
}
async function tagId(name: string): Promise<number> {
  const [row] = await server.db.select({ id: tag.tag_id }).from(tag).where(and(eq(tag.name, name), eq(tag.type, 'video')));
  if (!row) throw new Error(`no tag ${name}`);
  return row.id;
}

describe('access to the library', () => {
  it('answers 412 with the spec message to customers without an online membership', async () => {
    const programId = (await server.db.select({ id: program.program_id }).from(program).limit(1))[0]?.id ?? 0;
    const someVideo = await videoId('Barre total');
    for (const token of [nuevo, cliente]) {
      for (const url of ['/api/videos', `/api/videos/tag/${await tagId('Core')}`, `/api/videos/program/${programId}`, `/api/videos/${someVideo}`, '/api/favorites']) {
        const res = await get(url, token);
        expect(res.status, url).toBe(412);
        expect(res.body).toEqual(errorOf('video/membership-required'));
        expect(res.body.message).toBe('Lo sentimos, no cuentas con una membresía activa para clases online');
      }
    }
    expect((await call(server.app, 'PUT', `/api/videos/${someVideo}/complete`, { token: cliente })).status).toBe(412);
  });

  it('lets the online member and staff in; a visitor needs to sign in', async () => {
    const res = await get('/api/videos');
    expect(res.status).toBe(200);
    expect(res.body.purchase_needed).toBe(false);
    // 20 seeded videos, the last two announced for next week.
    expect(res.body.total).toBe(18);
    expect(res.body.videos).toHaveLength(18);
    expect((await get('/api/videos', recepcion)).status).toBe(200);
    expect((await call(server.app, 'GET', '/api/videos')).status).toBe(401);
  });

  it('answers 404 with the spec message for an unknown or unreleased video', async () => {
    const res = await get('/api/videos/999999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorOf('video/not-found'));
    expect(res.body.message).toBe('Lo sentimos, no hemos encontrado este video.');
    // Unknown beats the membership check: a customer without one gets the 404 too.
    expect((await get('/api/videos/999999', nuevo)).status).toBe(404);
    const announced = await videoId('Técnica de cycling');
    expect((await get(`/api/videos/${announced}`)).status).toBe(404);
    expect((await get(`/api/videos/${announced}`, recepcion)).status).toBe(200);
  });

  it('shows the upcoming videos to anyone', async () => {
    const res = await call(server.app, 'GET', '/api/videos/upcoming');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Técnica de cycling', 'Estiramientos post rodada']);
    for (const v of res.body.videos as { release_date: string; favorite: number }[]) {
      expect(Date.parse(v.release_date)).toBeGreaterThan(Date.now());
      expect(v.favorite).toBe(0);
    }
  });

  it("gives the upcoming videos' url only to online members and staff (it was public)", async () => {
    const urls = async (token?: string) => {
      const res = await call(server.app, 'GET', '/api/videos/upcoming', token ? { token } : {});
      expect(res.status).toBe(200);
      expect(res.body.videos).toHaveLength(2);
      return (res.body.videos as { url: string | null }[]).map((v) => v.url);
    };
    for (const outsider of [undefined, nuevo, cliente]) expect(await urls(outsider)).toEqual([null, null]);
    for (const insider of [ilimitado, recepcion, admin]) {
      for (const url of await urls(insider)) expect(url).toMatch(/^https:\/\//);
    }
    // The same through tRPC, which the portal uses.
    const trpc = await call(server.app, 'GET', '/trpc/videos.upcoming');
    expect(trpc.status).toBe(200);
    expect(JSON.stringify(trpc.body)).not.toMatch(/"url":"http/);
  });
});

describe('filters', () => {
  it('searches name and description in Spanish, with or without accents', async () => {
    for (const query of ['respiracion', 'Respiración', 'ansiedad', 'respirar ansiedad']) {
      const res = await get(`/api/videos?query=${encodeURIComponent(query)}`);
      expect(res.status).toBe(200);
      expect(names(res.body), query).toContain('Respiración para la ansiedad');
      expect(res.body.total).toBe(res.body.videos.length);
    }
    const pranayama = await get('/api/videos?query=pranayama');
    expect(names(pranayama.body)).toEqual(['Respiración para la ansiedad']);
    const none = await get('/api/videos?query=zzzz');
    expect(none.body).toMatchObject({ videos: [], total: 0, purchase_needed: false });
  });

  it('filters by tag (any of several), instructor, program, class type, category, video type and duration', async () => {
    const relax = await tagId('Relajación');
    const cardio = await tagId('Cardio');
    const byTag = await get(`/api/videos?tag_id=${relax}`);
    expect(byTag.body.total).toBeGreaterThan(0);
    for (const v of byTag.body.videos) expect(v.tags.map((t: { tag_id: number }) => t.tag_id)).toContain(relax);
    const both = await get(`/api/videos?tag_id=${relax},${cardio}`);
    const repeated = await get(`/api/videos?tag_id=${relax}&tag_id=${cardio}`);
    expect(repeated.body.total).toBe(both.body.total);
    expect(both.body.total).toBeGreaterThan(byTag.body.total);
    const byTagRoute = await get(`/api/videos/tag/${relax}`);
    expect(byTagRoute.body.total).toBe(byTag.body.total);

    const [coach] = await server.db.select({ id: instructor.instructor_id }).from(instructor).innerJoin(video, eq(video.instructor_id, instructor.instructor_id)).where(eq(video.name, 'Barre total'));
    const byCoach = await get(`/api/videos?instructor_id=${coach?.id}`);
    expect(byCoach.body.total).toBe(4);
    for (const v of byCoach.body.videos) expect(v.instructor.instructor_id).toBe(coach?.id);

    const [pilates] = await server.db.select({ id: program.program_id }).from(program).where(eq(program.name, 'Pilates en casa: fundamentos'));
    const byProgram = await get(`/api/videos?program_id=${pilates?.id}`);
    expect(names(byProgram.body).sort()).toEqual(['Pilates mat nivel 1', 'Pilates mat nivel 2', 'Pilates mat: los cien', 'Postura y espalda sana'].sort());
    const programRoute = await get(`/api/videos/program/${pilates?.id}`);
    expect(programRoute.body.program).toMatchObject({ program_id: pilates?.id, name: 'Pilates en casa: fundamentos' });
    // The program's own order.
    expect(names(programRoute.body)).toEqual(['Pilates mat: los cien', 'Pilates mat nivel 1', 'Pilates mat nivel 2', 'Postura y espalda sana']);

    const [cycling] = await server.db
      .select({ typeId: class_type.class_type_id, categoryId: class_type.class_category_id })
      .from(class_type)
      .innerJoin(video, eq(video.class_type_id, class_type.class_type_id))
      .where(eq(video.name, 'Rodada de intervalos'));
    const byType = await get(`/api/videos?class_type_id=${cycling?.typeId}`);
    expect(names(byType.body).sort()).toEqual(['Rodada de intervalos', 'Rodada ritmo latino'].sort());
    const [category] = await server.db.select().from(class_category).where(eq(class_category.class_category_id, cycling?.categoryId ?? 0));
    const byCategory = await get(`/api/videos?class_category_id=${category?.class_category_id}`);
    expect(names(byCategory.body)).toEqual(expect.arrayContaining(['Rodada de intervalos', 'Rodada ritmo latino']));
    for (const v of byCategory.body.videos) expect(v.class_category_id).toBe(category?.class_category_id);

    const types = await call(server.app, 'GET', '/api/video_types');
    const meditation = (types.body.video_types as { name: string; video_type_id: number }[]).find((t) => t.name === 'Meditación');
    const byVideoType = await get(`/api/videos?video_type_id=${meditation?.video_type_id}`);
    expect(names(byVideoType.body).sort()).toEqual(['Meditación de cinco minutos', 'Respiración para la ansiedad']);

    const short = await get('/api/videos?duration=10');
    expect(short.body.videos.every((v: { duration: number }) => v.duration <= 10)).toBe(true);
    expect(short.body.total).toBe(2);
    const range = await get('/api/videos?duration=40-45');
    expect(range.body.videos.every((v: { duration: number }) => v.duration >= 40 && v.duration <= 45)).toBe(true);
    const long = await get('/api/videos?duration=50-');
    expect(names(long.body).sort()).toEqual(['Barre total', 'Yoga power']);
    expect((await get('/api/videos?duration=mucho')).status).toBe(400);

    const combined = await get(`/api/videos?query=barre&tag_id=${cardio}`);
    expect(names(combined.body)).toEqual(['Barre cardio']);
  });

  it('pages by 32 with a total over every page', async () => {
    const [coach] = await server.db.select({ id: instructor.instructor_id }).from(instructor).limit(1);
    const relax = await tagId('Relajación');
    const inserted = await server.db
      .insert(video)
      .values(
        Array.from({ length: 45 }, (_, i) => ({
          name: `Movilidad articular ${i + 1}`,
          description: 'Rutina de movilidad suave para articulaciones felices.',
          duration: 10 + (i % 30),
          url: `https://player.vimeo.com/video/${900_000 + i}`,
          instructor_id: coach?.id ?? null,
          release_date: new Date(Date.now() - (i + 1) * 60_000),
        })),
      )
      .returning({ id: video.video_id });
    await server.db.insert(video_tag).values(inserted.slice(0, 5).map((v) => ({ video_id: v.id, tag_id: relax })));

    const first = await get('/api/videos?query=movilidad');
    expect(first.body.total).toBe(45);
    expect(first.body.videos).toHaveLength(VIDEO_PAGE_SIZE);
    const second = await get('/api/videos?query=movilidad&page=2');
    expect(second.body.total).toBe(45);
    expect(second.body.videos).toHaveLength(45 - VIDEO_PAGE_SIZE);
    const seen = new Set([...names(first.body), ...names(second.body)]);
    expect(seen.size).toBe(45);
    expect((await get('/api/videos?query=movilidad&page=3')).body.videos).toEqual([]);

    const all = await get('/api/videos');
    expect(all.body.total).toBe(18 + 45);
    expect(all.body.videos).toHaveLength(VIDEO_PAGE_SIZE);
    const tagged = await get(`/api/videos?query=movilidad&tag_id=${relax}`);
    expect(tagged.body.total).toBe(5);
  });
});

describe('favourites, completion, playbacks and ratings', () => {
  it('adds, lists and removes favourites; adding twice is idempotent', async () => {
    const id = await videoId('Yoga power');
    const before = (await get('/api/videos')).body.favorites as number;
    const added = await call(server.app, 'POST', '/api/favorites', { token: ilimitado, body: { video_id: id } });
    expect(added.status).toBe(200);
    expect(added.body.favorite).toMatchObject({ video_id: id, customer_id: ilimitadoId, video: { video_id: id, favorite: 1 } });
    const again = await call(server.app, 'POST', '/api/favorites', { token: ilimitado, body: { video_id: id } });
    expect(again.body.favorite.favorite_id).toBe(added.body.favorite.favorite_id);

    const list = await get('/api/favorites');
    expect(list.body.favorites.map((f: { video_id: number }) => f.video_id)).toContain(id);
    expect((await get('/api/videos')).body.favorites).toBe(before + 1);
    const shown = await get(`/api/videos/${id}`);
    expect(shown.body.video).toMatchObject({ favorite: 1, favorite_id: added.body.favorite.favorite_id });

    const removed = await call(server.app, 'DELETE', `/api/favorites/${added.body.favorite.favorite_id}`, { token: ilimitado });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true });
    expect((await get(`/api/videos/${id}`)).body.video).toMatchObject({ favorite: 0, favorite_id: null });
    expect((await call(server.app, 'DELETE', `/api/favorites/${added.body.favorite.favorite_id}`, { token: ilimitado })).status).toBe(404);

    await call(server.app, 'POST', '/api/favorites', { token: ilimitado, body: { video_id: id } });
    const byVideo = await call(server.app, 'DELETE', `/api/favorites/${id}?by=video`, { token: ilimitado });
    expect(byVideo.status).toBe(200);
    expect((await get('/api/videos')).body.favorites).toBe(before);
  });

  it('never touches another customer\u2019s favourite and 404s an unknown video', async () => {
    const [theirs] = await server.db.select({ id: favorite.favorite_id }).from(favorite).where(eq(favorite.customer_id, clienteId)).limit(1);
    const res = await call(server.app, 'DELETE', `/api/favorites/${theirs?.id}`, { token: ilimitado });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorOf('favorite/not-found'));
    expect(await server.db.$count(favorite, eq(favorite.favorite_id, theirs?.id ?? 0))).toBe(1);
    const unknown = await call(server.app, 'POST', '/api/favorites', { token: ilimitado, body: { video_id: 999999 } });
    expect(unknown.body).toEqual(errorOf('video/not-found'));
  });

  it('records one playback per customer on opening a video', async () => {
    const id = await videoId('Barre cardio');
    const first = await get(`/api/videos/${id}`);
    expect(first.status).toBe(200);
    expect(first.body.video).toMatchObject({ video_id: id, name: 'Barre cardio', completed: false, stars: null, video_type: { name: 'Clase completa' } });
    expect(first.body.video.url).toMatch(/^https:\/\/player\.vimeo\.com\//);
    expect(first.body.video.playbacks).toEqual([expect.objectContaining({ customer_id: ilimitadoId, completed: false })]);
    await get(`/api/videos/${id}`);
    expect(await server.db.$count(playback, and(eq(playback.video_id, id), eq(playback.customer_id, ilimitadoId)))).toBe(1);
  });

  it('toggles completion for the caller and filters on it', async () => {
    const id = await videoId('Barre express: glúteos');
    const done = await call(server.app, 'PUT', `/api/videos/${id}/complete`, { token: ilimitado });
    expect(done.status).toBe(200);
    expect(done.body.video).toMatchObject({ video_id: id, completed: true });
    expect(names((await get('/api/videos?completed=true')).body)).toEqual(['Barre express: glúteos']);
    expect(names((await get('/api/videos?completed=false')).body)).not.toContain('Barre express: glúteos');
    // Someone else's completion is theirs alone.
    expect((await get(`/api/videos/${id}`, recepcion)).body.video.completed).toBe(false);
    const undone = await call(server.app, 'PUT', `/api/videos/${id}/uncomplete`, { token: ilimitado });
    expect(undone.body.video.completed).toBe(false);
    expect((await get('/api/videos?completed=true')).body.total).toBe(0);
  });

  it('keeps one 1-5 rating per customer and video, replaced when rated again', async () => {
    const id = await videoId('Rodada de intervalos');
    const bad = await call(server.app, 'POST', '/api/videos/rating', { token: ilimitado, body: { video_id: id, stars: 6 } });
    expect(bad.status).toBe(400);
    const rated = await call(server.app, 'POST', '/api/videos/rating', { token: ilimitado, body: { video_id: id, stars: 4, comment: 'Muy buena' } });
    expect(rated.body.video.stars).toBe(4);
    const again = await call(server.app, 'POST', '/api/videos/rating', { token: ilimitado, body: { video_id: id, stars: 5 } });
    expect(again.body.video.stars).toBe(5);
    expect(await server.db.$count(playback, and(eq(playback.video_id, id), eq(playback.customer_id, ilimitadoId)))).toBe(1);
  });

  it('queues the rating invitation e-mail', async () => {
    const id = await videoId('Yoga para despertar');
    const res = await call(server.app, 'POST', '/api/videos/rating/email', { token: ilimitado, body: { video_id: id } });
    expect(res.body).toEqual({ ok: true });
    const [mail] = await server.db.select().from(outbox_message).where(eq(outbox_message.recipient, 'ilimitado@estudio.demo'));
    expect(mail?.channel).toBe('email');
    expect(mail?.body).toContain('Yoga para despertar');
    expect(mail?.body).toContain(`http://estudio.test/mystudio/video/${id}`);
  });
});

describe('tags and programs (admin)', () => {
  it('creates, reads, updates and deletes tags; customers get 403', async () => {
    const created = await call(server.app, 'POST', '/api/tags', { token: admin, body: { tag_id: 'nueva', name: 'Prenatal', color: '#ff00aa' } });
    expect(created.status).toBe(200);
    expect(created.body.tag).toMatchObject({ name: 'Prenatal', type: 'video', color: '#ff00aa' });
    const id = created.body.tag.tag_id as number;
    expect((await call(server.app, 'POST', '/api/tags', { token: admin, body: { name: 'Prenatal' } })).body).toEqual(errorOf('tag/name-taken'));
    const updated = await call(server.app, 'PUT', '/api/tags', { token: admin, body: { tag_id: id, name: 'Embarazo' } });
    expect(updated.body.tag).toMatchObject({ tag_id: id, name: 'Embarazo' });
    expect((await call(server.app, 'GET', `/api/tags/${id}`)).body.tag.name).toBe('Embarazo');
    const videoTags = await call(server.app, 'GET', '/api/tags?type=video');
    expect(videoTags.body.tags.every((t: { type: string }) => t.type === 'video')).toBe(true);
    expect(videoTags.body.tags.map((t: { name: string }) => t.name)).toContain('Embarazo');
    expect((await call(server.app, 'GET', '/api/tags?type=class')).body.tags.map((t: { name: string }) => t.name)).not.toContain('Embarazo');

    for (const [method, url, body] of [
      ['POST', '/api/tags', { name: 'X' }],
      ['PUT', '/api/tags', { tag_id: id, name: 'X' }],
      ['DELETE', `/api/tags/${id}`, undefined],
    ] as const) {
      const res = await call(server.app, method, url, { token: cliente, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    const removed = await call(server.app, 'DELETE', `/api/tags/${id}`, { token: admin });
    expect(removed.body).toEqual({ deleted: true, id });
    expect((await call(server.app, 'GET', `/api/tags/${id}`)).status).toBe(404);
  });

  it('creates, reads, updates and deletes programs with their ordered videos; customers get 403', async () => {
    const a = await videoId('Yin yoga para dormir mejor');
    const b = await videoId('Meditación de cinco minutos');
    const created = await call(server.app, 'POST', '/api/programs', {
      token: admin,
      body: { program_id: 'nuevo', name: 'Dormir mejor', description: 'Una semana de prácticas nocturnas.', video_ids: [a, b] },
    });
    expect(created.status).toBe(200);
    expect(created.body.program).toMatchObject({ name: 'Dormir mejor', available: true, video_ids: [a, b] });
    const id = created.body.program.program_id as number;
    const reordered = await call(server.app, 'PUT', '/api/programs', { token: admin, body: { program_id: id, video_ids: [b, a], available: false } });
    expect(reordered.body.program).toMatchObject({ name: 'Dormir mejor', available: false, video_ids: [b, a] });
    // Unavailable programs are hidden from customers, not from admins.
    expect((await call(server.app, 'GET', `/api/programs/${id}`, { token: ilimitado })).status).toBe(404);
    expect((await call(server.app, 'GET', '/api/programs', { token: admin })).body.programs.map((p: { program_id: number }) => p.program_id)).toContain(id);
    await call(server.app, 'PUT', '/api/programs', { token: admin, body: { program_id: id, available: true } });
    expect(names((await get(`/api/videos/program/${id}`)).body)).toEqual(['Meditación de cinco minutos', 'Yin yoga para dormir mejor']);
    expect((await call(server.app, 'PUT', '/api/programs', { token: admin, body: { program_id: id, video_ids: [999999] } })).status).toBe(404);

    for (const [method, url, body] of [
      ['POST', '/api/programs', { name: 'X' }],
      ['PUT', '/api/programs', { program_id: id, name: 'X' }],
      ['DELETE', `/api/programs/${id}`, undefined],
    ] as const) {
      const res = await call(server.app, method, url, { token: ilimitado, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    expect((await call(server.app, 'DELETE', `/api/programs/${id}`, { token: admin })).body).toEqual({ deleted: true, id });
    expect((await call(server.app, 'GET', `/api/programs/${id}`, { token: admin })).status).toBe(404);
    expect(await server.db.$count(video, eq(video.video_id, a))).toBe(1);
  });
});
