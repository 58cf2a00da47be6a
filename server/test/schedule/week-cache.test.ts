import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { studioTimeZone, weekOf, type SingleClassOutput } from '@estudio/core';
import { file } from '@estudio/db/schema/content';
import { customer } from '@estudio/db/schema/customer';
import { single_class } from '@estudio/db/schema/schedule';
import { sync_change } from '@estudio/db/schema/sync';
import { instructor } from '@estudio/db/schema/catalogue';
import { single_class_instructor, single_class_tag } from '@estudio/db/schema/schedule';
import { tag } from '@estudio/db/schema/videos';
import { classesByDay, type Json } from '../../src/legacy/shapes.ts';
import { listSchedule } from '../../src/services/schedule/list-schedule.ts';
import { loadStudioSettings } from '../../src/services/schedule/studio-settings.ts';
import { weekCacheFor, weekPlacesTables, weekReloadTables, weekUnshownTables, type WeekCacheStats } from '../../src/http/week-cache.ts';
import { customerId, newClass, withSettings } from '../support/reservations-fixtures.ts';
import { call, rowsOf, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * The week schedule from memory (decision 041), on this run's
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the same answer as
 * the database gives, a booking seen by the very next read, each thing the
 * week shows that the change log does not cover (the zone, tags, a coach's
 * photo) still seen at once, and ETags per representation.
 */
let server: TestServer;
let cliente: string;
let week: { start_date: string; end_date: string };
let classId: number;
let path: string;
let zone: string;

demoStudio(['cliente'], (s) => ({ server, tokens: { cliente } } = s));
beforeAll(async () => {
  // A class of its own two hours ahead, in this week or the next: the week read is the one that holds it.
  classId = await newClass(server.db, { minutesAhead: 120, capacity: 10, classType: 'Yoga' });
  zone = studioTimeZone(await loadStudioSettings(server.db));
  week = weekOf(new Date(Date.now() + 120 * 60_000), zone);
  path = `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`;
}, 120_000);

const read = async (token?: string, headers: Record<string, string> = {}) => {
  const res = await server.app.inject({ method: 'GET', url: path, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: res.statusCode, headers: res.headers, body: res.body ? (JSON.parse(res.body) as { single_classes: SingleClassOutput[]; classes: unknown }) : null };
};
/** GET /api/single_class's answer as the route gives it: the classes, and the previous panel's days (decision 033). */
const answerOf = (classes: SingleClassOutput[], inZone = zone) => ({ single_classes: classes, classes: classesByDay(classes as unknown as Json[], inZone, week) });
const ours = (classes: SingleClassOutput[] | undefined) => classes?.find((c) => c.single_class_id === classId);

describe('GET /api/single_class from memory', () => {
  it('answers what the database says, anonymous and signed in, over /api and /trpc, and a second read is a hit (or reads nothing whole)', async () => {
    const mariana = await customerId(server.db, 'cliente@estudio.demo');
    const anonymous = await read();
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual(answerOf(await listSchedule(server.db, week, null)));
    expect(anonymous.headers['content-type']).toBe('application/json; charset=utf-8');
    const signedIn = await read(cliente);
    expect(signedIn.body).toEqual(answerOf(await listSchedule(server.db, week, mariana)));
    expect(signedIn.body?.single_classes.some((c) => c.class_reservations.length > 0 || c.package_access)).toBe(true);

    const trpc = await call(server.app, 'GET', `/trpc/schedule.list?input=${encodeURIComponent(JSON.stringify(week))}`, { token: cliente });
    expect(trpc.body.result.data.single_classes).toEqual(signedIn.body?.single_classes);

    // A hit; or, on PostgreSQL when another database's transaction moved the horizon in between, a refresh that reads nothing whole.
    const stats = weekCacheFor(server.db).stats;
    const before = { ...stats };
    const again = await read();
    expect(again.headers.etag).toBe(anonymous.headers.etag);
    expect(stats.hits - before.hits + (stats.refreshes - before.refreshes)).toBe(1);
    expect(stats.misses - before.misses - (stats.refreshes - before.refreshes)).toBe(0);
  });

  it('a booking is in the very next read, and its cancellation in the one after', async () => {
    const before = ours((await read(cliente)).body?.single_classes);
    expect(before?.class_reservations).toEqual([]);
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: cliente, body: { single_class_id: classId } });
    expect(booked.status, booked.raw).toBe(200);
    const reservationId = booked.body.class_reservation.class_reservation_id as number;

    const mine = ours((await read(cliente)).body?.single_classes);
    expect(mine?.reservation_count).toBe((before?.reservation_count ?? 0) + 1);
    expect(mine?.class_reservations.map((r) => r.class_reservation_id)).toEqual([reservationId]);
    expect(ours((await read()).body?.single_classes)?.reservation_count).toBe((before?.reservation_count ?? 0) + 1);

    const cancelled = await call(server.app, 'POST', `/api/class_reservations/${reservationId}/cancel`, { token: cliente });
    expect(cancelled.status, cancelled.raw).toBe(200);
    const after = ours((await read(cliente)).body?.single_classes);
    expect(after?.reservation_count).toBe(before?.reservation_count);
    expect(after?.class_reservations).toEqual([]);
  });

  it('what the change log does not cover is seen at once: a tag, a coach photo, the studio zone', async () => {
    await read();
    const [made] = await server.db.insert(tag).values({ name: 'Semana en memoria', type: 'class', color: '#123456' }).returning({ tag_id: tag.tag_id });
    await server.db.insert(single_class_tag).values({ single_class_id: classId, tag_id: made!.tag_id });
    expect(ours((await read()).body?.single_classes)?.tags.map((t) => t.name)).toContain('Semana en memoria');
    await server.db.update(tag).set({ color: '#654321' }).where(eq(tag.tag_id, made!.tag_id));
    expect(ours((await read()).body?.single_classes)?.tags.find((t) => t.tag_id === made!.tag_id)?.color).toBe('#654321');

    // A coach teaching the class, whose photo file is renamed in place.
    const [coach] = await server.db.select({ id: instructor.instructor_id, file_id: instructor.file_id }).from(instructor).where(eq(instructor.name, instructor.name)).limit(1);
    await server.db.insert(single_class_instructor).values({ single_class_id: classId, instructor_id: coach!.id }).onConflictDoNothing();
    let fileId = coach!.file_id;
    if (fileId === null) {
      const [f] = await server.db.insert(file).values({ name: 'foto.jpg', type: 'image/jpeg', src: '/files/foto.jpg' }).returning({ id: file.file_id });
      fileId = f!.id;
      await server.db.update(instructor).set({ file_id: fileId }).where(eq(instructor.instructor_id, coach!.id));
    }
    await read();
    await server.db.update(file).set({ src: '/files/foto-nueva.jpg' }).where(eq(file.file_id, fileId));
    const shown = ours((await read()).body?.single_classes)?.class_instructors.find((i) => i.instructor_id === coach!.id);
    expect(shown?.file?.src).toBe('/files/foto-nueva.jpg');

    // The zone decides which instants are "this week": a far zone is answered as the database answers it.
    await withSettings(server.db, { timezone: 'Pacific/Kiritimati' }, async () => {
      expect((await read()).body).toEqual(answerOf(await listSchedule(server.db, week, null), 'Pacific/Kiritimati'));
    });
    expect((await read()).body).toEqual(answerOf(await listSchedule(server.db, week, null)));
  });

  it('a booking re-reads only the places, a change the week does not show re-reads nothing, a class edit reads it whole; each answer as the database gives it', async () => {
    const cache = weekCacheFor(server.db);
    const mariana = await customerId(server.db, 'cliente@estudio.demo');
    const first = await read();
    const counted = () => ({ ...cache.stats });
    const wholeReads = (since: WeekCacheStats) => cache.stats.misses - since.misses - (cache.stats.refreshes - since.refreshes);

    // A booking: only its places, in both views.
    let before = counted();
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: cliente, body: { single_class_id: classId } });
    expect(booked.status, booked.raw).toBe(200);
    // Cancelled at the end below; also when an expectation fails first, so the next test can book the class again.
    onTestFailed(() => call(server.app, 'POST', `/api/class_reservations/${booked.body.class_reservation.class_reservation_id as number}/cancel`, { token: cliente }).then(() => undefined));
    const afterBooking = await read();
    expect(afterBooking.body).toEqual(answerOf(await listSchedule(server.db, week, null)));
    expect(afterBooking.headers.etag).not.toBe(first.headers.etag);
    expect((await read(cliente)).body).toEqual(answerOf(await listSchedule(server.db, week, mariana)));
    // On PostgreSQL another database's transaction ending moves the cluster's horizon, and with it the stamp: a read
    // then refreshes once more and finds nothing moved. What the booking must never cause is a whole read.
    expect(cache.stats.refreshes - before.refreshes).toBeGreaterThanOrEqual(1);
    expect(wholeReads(before)).toBe(0);

    // A profile change (customer, not shown): a new stamp, the same bytes and ETag, nothing re-read.
    before = counted();
    await server.db.update(customer).set({ phone: '5512345678' }).where(eq(customer.customer_id, mariana));
    const unshown = await read();
    expect(unshown.headers.etag).toBe(afterBooking.headers.etag);
    expect(cache.stats.refreshes - before.refreshes).toBeGreaterThanOrEqual(1);
    expect((await read()).headers.etag).toBe(afterBooking.headers.etag);
    expect(wholeReads(before)).toBe(0);

    // The class itself edited: the week is read again whole, and shows it.
    before = counted();
    const [{ capacity } = { capacity: 0 }] = await server.db.select({ capacity: single_class.capacity }).from(single_class).where(eq(single_class.single_class_id, classId));
    await server.db.update(single_class).set({ capacity: capacity + 1 }).where(eq(single_class.single_class_id, classId));
    const edited = await read();
    expect(ours(edited.body?.single_classes)?.capacity).toBe(capacity + 1);
    expect(edited.body).toEqual(answerOf(await listSchedule(server.db, week, null)));
    expect(cache.stats.misses - before.misses).toBe(1);
    expect(cache.stats.refreshes - before.refreshes).toBe(0);
    await server.db.update(single_class).set({ capacity }).where(eq(single_class.single_class_id, classId));

    // More changes than a stamp lists since the week was read (any table): read again whole, still right.
    await read();
    before = counted();
    await server.db.insert(sync_change).values(Array.from({ length: 201 }, () => ({ txid: sql<number>`pg_current_xact_id()::text::bigint`, table_name: 'customer', row_key: { customer_id: mariana } })));
    const cancelled = await call(server.app, 'POST', `/api/class_reservations/${booked.body.class_reservation.class_reservation_id as number}/cancel`, { token: cliente });
    expect(cancelled.status, cancelled.raw).toBe(200);
    expect((await read()).body).toEqual(answerOf(await listSchedule(server.db, week, null)));
    expect(cache.stats.refreshes - before.refreshes).toBe(0);
    expect(cache.stats.misses - before.misses).toBe(1);
  });

  // CI's year-end run failed here: another test's transaction, in another database of the same PostgreSQL,
  // held the snapshot's xmin (cluster-wide) behind this file's new class, so every booking read the week whole.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'a transaction held open elsewhere in the cluster does not turn a booking into a whole read: what the cached week already saw is not a change',
    async () => {
      const cache = weekCacheFor(server.db);
      const elsewhere = postgres(process.env.TEST_DATABASE_URL as string, { max: 1, onnotice: () => {} });
      try {
        await elsewhere.reserve().then(async (held) => {
          await held`begin`;
          await held`select pg_current_xact_id()`;
          try {
            // Made while the horizon is held: a class the week reads whole once, then only a booking in it.
            const heldClass = await newClass(server.db, { minutesAhead: 121, capacity: 10, classType: 'Yoga' });
            expect((await read()).body?.single_classes.some((c) => c.single_class_id === heldClass)).toBe(true);
            const before = { ...cache.stats };
            const booked = await call(server.app, 'POST', '/api/class_reservations', { token: cliente, body: { single_class_id: heldClass } });
            expect(booked.status, booked.raw).toBe(200);
            const after = await read();
            expect(after.body).toEqual(answerOf(await listSchedule(server.db, week, null)));
            expect(after.body?.single_classes.find((c) => c.single_class_id === heldClass)?.reservation_count).toBe(1);
            expect(cache.stats.refreshes - before.refreshes).toBeGreaterThanOrEqual(1);
            expect(cache.stats.misses - before.misses - (cache.stats.refreshes - before.refreshes)).toBe(0);
            await call(server.app, 'POST', `/api/class_reservations/${booked.body.class_reservation.class_reservation_id as number}/cancel`, { token: cliente });
          } finally {
            await held`rollback`;
            held.release();
          }
        });
      } finally {
        await elsewhere.end();
      }
    },
  );

  it('every table the change log follows is sorted by what its change does to a cached week', async () => {
    const tables = await rowsOf<{ table_name: string }>(
      server.db,
      sql`select distinct event_object_table as table_name from information_schema.triggers where action_statement like '%sync_log_change%' order by 1`,
    );
    expect(tables.length).toBeGreaterThan(10);
    for (const { table_name } of tables) {
      const sorted = [weekPlacesTables, weekUnshownTables, weekReloadTables].filter((set) => set.has(table_name));
      expect(sorted.length, `${table_name}: in exactly one of weekPlacesTables, weekUnshownTables, weekReloadTables`).toBe(1);
    }
  });

  it('ETags per representation: 304 only for the ETag asked for, a new one after a write, no-cache and private when signed in', async () => {
    const anonymous = await read();
    const signedIn = await read(cliente);
    expect(anonymous.headers.etag).toMatch(/^"w-/);
    expect(signedIn.headers.etag).toMatch(/^"c-/);
    expect(signedIn.headers.etag).not.toBe(anonymous.headers.etag);
    expect(anonymous.headers['cache-control']).toBe('no-cache');
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
    expect(String(anonymous.headers.vary)).toMatch(/authorization/i);

    const again = await read(undefined, { 'if-none-match': String(anonymous.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    // The anonymous ETag does not answer for the signed-in view, nor the reverse.
    expect((await read(cliente, { 'if-none-match': String(anonymous.headers.etag) })).status).toBe(200);
    expect((await read(undefined, { 'if-none-match': String(signedIn.headers.etag) })).status).toBe(200);
    expect((await read(cliente, { 'if-none-match': `"x", ${String(signedIn.headers.etag)}` })).status).toBe(304);

    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: cliente, body: { single_class_id: classId } });
    expect(booked.status, booked.raw).toBe(200);
    const changed = await read(undefined, { 'if-none-match': String(anonymous.headers.etag) });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(anonymous.headers.etag);
    await call(server.app, 'POST', `/api/class_reservations/${booked.body.class_reservation.class_reservation_id as number}/cancel`, { token: cliente });
  });

  it('what it cannot answer goes on to the procedure: a bad range is the Spanish 400, a bad token the 401', async () => {
    const reversed = await call(server.app, 'GET', `/api/single_class?start_date=${week.end_date}&end_date=2000-01-01`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toContain('La fecha final debe ser posterior a la inicial.');
    const bad = await call(server.app, 'GET', path, { token: 'no-es-un-token' });
    expect(bad.status).toBe(401);
  });
});
