import { and, count, desc, eq } from 'drizzle-orm';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { instructor, location } from '@estudio/db/schema/catalogue';
import { single_class } from '@estudio/db/schema/schedule';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { classTypeId } from '../support/reservations-fixtures.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * A class in the way: the same place (a location is one room until rooms
 * exist) or the same coach at an overlapping time is a Spanish 409 naming
 * that class, and nothing is saved, unless staff confirm the overlap.
 */
const tz = 'America/Mexico_City';
let server: TestServer;
let admin: string;
let places: { id: number; name: string }[];
let coaches: { id: number; name: string }[];
let yoga: number;
let barre: number;
demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  places = await server.db.select({ id: location.location_id, name: location.name }).from(location).orderBy(location.location_id);
  coaches = (await server.db.select({ id: instructor.instructor_id, name: instructor.name, last: instructor.last_name }).from(instructor).orderBy(instructor.instructor_id)).map((c) => ({ id: c.id, name: `${c.name} ${c.last}` }));
  yoga = (await classTypeId(server.db, 'Yoga')).id;
  barre = (await classTypeId(server.db, 'Barre')).id;
  expect(places.length).toBeGreaterThanOrEqual(2);
  expect(coaches.length).toBeGreaterThanOrEqual(2);
}, 60_000);

/** A local date `days` from today, past the demo's schedule. */
const localDay = (days: number) => dayjs().tz(tz).add(days, 'day').format('YYYY-MM-DD');
const classCount = async () => (await server.db.select({ n: count() }).from(single_class))[0]?.n ?? 0;
const create = (body: Record<string, unknown>) =>
  call(server.app, 'POST', '/api/single_class', { token: admin, body: { duration_minutes: 60, capacity: 10, class_type_id: yoga, instructor_ids: [], ...body } });

describe('a class in the way', () => {
  it('in the same place: refused with the class it meets, nothing saved; kept when staff confirm, and the log says so', async () => {
    const day = localDay(40);
    const [first, second] = [places[0]!, places[1]!];
    const first7 = await create({ date: day, time: '07:00', location_id: first.id });
    expect(first7.status).toBe(200);
    const before = await classCount();

    const clash = await create({ date: day, time: '07:30', location_id: first.id, class_type_id: barre });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('schedule/overlap');
    expect(clash.body.message).toMatch(/^Se cruza con Yoga del \S+ \d+ de \S+, 07:00–08:00, en /);
    expect(clash.body.message).toContain(first.name);
    expect(clash.body.message).toContain('confírmalo');
    expect(await classCount()).toBe(before);

    // One ending as the other starts is not in its way; another place at the same time neither.
    expect((await create({ date: day, time: '08:00', location_id: first.id })).status).toBe(200);
    expect((await create({ date: day, time: '07:00', location_id: second.id })).status).toBe(200);

    const kept = await create({ date: day, time: '07:30', location_id: first.id, class_type_id: barre, allow_overlap: true });
    expect(kept.status).toBe(200);
    const [audit] = await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.entity, 'single_class'), eq(audit_log.entity_id, String(kept.body.single_class.single_class_id))))
      .orderBy(desc(audit_log.audit_log_id))
      .limit(1);
    expect(audit?.changes).toMatchObject({ allow_overlap: true, time: '07:30' });
  });

  it('with the same coach elsewhere: refused naming the coach; a cancelled class is in nobody’s way', async () => {
    const day = localDay(41);
    const [first, second] = [places[0]!, places[1]!];
    const coach = coaches[0]!;
    const taught = await create({ date: day, time: '19:00', location_id: first.id, instructor_ids: [coach.id] });
    expect(taught.status).toBe(200);

    const clash = await create({ date: day, time: '19:45', location_id: second.id, instructor_ids: [coaches[1]!.id, coach.id] });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(new RegExp(`^${coach.name} ya da Yoga el \\S+ \\d+ de \\S+, 19:00–20:00, en ${first.name}\\.`));
    // Another coach there is fine.
    expect((await create({ date: day, time: '19:45', location_id: second.id, instructor_ids: [coaches[1]!.id] })).status).toBe(200);

    const cancelled = await call(server.app, 'POST', `/api/single_class/${taught.body.single_class.single_class_id}/cancel`, { token: admin, body: {} });
    expect(cancelled.status).toBe(200);
    expect((await create({ date: day, time: '19:15', location_id: first.id, instructor_ids: [coach.id] })).status).toBe(200);
  });

  it('an edit that moves a class into another is refused; an edit that does not move it is not checked again', async () => {
    const day = localDay(42);
    const place = places[0]!;
    const morning = await create({ date: day, time: '09:00', location_id: place.id });
    const later = await create({ date: day, time: '11:00', location_id: place.id });
    const laterId = later.body.single_class.single_class_id as number;

    const moved = await call(server.app, 'PUT', '/api/single_class', { token: admin, body: { single_class_id: laterId, date: day, time: '09:30' } });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toContain('09:00–10:00');
    const [still] = await server.db.select().from(single_class).where(eq(single_class.single_class_id, laterId));
    expect(still?.class_date.toISOString()).toBe(dayjs.tz(`${day} 11:00`, tz).toISOString());
    // Longer, into the next class: the same.
    const longer = await call(server.app, 'PUT', '/api/single_class', { token: admin, body: { single_class_id: morning.body.single_class.single_class_id, duration_minutes: 150 } });
    expect(longer.status).toBe(409);

    const confirmed = await call(server.app, 'PUT', '/api/single_class', { token: admin, body: { single_class_id: laterId, date: day, time: '09:30', allow_overlap: true } });
    expect(confirmed.status).toBe(200);
    // The console sends the whole form again with a new description: the overlap staff accepted stays accepted.
    const described = await call(server.app, 'PUT', '/api/single_class', {
      token: admin,
      body: { single_class_id: laterId, date: day, time: '09:30', duration_minutes: 60, location_id: place.id, instructor_ids: [], description: 'Con música en vivo' },
    });
    expect(described.status).toBe(200);
    expect(described.body.single_class.description).toBe('Con música en vivo');
  });

  it('a weekly repeat over other classes is refused whole, counting them; confirmed, it creates every class', async () => {
    const from = localDay(50);
    const to = localDay(63);
    const place = places[1]!;
    // Two Barre classes at 07:15 in the range.
    for (const day of [localDay(52), localDay(59)]) expect((await create({ date: day, time: '07:15', location_id: place.id, class_type_id: barre })).status).toBe(200);
    // ISO weekday (1 lunes … 7 domingo) of those two days, a week apart.
    const weekday = ((dayjs(localDay(52)).day() + 6) % 7) + 1;
    const body = { start_date: from, end_date: to, slots: [{ weekday, time: '07:00' }], duration_minutes: 60, capacity: 10, location_id: place.id, class_type_id: yoga, instructor_ids: [] };
    const before = await classCount();
    const refused = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^Se cruza con Barre del .*07:15–08:15.* Y se cruza con 1 clase más\. /);
    expect(await classCount()).toBe(before);
    const confirmed = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body: { ...body, allow_overlap: true } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.created).toBe(2);
  });

  it("a weekly template whose own times run into each other is refused before anything is made; confirmed, both are kept", async () => {
    const weekday = ((dayjs(localDay(70)).day() + 6) % 7) + 1;
    const body = { start_date: localDay(70), end_date: localDay(70), slots: [{ weekday, time: '07:00' }, { weekday, time: '07:30' }], duration_minutes: 60, capacity: 10, location_id: places[0]!.id, class_type_id: yoga, instructor_ids: [] };
    const before = await classCount();
    const refused = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'schedule/overlap' });
    expect(refused.body.message).toMatch(/^Dos horarios de la plantilla se cruzan: el \S+ \d+ de \S+ a las 07:00 y a las 07:30\. /);
    expect(await classCount()).toBe(before);
    const kept = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body: { ...body, allow_overlap: true } });
    expect(kept.body.created).toBe(2);
  });

  it('the confirmation must be true or false, in Spanish', async () => {
    const res = await create({ date: localDay(43), time: '07:00', location_id: places[0]!.id, allow_overlap: 'sí' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('La confirmación del cruce debe ser verdadero o falso.');
  });
});
