import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { instructor, location } from '@estudio/db/schema/catalogue';
import { outbox_message } from '@estudio/db/schema/outbox';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, standing_booking } from '@estudio/db/schema/reservations';
import { class_series, single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { classTypeId, createBookers, type Booker } from '../support/reservations-fixtures.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * A weekly template repeated over dates is a series: an edit goes to this
 * class, this and the following, or all of them (each keeps its day, the
 * people booked keep their places and are told), a capacity below any
 * class's bookings refuses the whole edit naming that class, and the series'
 * dates are cancelled or the series ended with one preview, each class as a
 * single cancellation.
 */
const tz = 'America/Mexico_City';
let server: TestServer;
let admin: string;
let place: { id: number; name: string };
let coaches: { id: number; name: string }[];
let barre: number;
demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  [place] = (await server.db.select({ id: location.location_id, name: location.name }).from(location).orderBy(location.location_id)) as [{ id: number; name: string }];
  coaches = (await server.db.select({ id: instructor.instructor_id, name: instructor.name, last: instructor.last_name }).from(instructor).orderBy(instructor.instructor_id)).map((c) => ({ id: c.id, name: `${c.name} ${c.last}` }));
  barre = (await classTypeId(server.db, 'Barre')).id;
}, 60_000);

/** A local date `days` from today, far past the demo's schedule. */
const localDay = (days: number) => dayjs().tz(tz).add(days, 'day').format('YYYY-MM-DD');
const localTime = (d: Date) => dayjs(d).tz(tz).format('HH:mm');
const localDateOf = (d: Date) => dayjs(d).tz(tz).format('YYYY-MM-DD');
const put = (body: Record<string, unknown>) => call(server.app, 'PUT', '/api/single_class', { token: admin, body });
const book = (who: Booker, classId: number) => call(server.app, 'POST', '/api/class_reservations', { token: who.token, body: { single_class_id: classId } });

/** Tuesdays and Thursdays at 21:30 for four weeks from `fromDay` days ahead: a series of eight, taught by the first coach. */
async function newSeries(fromDay: number): Promise<{ seriesId: number; ids: number[] }> {
  const res = await call(server.app, 'POST', '/api/single_class/repeat', {
    token: admin,
    body: {
      start_date: localDay(fromDay),
      end_date: localDay(fromDay + 27),
      slots: [
        { weekday: 2, time: '21:30' },
        { weekday: 4, time: '21:30' },
      ],
      duration_minutes: 45,
      capacity: 10,
      location_id: place.id,
      class_type_id: barre,
      instructor_ids: [coaches[0]!.id],
    },
  });
  expect(res.status, res.raw).toBe(200);
  expect(res.body.created).toBe(8);
  expect(res.body.class_series_id).toEqual(expect.any(Number));
  return { seriesId: res.body.class_series_id as number, ids: res.body.single_class_ids as number[] };
}

const classesOf = (ids: number[]) =>
  server.db
    .select({ id: single_class.single_class_id, class_date: single_class.class_date, capacity: single_class.capacity, cancelledAt: single_class.cancelledAt, series: single_class.class_series_id })
    .from(single_class)
    .where(inArray(single_class.single_class_id, ids))
    .orderBy(asc(single_class.class_date));
const coachesOf = async (id: number) =>
  (await server.db.select({ id: single_class_instructor.instructor_id }).from(single_class_instructor).where(eq(single_class_instructor.single_class_id, id))).map((r) => r.id);

describe('a weekly series', () => {
  it('is made by the repeat: its classes carry it, and every answer about a class says which series it is in', async () => {
    const { seriesId, ids } = await newSeries(100);
    const rows = await classesOf(ids);
    expect(rows.map((r) => r.series)).toEqual(Array(8).fill(seriesId));
    expect(rows.map((r) => localTime(r.class_date))).toEqual(Array(8).fill('21:30'));
    const [series] = await server.db.select().from(class_series).where(eq(class_series.class_series_id, seriesId));
    expect(series).toMatchObject({ start_date: localDay(100), end_date: localDay(127), slots: [{ weekday: 2, time: '21:30' }, { weekday: 4, time: '21:30' }] });
    const one = await call(server.app, 'GET', `/api/single_class/single/${ids[0]}`);
    expect(one.body.single_class.class_series_id).toBe(seriesId);
  });

  it('this and the following: the new time, capacity and coach from that class on, each on its own day; bookings kept and their people told', async () => {
    const { ids } = await newSeries(130);
    const before = await classesOf(ids);
    const [ana, bea, caro] = await createBookers(server.db, server.config.AUTH_SECRET, 3, { prefix: `serie-sig-${Date.now()}`, credits: 3 });
    if (!ana || !bea || !caro) throw new Error('fixtures');
    for (const [who, at] of [[ana, 0], [bea, 2], [caro, 4]] as const) expect((await book(who, ids[at]!)).status).toBe(200);

    const res = await put({ single_class_id: ids[2], scope: 'following', date: localDateOf(before[2]!.class_date), time: '21:45', capacity: 12, instructor_ids: [coaches[1]!.id] });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.single_class_ids).toEqual(ids.slice(2));
    expect(res.body.single_class).toMatchObject({ single_class_id: ids[2], capacity: 12 });
    // Two booked people on changed classes, each by e-mail (no phone).
    expect(res.body.messages_queued).toBe(2);

    const after = await classesOf(ids);
    expect(after.map((r) => localTime(r.class_date))).toEqual(['21:30', '21:30', ...Array(6).fill('21:45')]);
    expect(after.map((r) => localDateOf(r.class_date))).toEqual(before.map((r) => localDateOf(r.class_date)));
    expect(after.map((r) => r.capacity)).toEqual([10, 10, ...Array(6).fill(12)]);
    expect(await coachesOf(ids[0]!)).toEqual([coaches[0]!.id]);
    expect(await coachesOf(ids[7]!)).toEqual([coaches[1]!.id]);
    const live = await server.db.select({ id: class_reservation.class_reservation_id }).from(class_reservation).where(and(inArray(class_reservation.single_class_id, ids)));
    expect(live).toHaveLength(3);

    const told = await server.db.select().from(outbox_message).where(and(eq(outbox_message.kind, 'class-changed'), inArray(outbox_message.customer_id, [ana.customer_id, bea.customer_id, caro.customer_id])));
    expect(told.map((m) => m.customer_id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([bea.customer_id, caro.customer_id].sort((a, b) => a - b));
    expect(told[0]?.subject).toMatch(/^Cambio en tu clase: Barre, /);
    expect(told[0]?.body).toMatch(/cambió: ahora es el \d{2} \S+ \d{4} 21:45, con /);
    expect(told[0]?.body).toContain(coaches[1]!.name);
    expect(told[0]?.body).toContain('Tu lugar sigue reservado.');

    const logged = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'single_class'), inArray(audit_log.entity_id, ids.map(String)), eq(audit_log.action, 'update')));
    expect(logged).toHaveLength(6);
    expect(logged[0]?.changes).toMatchObject({ scope: 'following', edited_from: ids[2] });
  });

  it('all: every class still to start, the class edited included; a class already given is left as it was', async () => {
    const { ids } = await newSeries(160);
    // The first class of this series was already given (moved into the past, as time would have done).
    const past = new Date(Date.now() - 2 * 3_600_000);
    await server.db.update(single_class).set({ class_date: past }).where(eq(single_class.single_class_id, ids[0]!));
    const res = await put({ single_class_id: ids[3], scope: 'all', duration_minutes: 55, description: 'Serie de invierno' });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.single_class_ids).toEqual(ids.slice(1));
    const [given] = await server.db.select().from(single_class).where(eq(single_class.single_class_id, ids[0]!));
    expect(given).toMatchObject({ duration_minutes: 45, description: null });
    const [later] = await server.db.select().from(single_class).where(eq(single_class.single_class_id, ids[7]!));
    expect(later).toMatchObject({ duration_minutes: 55, description: 'Serie de invierno' });
    // Nothing of the time, place or coaches changed: nobody is told.
    expect(res.body.messages_queued).toBe(0);
  });

  it("a series moved to another hour takes the customers' «Reservar cada semana» places with it; one class moved alone does not", async () => {
    // Past every other test's series, so no repeat here meets one of theirs.
    const { ids } = await newSeries(290);
    const [ana, bea] = await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: `serie-cada-semana-${Date.now()}`, credits: 2 });
    // The series' first two classes fall on its two weekdays, in whichever order the clock's day puts them (ISO: Monday 1).
    const [firstDay, secondDay] = (await classesOf(ids.slice(0, 2))).map((c) => ((dayjs(c.class_date).tz(tz).day() + 6) % 7) + 1);
    const placeOf = async (who: Booker) =>
      (await server.db.select().from(standing_booking).where(and(eq(standing_booking.customer_id, who.customer_id), isNull(standing_booking.endedAt)))).map((p) => ({ weekday: p.weekday, start_minute: p.start_minute }));
    // Ana keeps the series' first weekday, Bea its second.
    for (const [who, id] of [[ana!, ids[0]!], [bea!, ids[1]!]] as const) {
      const started = await call(server.app, 'POST', '/api/standing_bookings', { token: who.token, body: { single_class_id: id } });
      expect(started.status, started.raw).toBe(200);
    }
    expect(await placeOf(ana!)).toEqual([{ weekday: firstDay, start_minute: 21 * 60 + 30 }]);

    // One class alone at another hour: the weekly places stay.
    const [third] = await classesOf([ids[2]!]);
    const alone = await put({ single_class_id: ids[2], scope: 'this', date: localDateOf(third!.class_date), time: '19:00' });
    expect(alone.status, alone.raw).toBe(200);
    expect(await placeOf(ana!)).toEqual([{ weekday: firstDay, start_minute: 21 * 60 + 30 }]);

    // The whole series at 20:15: both places follow it, each on its own day.
    const [first] = await classesOf([ids[0]!]);
    const moved = await put({ single_class_id: ids[0], scope: 'all', date: localDateOf(first!.class_date), time: '20:15' });
    expect(moved.status, moved.raw).toBe(200);
    expect(await placeOf(ana!)).toEqual([{ weekday: firstDay, start_minute: 20 * 60 + 15 }]);
    expect(await placeOf(bea!)).toEqual([{ weekday: secondDay, start_minute: 20 * 60 + 15 }]);
  });

  it('a capacity below the bookings of any class refuses the whole edit, naming that class; nothing changes', async () => {
    const { ids } = await newSeries(190);
    const people = await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: `serie-cupo-${Date.now()}`, credits: 1 });
    for (const who of people) expect((await book(who, ids[5]!)).status).toBe(200);
    const res = await put({ single_class_id: ids[0], scope: 'all', capacity: 1 });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('schedule/capacity-below-reservations');
    const [sixth] = await classesOf([ids[5]!]);
    expect(res.body.message).toBe(`La clase del ${dayjs(sixth!.class_date).tz(tz).locale('es').format('DD MMM YYYY HH:mm')} ya tiene 2 lugares reservados: el cupo no puede ser menor.`);
    expect((await classesOf(ids)).map((r) => r.capacity)).toEqual(Array(8).fill(10));
  });

  it('refuses what a series cannot take: a new date for the following classes, a scope on a class made alone', async () => {
    const { ids } = await newSeries(220);
    const [first] = await classesOf([ids[0]!]);
    const nextDay = dayjs(first!.class_date).tz(tz).add(1, 'day').format('YYYY-MM-DD');
    const moved = await put({ single_class_id: ids[0], scope: 'following', date: nextDay, time: '21:30' });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('schedule/series-date');
    expect(moved.body.message).toBe('Para cambiar la fecha, edita solo esta clase: en una serie cada clase conserva su día.');
    expect((await classesOf([ids[0]!]))[0]?.class_date.getTime()).toBe(first!.class_date.getTime());

    const alone = await call(server.app, 'POST', '/api/single_class', {
      token: admin,
      body: { date: localDay(223), time: '21:30', duration_minutes: 45, capacity: 10, location_id: place.id, class_type_id: barre, instructor_ids: [], allow_overlap: true },
    });
    expect(alone.status, alone.raw).toBe(200);
    expect(alone.body.single_class.class_series_id).toBeNull();
    const scoped = await put({ single_class_id: alone.body.single_class.single_class_id, scope: 'all', capacity: 8 });
    expect(scoped.status).toBe(400);
    expect(scoped.body.code).toBe('schedule/not-in-series');

    const wrong = await put({ single_class_id: ids[0], scope: 'todas' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('Indica si el cambio es para esta clase, esta y las siguientes, o toda la serie.');
  });

  it('cancels its classes in a range with one preview, each as a single cancellation with the note; then ends on a date', async () => {
    const { seriesId, ids } = await newSeries(250);
    const rows = await classesOf(ids);
    const [ana, bea] = await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: `serie-cancela-${Date.now()}`, credits: 2 });
    if (!ana || !bea) throw new Error('fixtures');
    expect((await book(ana, ids[2]!)).status).toBe(200);
    expect((await book(bea, ids[3]!)).status).toBe(200);
    const creditsOf = async (who: Booker) =>
      (await server.db.select({ n: available_classes.available_classes }).from(available_classes).where(eq(available_classes.customer_id, who.customer_id))).reduce((n, r) => n + r.n, 0);
    expect(await creditsOf(ana)).toBe(1);

    const range = { class_series_id: seriesId, start_date: localDateOf(rows[2]!.class_date), end_date: localDateOf(rows[3]!.class_date), note: 'la coach se enfermó' };
    const previewOf = (q: { class_series_id: number; start_date: string; end_date?: string; note?: string }) => {
      const { class_series_id, ...rest } = q;
      return call(server.app, 'GET', `/api/single_class_series/${class_series_id}/cancel_preview?${new URLSearchParams(rest)}`, { token: admin });
    };
    const preview = await previewOf(range);
    expect(preview.status, preview.raw).toBe(200);
    expect(preview.body.classes.map((c: { single_class_id: number }) => c.single_class_id)).toEqual([ids[2], ids[3]]);
    expect(preview.body).toMatchObject({ reservations: 2, credits_returned: 2, waitlisted: 0 });
    expect(preview.body.messages).toHaveLength(1);
    expect(preview.body.messages[0]).toMatchObject({ was: 'credit', customers: 2 });
    expect(preview.body.messages[0].paragraphs).toContain('Nota del estudio: la coach se enfermó');
    expect((await classesOf(ids)).every((r) => r.cancelledAt === null)).toBe(true);

    const done = await call(server.app, 'POST', '/api/single_class_series/cancel', { token: admin, body: range });
    expect(done.status, done.raw).toBe(200);
    expect(done.body).toMatchObject({ single_class_ids: [ids[2], ids[3]], reservations_cancelled: 2, credits_returned: 2, messages_queued: 2 });
    expect(done.body.series.end_date).toBe(localDay(277));
    expect(await creditsOf(ana)).toBe(2);
    const told = await server.db.select().from(outbox_message).where(and(eq(outbox_message.kind, 'class-cancelled'), inArray(outbox_message.customer_id, [ana.customer_id, bea.customer_id])));
    expect(told).toHaveLength(2);
    expect(told.every((m) => m.body.includes('Nota del estudio: la coach se enfermó'))).toBe(true);

    // Ending it from the seventh class: the seventh and eighth go, the series ends the day before.
    const end = { class_series_id: seriesId, start_date: localDateOf(rows[6]!.class_date) };
    const ended = await call(server.app, 'POST', '/api/single_class_series/cancel', { token: admin, body: end });
    expect(ended.status, ended.raw).toBe(200);
    expect(ended.body.single_class_ids).toEqual([ids[6], ids[7]]);
    expect(ended.body.series.end_date).toBe(dayjs(`${end.start_date}T12:00:00Z`).subtract(1, 'day').format('YYYY-MM-DD'));
    expect((await classesOf(ids)).map((r) => r.cancelledAt !== null)).toEqual([false, false, true, true, false, false, true, true]);
    const [log] = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'class_series'), eq(audit_log.entity_id, String(seriesId)))).orderBy(desc(audit_log.audit_log_id)).limit(1);
    expect(log?.action).toBe('end-series');

    const again = await previewOf(end);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('La serie no tiene clases por venir sin cancelar entre esas fechas.');
    const unknown = await call(server.app, 'POST', '/api/single_class_series/cancel', { token: admin, body: { ...end, class_series_id: 999_999 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('schedule/series-not-found');
  });
});
