import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { scheduleInput, studioTimeZone, weekOf } from '@estudio/core';
import { chooseCoding } from '../../src/http/week-door.ts';
import { loadStudioSettings } from '../../src/services/schedule/studio-settings.ts';
import { weekCacheFor } from '../../src/http/week-cache.ts';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { newClass } from '../support/reservations-fixtures.ts';

/**
 * The week's answer compressed for clients that ask (decision 047),
 * on this run's database (PGlite, or PostgreSQL with TEST_DATABASE_URL): gzip
 * and br decode to the very JSON sent uncompressed, each coding has its own
 * ETag and any of them earns a 304, Vary names Accept-Encoding, and a cache
 * hit sends the bytes compressed when the week was read.
 */
let server: TestServer;
let cliente: string;
let path: string;
let classId: number;
let filters: ReturnType<typeof scheduleInput.parse>;

demoStudio(['cliente'], (s) => ({ server, tokens: { cliente } } = s));
beforeAll(async () => {
  classId = await newClass(server.db, { minutesAhead: 120, capacity: 10, classType: 'Yoga' });
  const week = weekOf(new Date(Date.now() + 120 * 60_000), studioTimeZone(await loadStudioSettings(server.db)));
  path = `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`;
  filters = scheduleInput.parse(week);
}, 120_000);

const get = (headers: Record<string, string>) => server.app.inject({ method: 'GET', url: path, headers });

describe('GET /api/single_class compressed', () => {
  it('picks br, then gzip, by Accept-Encoding and its q values', () => {
    expect(chooseCoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseCoding('gzip')).toBe('gzip');
    expect(chooseCoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseCoding('*')).toBe('br');
    expect(chooseCoding('identity')).toBeNull();
    expect(chooseCoding('gzip;q=0')).toBeNull();
    expect(chooseCoding(undefined)).toBeNull();
  });

  it('gzip and br decode to the same JSON, anonymous and signed in, with their own ETags, Vary and 304s', async () => {
    for (const auth of [{}, { authorization: `Bearer ${cliente}` }] as Record<string, string>[]) {
      const plain = await get(auth);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
      const raw = plain.rawPayload;
      expect(raw.length).toBeGreaterThan(1024);

      const gz = await get({ ...auth, 'accept-encoding': 'gzip' });
      expect(gz.statusCode).toBe(200);
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers['content-type']).toMatch(/^application\/json/);
      expect(String(gz.headers.vary)).toMatch(/authorization, accept-encoding/i);
      expect(gunzipSync(gz.rawPayload).equals(raw)).toBe(true);
      expect(gz.rawPayload.length).toBeLessThan(raw.length / 4);

      const br = await get({ ...auth, 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).equals(raw)).toBe(true);

      const tags = [plain, gz, br].map((r) => String(r.headers.etag));
      expect(new Set(tags).size).toBe(3);
      expect(tags[1]).toBe(`${tags[0]!.slice(0, -1)}-gzip"`);
      for (const tag of tags) {
        const again = await get({ ...auth, 'accept-encoding': 'gzip', 'if-none-match': tag });
        expect(again.statusCode, tag).toBe(304);
        expect(again.rawPayload.length).toBe(0);
        expect(again.headers.etag).toBe(tags[1]);
      }
    }
    // The signed-in tags still never answer for the anonymous week.
    const mine = await get({ authorization: `Bearer ${cliente}`, 'accept-encoding': 'gzip' });
    expect((await get({ 'accept-encoding': 'gzip', 'if-none-match': String(mine.headers.etag) })).statusCode).toBe(200);
  });

  it('a cache hit sends the compressed bytes kept with the week, not compressed again', async () => {
    const first = await get({ 'accept-encoding': 'br' });
    const stats = weekCacheFor(server.db).stats;
    const before = { ...stats };
    const read = await weekCacheFor(server.db).read(server.db, filters, null);
    // A hit; on PostgreSQL, when another database's transaction moved the horizon, a refresh that finds nothing moved.
    expect(stats.hits - before.hits + (stats.refreshes - before.refreshes)).toBe(1);
    expect(stats.misses - before.misses - (stats.refreshes - before.refreshes)).toBe(0);
    const [a, b] = await Promise.all([read.encoded('br'), read.encoded('br')]);
    expect(a).toBe(b);
    expect(a).toBe(await (await weekCacheFor(server.db).read(server.db, filters, null)).encoded('br'));
    expect(a.equals(first.rawPayload)).toBe(true);
  });

  it('a booking changes the compressed week at once', async () => {
    const before = await get({ 'accept-encoding': 'gzip' });
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: cliente, body: { single_class_id: classId } });
    expect(booked.status, booked.raw).toBe(200);
    const after = await get({ 'accept-encoding': 'gzip', 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    const week = JSON.parse(gunzipSync(after.rawPayload).toString()) as unknown;
    expect(week).toEqual(JSON.parse((await get({})).payload));
  });
});
