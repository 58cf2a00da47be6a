import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { reservationEventUid } from '@estudio/core';
import { instructor, location } from '@estudio/db/schema/catalogue';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import { calendarFeedsPerMinute } from '../../src/routers/message-preferences.ts';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId, newClass } from '../support/reservations-fixtures.ts';

let server: TestServer;
let token: string;
let clienteId: number;
demoStudio(['cliente'], (s) => ({ server, tokens: { cliente: token } } = s));
beforeAll(async () => {
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
}, 60_000);

/** A small RFC 5545 reader: unfolds lines (§3.1), splits components and unescapes TEXT values (§3.3.11). */
function parseCalendar(ics: string) {
  expect(ics.endsWith('\r\n')).toBe(true);
  const physical = ics.split('\r\n');
  for (const line of physical) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n').filter(Boolean);
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  expect(lines.at(-1)).toBe('END:VCALENDAR');
  const calendar: Record<string, string> = {};
  const events: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of lines.slice(1, -1)) {
    if (line === 'BEGIN:VEVENT') current = {};
    else if (line === 'END:VEVENT') {
      events.push(current as Record<string, string>);
      current = null;
    } else {
      const colon = line.indexOf(':');
      expect(colon).toBeGreaterThan(0);
      const value = line
        .slice(colon + 1)
        .replace(/\\n/gi, '\n')
        .replace(/\\([,;\\])/g, '$1');
      (current ?? calendar)[line.slice(0, colon)] = value;
    }
  }
  return { calendar, events };
}

const utc = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

async function book(classId: number, extra: Partial<typeof class_reservation.$inferInsert> = {}) {
  const [row] = await server.db
    .insert(class_reservation)
    .values({ single_class_id: classId, customer_id: clienteId, ...extra })
    .returning({ id: class_reservation.class_reservation_id, code: class_reservation.access_code });
  if (!row) throw new Error('reservation insert failed');
  return row;
}

async function feedUrl(): Promise<string> {
  const res = await call(server.app, 'GET', '/api/customer/messages', { token });
  return res.body.calendar_url as string;
}

const pathOf = (url: string) => new URL(url).pathname;
const uid = (id: number) => reservationEventUid(id, 'http://estudio.test');

describe('the private calendar feed', () => {
  it('lists the customer’s reservations from 30 days ago on, with class, coach, location, access code and the portal link; cancelled ones as CANCELLED', async () => {
    const ahead = await newClass(server.db, { minutesAhead: 2 * 24 * 60 + 17, capacity: 10, durationMinutes: 45 });
    const past = await newClass(server.db, { minutesAhead: -10 * 24 * 60, capacity: 10 });
    const tooOld = await newClass(server.db, { minutesAhead: -40 * 24 * 60, capacity: 10 });
    const dropped = await newClass(server.db, { minutesAhead: 3 * 24 * 60, capacity: 10 });
    const studioCancelled = await newClass(server.db, { minutesAhead: 4 * 24 * 60, capacity: 10 });
    const [coach] = await server.db.select().from(instructor).limit(1);
    await server.db.insert(single_class_instructor).values({ single_class_id: ahead, instructor_id: coach?.instructor_id as number });
    await server.db.update(single_class).set({ cancelledAt: new Date() }).where(eq(single_class.single_class_id, studioCancelled));

    const aheadBooking = await book(ahead, { spot: 7 });
    const pastBooking = await book(past, { attend: true, attendedAt: new Date() });
    const oldBooking = await book(tooOld);
    const droppedBooking = await book(dropped, { deletedAt: new Date() });
    const studioCancelledBooking = await book(studioCancelled);

    const res = await server.app.inject({ method: 'GET', url: pathOf(await feedUrl()) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    const { calendar, events } = parseCalendar(res.body);
    expect(calendar).toMatchObject({ VERSION: '2.0', 'X-WR-CALNAME': 'Mis clases en Estudio Demo' });
    const byUid = new Map(events.map((e) => [e.UID, e]));
    expect(byUid.has(uid(oldBooking.id))).toBe(false);
    // The booking confirmation's invitation names the same event (server/src/services/clock/booking-confirmations.ts).
    expect(byUid.has(`reservacion-${aheadBooking.id}@estudio.test`)).toBe(true);

    const [aheadClass] = await server.db.select().from(single_class).where(eq(single_class.single_class_id, ahead));
    const [place] = await server.db.select().from(location).where(eq(location.location_id, aheadClass?.location_id as number));
    const event = byUid.get(uid(aheadBooking.id));
    expect(event).toMatchObject({
      DTSTART: utc(aheadClass?.class_date as Date),
      DTEND: utc(new Date((aheadClass?.class_date as Date).getTime() + 45 * 60_000)),
      SUMMARY: 'Indoor Cycling',
      LOCATION: `${place?.name}, ${place?.address}`,
      STATUS: 'CONFIRMED',
      URL: 'http://estudio.test/mystudio/reservaciones',
    });
    expect(event?.DESCRIPTION).toContain(`Código de acceso: ${aheadBooking.code}`);
    expect(event?.DESCRIPTION).toContain(`Coach: ${coach?.nick_name || `${coach?.name} ${coach?.last_name}`}`);
    expect(event?.DESCRIPTION).toContain('Lugar: 7');
    expect(event?.DESCRIPTION).toContain('Tus reservaciones: http://estudio.test/mystudio/reservaciones');

    expect(byUid.get(uid(pastBooking.id))?.STATUS).toBe('CONFIRMED');
    const droppedEvent = byUid.get(uid(droppedBooking.id));
    expect(droppedEvent?.STATUS).toBe('CANCELLED');
    expect(droppedEvent?.DESCRIPTION).not.toContain(droppedBooking.code);
    expect(byUid.get(uid(studioCancelledBooking.id))?.STATUS).toBe('CANCELLED');
    // Oldest first.
    const starts = events.map((e) => e.DTSTART as string);
    expect([...starts].sort()).toEqual(starts);
  });

  it('answers over real HTTP on loopback, HEAD too', async () => {
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const path = pathOf(await feedUrl());
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(await res.text()).toMatch(/^BEGIN:VCALENDAR\r\n/);
    const head = await fetch(`${base}${path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('an unknown token, or one without .ics, is a 404', async () => {
    const made = await server.app.inject({ method: 'GET', url: '/api/calendar/inventado.ics' });
    expect(made.statusCode).toBe(404);
    expect(JSON.parse(made.body).code).toBe('not-found');
    const url = pathOf(await feedUrl());
    expect((await server.app.inject({ method: 'GET', url: url.replace(/\.ics$/, '') })).statusCode).toBe(404);
  });

  it('renewing the link gives a new feed URL and the old one stops working', async () => {
    const old = pathOf(await feedUrl());
    expect((await server.app.inject({ method: 'GET', url: old })).statusCode).toBe(200);
    const renewed = await call(server.app, 'POST', '/api/customer/messages/calendar', { token, body: {} });
    expect(renewed.status).toBe(200);
    const fresh = renewed.body.calendar_url as string;
    expect(fresh).toMatch(/^http:\/\/estudio\.test\/api\/calendar\/[A-Za-z0-9_-]{32}\.ics$/);
    expect(pathOf(fresh)).not.toBe(old);
    expect(await feedUrl()).toBe(fresh);
    expect((await server.app.inject({ method: 'GET', url: old })).statusCode).toBe(404);
    const now = await server.app.inject({ method: 'GET', url: pathOf(fresh) });
    expect(now.statusCode).toBe(200);
    expect(parseCalendar(now.body).events.length).toBeGreaterThan(0);
    // Strict: an unknown field is refused, naming it.
    const extra = await call(server.app, 'POST', '/api/customer/messages/calendar', { token, body: { motivo: 'compartido' } });
    expect(extra.status).toBe(400);
    expect(extra.body.field).toBe('motivo');
  });

  it('a flood from one address is cut at the per-address limit with the Spanish 429', async () => {
    const fresh = await server.withConfig({});
    const answers: number[] = [];
    for (let i = 0; i <= calendarFeedsPerMinute; i += 1) answers.push((await fresh.inject({ method: 'GET', url: `/api/calendar/inventado${i}.ics` })).statusCode);
    expect(answers.slice(0, calendarFeedsPerMinute).every((status) => status === 404)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    const over = await fresh.inject({ method: 'GET', url: pathOf(await feedUrl()) });
    expect(over.statusCode).toBe(429);
    expect(JSON.parse(over.body).code).toBe('rate-limited');
    // Another address is not affected.
    expect((await fresh.inject({ method: 'GET', url: pathOf(await feedUrl()), remoteAddress: '10.0.0.7' })).statusCode).toBe(200);
  });

  it('another customer’s reservations never show in the feed', async () => {
    const otherId = await customerId(server.db, 'ilimitado@estudio.demo');
    const classId = await newClass(server.db, { minutesAhead: 5 * 24 * 60, capacity: 10 });
    const [theirs] = await server.db.insert(class_reservation).values({ single_class_id: classId, customer_id: otherId }).returning({ id: class_reservation.class_reservation_id });
    const res = await server.app.inject({ method: 'GET', url: pathOf(await feedUrl()) });
    expect(res.body).not.toContain(uid(theirs?.id as number));
  });
});
