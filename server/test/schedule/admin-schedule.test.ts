import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { instructor } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { anyLocationId, classTypeId, createBookers, newClass } from '../support/reservations-fixtures.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const tz = 'America/Mexico_City';
let server: TestServer;
let admin: string;
let adminId: number;
let cliente: string;
demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  const a = await login(server.app, 'admin@estudio.demo');
  admin = a.idToken;
  adminId = (await call(server.app, 'GET', '/api/customer', { token: admin })).body.customer.customer_id as number;
  cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
}, 60_000);

/** A local date `days` from today on the studio's calendar. */
const localDay = (days: number) => dayjs().tz(tz).add(days, 'day').format('YYYY-MM-DD');

async function instructorIds(n: number): Promise<number[]> {
  const rows = await server.db.select({ id: instructor.instructor_id }).from(instructor).orderBy(instructor.instructor_id).limit(n);
  return rows.map((r) => r.id);
}

async function lastAudit(entity: string, entityId?: number) {
  const [row] = await server.db
    .select()
    .from(audit_log)
    .where(and(eq(audit_log.entity, entity), entityId === undefined ? undefined : eq(audit_log.entity_id, String(entityId))))
    .orderBy(desc(audit_log.audit_log_id))
    .limit(1);
  return row;
}

describe('POST /api/single_class', () => {
  it('creates a class at a local date and time of the studio, with its coaches, and audits it', async () => {
    const [coachA, coachB] = await instructorIds(2);
    const type = await classTypeId(server.db, 'Yoga');
    const date = localDay(20);
    const res = await call(server.app, 'POST', '/api/single_class', {
      token: admin,
      body: {
        date,
        time: '07:30',
        duration_minutes: 55,
        capacity: 12,
        location_id: await anyLocationId(server.db),
        class_type_id: type.id,
        instructor_ids: [coachA, coachB],
        description: 'Yoga al amanecer',
      },
    });
    expect(res.status).toBe(200);
    const created = res.body.single_class;
    expect(created).toMatchObject({ capacity: 12, duration_minutes: 55, description: 'Yoga al amanecer', cancelledAt: null, reservation_count: 0 });
    // 07:30 on the studio's wall clock that day, whatever the server's zone.
    expect(created.class_date).toBe(dayjs.tz(`${date} 07:30`, tz).toISOString());
    expect((created.class_instructors as { instructor_id: number }[]).map((i) => i.instructor_id).sort()).toEqual([coachA, coachB].sort());

    const audit = await lastAudit('single_class', created.single_class_id);
    expect(audit).toMatchObject({ customer_id: adminId, action: 'create' });

    // The public schedule shows it on that local day.
    const day = await call(server.app, 'GET', `/api/single_class?start_date=${date}&end_date=${date}`);
    expect((day.body.single_classes as { single_class_id: number }[]).some((c) => c.single_class_id === created.single_class_id)).toBe(true);
  });

  it('refuses bad input with Spanish messages and saves nothing; customers get 403; unknown references 404', async () => {
    const type = await classTypeId(server.db, 'Yoga');
    const location_id = await anyLocationId(server.db);
    const base = { date: localDay(21), time: '08:00', duration_minutes: 50, capacity: 10, location_id, class_type_id: type.id };
    const [before] = await server.db.select({ n: single_class.single_class_id }).from(single_class).orderBy(desc(single_class.single_class_id)).limit(1);

    const badTime = await call(server.app, 'POST', '/api/single_class', { token: admin, body: { ...base, time: '25:00' } });
    expect(badTime.status).toBe(400);
    expect(badTime.body.message).toContain('La hora debe tener el formato HH:mm.');
    const badCapacity = await call(server.app, 'POST', '/api/single_class', { token: admin, body: { ...base, capacity: 0 } });
    expect(badCapacity.status).toBe(400);
    expect(badCapacity.body.message).toContain('El cupo debe ser de al menos 1 lugar.');
    const noCoach = await call(server.app, 'POST', '/api/single_class', { token: admin, body: { ...base, instructor_ids: [999_999] } });
    expect(noCoach.status).toBe(404);
    expect(noCoach.body.code).toBe('schedule/instructor-not-found');
    const noLocation = await call(server.app, 'POST', '/api/single_class', { token: admin, body: { ...base, location_id: 999_999 } });
    expect(noLocation.status).toBe(404);
    expect(noLocation.body.code).toBe('schedule/reference-not-found');
    expect((await call(server.app, 'POST', '/api/single_class', { token: cliente, body: base })).status).toBe(403);
    expect((await call(server.app, 'POST', '/api/single_class', { body: base })).status).toBe(401);

    const [after] = await server.db.select({ n: single_class.single_class_id }).from(single_class).orderBy(desc(single_class.single_class_id)).limit(1);
    expect(after?.n).toBe(before?.n);
  });
});

describe('PUT /api/single_class', () => {
  it('keeps reservations when moving a class; the capacity may not go below the places taken', async () => {
    const classId = await newClass(server.db, { minutesAhead: 3 * 24 * 60, capacity: 10, classType: 'Yoga' });
    const bookers = await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: 'editar-clase', credits: 2 });
    for (const b of bookers) expect((await call(server.app, 'POST', '/api/class_reservations', { token: b.token, body: { single_class_id: classId } })).status).toBe(200);
    // One guest takes a second place: three places in all.
    const [first] = bookers;
    const [firstReservation] = await server.db
      .select()
      .from(class_reservation)
      .where(and(eq(class_reservation.single_class_id, classId), eq(class_reservation.customer_id, first?.customer_id ?? 0)));
    await server.db.update(class_reservation).set({ guest: 'Ana Invitada' }).where(eq(class_reservation.class_reservation_id, firstReservation?.class_reservation_id ?? 0));

    const tooSmall = await call(server.app, 'PUT', '/api/single_class', { token: admin, body: { single_class_id: classId, capacity: 2 } });
    expect(tooSmall.status).toBe(409);
    expect(tooSmall.body).toMatchObject({
      code: 'schedule/capacity-below-reservations',
      message: 'El cupo no puede ser menor que los lugares ya reservados en esta clase.',
    });
    const onlyDate = await call(server.app, 'PUT', '/api/single_class', { token: admin, body: { single_class_id: classId, date: localDay(9) } });
    expect(onlyDate.status).toBe(400);

    const newDate = localDay(9);
    const moved = await call(server.app, 'PUT', '/api/single_class', {
      token: admin,
      body: { single_class_id: classId, capacity: 3, date: newDate, time: '21:15', instructor_ids: await instructorIds(1) },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.single_class).toMatchObject({ capacity: 3, reservation_count: 3, class_date: dayjs.tz(`${newDate} 21:15`, tz).toISOString() });
    expect(moved.body.single_class.class_instructors).toHaveLength(1);
    const live = await server.db
      .select()
      .from(class_reservation)
      .where(and(eq(class_reservation.single_class_id, classId), isNull(class_reservation.deletedAt)));
    expect(live).toHaveLength(2);
    expect((await lastAudit('single_class', classId))?.action).toBe('update');

    expect((await call(server.app, 'PUT', '/api/single_class', { token: cliente, body: { single_class_id: classId, capacity: 30 } })).status).toBe(403);
    expect((await call(server.app, 'PUT', '/api/single_class', { token: admin, body: { single_class_id: 999_999, capacity: 30 } })).status).toBe(404);
  });
});

describe('POST /api/single_class/{id}/cancel', () => {
  it('returns every credit, tells everyone booked and waiting (e-mail, and WhatsApp to a phone), empties the waitlist, all audited', async () => {
    const classId = await newClass(server.db, { minutesAhead: 4 * 24 * 60, capacity: 10, classType: 'Yoga' });
    const [limited, withPhone, unlimited, waiting] = await createBookers(server.db, server.config.AUTH_SECRET, 4, { prefix: 'cancelar-clase', credits: 3 });
    if (!limited || !withPhone || !unlimited || !waiting) throw new Error('bookers');
    await server.db.update(customer).set({ phone: '5512345678' }).where(eq(customer.customer_id, withPhone.customer_id));
    await server.db.update(available_classes).set({ available_classes: -1 }).where(eq(available_classes.available_class_id, unlimited.available_class_id));
    for (const b of [limited, withPhone, unlimited]) {
      expect((await call(server.app, 'POST', '/api/class_reservations', { token: b.token, body: { single_class_id: classId } })).status).toBe(200);
    }
    await server.db.insert(waitlist).values({ single_class_id: classId, customer_id: waiting.customer_id });
    const credit = async (id: number) =>
      (await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, id)))[0]?.available_classes;
    expect(await credit(limited.available_class_id)).toBe(2);

    // The dialog's preview counts what the cancel then does: the unlimited member has no credit to get back.
    const preview = await call(server.app, 'GET', `/api/single_class/${classId}/cancel_preview`, { token: admin });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      reservations: 3,
      credits_returned: 2,
      waitlisted: 1,
      // Each group's message, as the cancel will write it: two get their credit back, one keeps her membership, one waited.
      messages: [
        { was: 'credit', customers: 2, subject: 'Clase cancelada: Yoga', paragraphs: [expect.stringContaining('fue cancelada por el estudio.'), 'Te devolvimos el crédito que usaste para reservarla.'] },
        { was: 'unlimited', customers: 1, subject: 'Clase cancelada: Yoga', paragraphs: [expect.stringContaining('fue cancelada por el estudio.'), 'Tu membresía ilimitada sigue vigente para reservar otra clase.'] },
        { was: 'waitlist', customers: 1, subject: 'Clase cancelada: Yoga', paragraphs: [expect.stringContaining('fue cancelada por el estudio.'), 'Estabas en su lista de espera; ya no esperas lugar en ella.'] },
      ],
    });

    const res = await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: admin });
    expect(res.status).toBe(200);
    // Four people told: three booked, one waiting; the one with a phone by e-mail and WhatsApp.
    expect(res.body).toMatchObject({ reservations_cancelled: 3, credits_returned: 2, messages_queued: 5, waitlist_removed: 1 });
    expect((await call(server.app, 'GET', `/api/single_class/${classId}/cancel_preview`, { token: admin })).body.code).toBe('schedule/class-cancelled');
    expect(res.body.single_class.cancelledAt).not.toBeNull();

    expect(await credit(limited.available_class_id)).toBe(3);
    expect(await credit(withPhone.available_class_id)).toBe(3);
    expect(await credit(unlimited.available_class_id)).toBe(-1);
    const reservations = await server.db.select().from(class_reservation).where(eq(class_reservation.single_class_id, classId));
    expect(reservations.every((r) => r.deletedAt !== null && r.credit_returned === true)).toBe(true);
    expect(await server.db.select().from(waitlist).where(eq(waitlist.single_class_id, classId))).toEqual([]);

    const messages = await server.db
      .select()
      .from(outbox_message)
      .where(inArray(outbox_message.customer_id, [limited, withPhone, unlimited, waiting].map((b) => b.customer_id)));
    expect(messages.map((m) => [m.recipient, m.channel]).sort()).toEqual([
      ['5512345678', 'whatsapp'],
      ['cancelar-clase-0@carrera.demo', 'email'],
      ['cancelar-clase-1@carrera.demo', 'email'],
      ['cancelar-clase-2@carrera.demo', 'email'],
      ['cancelar-clase-3@carrera.demo', 'email'],
    ]);
    expect(messages.every((m) => m.status === 'pending' && m.kind === 'class-cancelled' && m.body.includes('fue cancelada por el estudio'))).toBe(true);
    expect(messages.find((m) => m.recipient === 'cancelar-clase-0@carrera.demo')?.body).toContain('Te devolvimos el crédito');
    expect(messages.find((m) => m.recipient === 'cancelar-clase-2@carrera.demo')?.body).toContain('membresía ilimitada');
    expect(messages.find((m) => m.recipient === 'cancelar-clase-3@carrera.demo')?.body).toContain('ya no esperas lugar');

    const audit = await lastAudit('single_class', classId);
    expect(audit).toMatchObject({ customer_id: adminId, action: 'cancel' });

    // Cancelled once: a second cancel and any edit are 409; nobody can book it.
    const again = await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('schedule/class-cancelled');
    expect((await call(server.app, 'PUT', '/api/single_class', { token: admin, body: { single_class_id: classId, capacity: 20 } })).status).toBe(409);
    const book = await call(server.app, 'POST', '/api/class_reservations', { token: waiting.token, body: { single_class_id: classId } });
    expect(book.body.code).toBe('booking/class-cancelled');
    // The public route still answers the class, cancelled.
    expect((await call(server.app, 'GET', `/api/single_class/single/${classId}`)).body.single_class.cancelledAt).not.toBeNull();
  });

  it('customers get 403 and nothing changes; an unknown class is 404', async () => {
    const classId = await newClass(server.db, { minutesAhead: 5 * 24 * 60, capacity: 10, classType: 'Yoga' });
    expect((await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: cliente })).status).toBe(403);
    const [row] = await server.db.select().from(single_class).where(eq(single_class.single_class_id, classId));
    expect(row?.cancelledAt).toBeNull();
    expect((await call(server.app, 'POST', '/api/single_class/999999/cancel', { token: admin })).status).toBe(404);
  });
});

describe('POST /api/single_class/repeat', () => {
  it('creates every class of a weekly template once; the same range again creates nothing', async () => {
    const type = await classTypeId(server.db, 'Indoor Cycling');
    const location_id = await anyLocationId(server.db);
    const coaches = await instructorIds(1);
    // Four whole weeks from next Monday (local), Monday and Wednesday 06:45 and Friday 20:00.
    const today = dayjs.utc(localDay(0));
    const monday = today.add(((8 - today.day()) % 7 || 7) + 35, 'day');
    const start_date = monday.format('YYYY-MM-DD');
    const end_date = monday.add(27, 'day').format('YYYY-MM-DD');
    const body = {
      start_date,
      end_date,
      slots: [
        { weekday: 1, time: '06:45' },
        { weekday: 3, time: '06:45' },
        { weekday: 5, time: '20:00' },
        { weekday: 5, time: '20:00' },
      ],
      location_id,
      class_type_id: type.id,
      instructor_ids: coaches,
      capacity: 16,
      duration_minutes: 45,
    };
    const first = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 12, skipped: 0 });
    const ids = first.body.single_class_ids as number[];
    const rows = await server.db.select().from(single_class).where(inArray(single_class.single_class_id, ids));
    const local = rows.map((r) => dayjs(r.class_date).tz(tz)).sort((a, b) => a.valueOf() - b.valueOf());
    expect(local.map((d) => d.format('ddd HH:mm'))).toEqual(Array.from({ length: 4 }, () => ['Mon 06:45', 'Wed 06:45', 'Fri 20:00']).flat());
    expect(local[0]?.format('YYYY-MM-DD')).toBe(start_date);
    expect(rows.every((r) => r.capacity === 16 && r.duration_minutes === 45 && r.location_id === location_id)).toBe(true);
    const links = await server.db.select().from(single_class_instructor).where(inArray(single_class_instructor.single_class_id, ids));
    expect(links).toHaveLength(12);
    expect((await lastAudit('single_class'))).toMatchObject({ action: 'repeat', customer_id: adminId });

    const again = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body });
    expect(again.body).toMatchObject({ created: 0, skipped: 12, single_class_ids: [] });

    // A wider range fills only what is missing; a cancelled class's start is filled again.
    await call(server.app, 'POST', `/api/single_class/${ids[0]}/cancel`, { token: admin });
    const wider = await call(server.app, 'POST', '/api/single_class/repeat', {
      token: admin,
      body: { ...body, end_date: monday.add(34, 'day').format('YYYY-MM-DD') },
    });
    expect(wider.body).toMatchObject({ created: 4, skipped: 11 });
  });

  it('validates the template: range order and length, weekdays, slots; customers get 403', async () => {
    const type = await classTypeId(server.db, 'Yoga');
    const base = {
      start_date: localDay(10),
      end_date: localDay(20),
      slots: [{ weekday: 2, time: '09:00' }],
      location_id: await anyLocationId(server.db),
      class_type_id: type.id,
      capacity: 10,
      duration_minutes: 50,
    };
    const tooLong = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body: { ...base, end_date: localDay(400) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toContain('El rango de fechas no puede ser mayor a 366 días.');
    const backwards = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body: { ...base, end_date: localDay(5) } });
    expect(backwards.body.message).toContain('La fecha final debe ser posterior a la inicial.');
    const badDay = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body: { ...base, slots: [{ weekday: 8, time: '09:00' }] } });
    expect(badDay.body.message).toContain('El día debe ser de 1 (lunes) a 7 (domingo).');
    const noSlots = await call(server.app, 'POST', '/api/single_class/repeat', { token: admin, body: { ...base, slots: [] } });
    expect(noSlots.body.message).toContain('Agrega al menos un horario.');
    expect((await call(server.app, 'POST', '/api/single_class/repeat', { token: cliente, body: base })).status).toBe(403);
  });
});
