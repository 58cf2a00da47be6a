import { and, desc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { instructor } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { createBookers, newClass } from '../support/reservations-fixtures.ts';

/**
 * Another coach gives a class, or every class of a coach in a range: the
 * class's coaches change (so every screen that reads them shows who gives
 * it), each class is logged, and the people booked are told when asked.
 */
let server: TestServer;
let admin: string;
let coaches: { id: number; name: string }[];
demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  coaches = (await server.db.select({ id: instructor.instructor_id, name: instructor.name, last: instructor.last_name }).from(instructor).orderBy(instructor.instructor_id)).map((c) => ({ id: c.id, name: `${c.name} ${c.last}` }));
}, 60_000);

const hours = 60;
/** A class `minutesAhead` from now taught by `coachId`, far from the demo's days so no coach is busy then. */
async function taughtBy(coachId: number, minutesAhead: number): Promise<number> {
  const id = await newClass(server.db, { minutesAhead, capacity: 10, classType: 'Yoga', durationMinutes: 50 });
  await server.db.insert(single_class_instructor).values({ single_class_id: id, instructor_id: coachId });
  return id;
}
const coachesOf = async (id: number) =>
  (await server.db.select({ id: single_class_instructor.instructor_id }).from(single_class_instructor).where(eq(single_class_instructor.single_class_id, id))).map((r) => r.id);
const substitute = (body: Record<string, unknown>, token = admin) => call(server.app, 'POST', '/api/single_class/substitute', { token, body });

describe('a substitute coach', () => {
  it('for one class: she gives it everywhere the class is read, it is logged, and the people booked are told by e-mail and WhatsApp', async () => {
    const [from, to] = [coaches[0]!, coaches[1]!];
    const classId = await taughtBy(from.id, 40 * 24 * hours);
    const [ana, bea] = await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: `sustituto-${Date.now()}`, credits: 2 });
    if (!ana || !bea) throw new Error('fixtures');
    const phone = `58${String(Date.now()).slice(-8)}`;
    await server.db.update(customer).set({ phone }).where(eq(customer.customer_id, bea.customer_id));
    for (const b of [ana, bea]) expect((await call(server.app, 'POST', '/api/class_reservations', { token: b.token, body: { single_class_id: classId } })).status).toBe(200);

    const res = await substitute({ from_instructor_id: from.id, to_instructor_id: to.id, single_class_id: classId, notify: true });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toEqual({ single_class_ids: [classId], messages_queued: 3 });
    expect(await coachesOf(classId)).toEqual([to.id]);

    // The public schedule (its cache too) shows who gives it now.
    const [row] = await server.db.select({ class_date: single_class.class_date }).from(single_class).where(eq(single_class.single_class_id, classId));
    const day = new Date(row!.class_date.getTime() - 6 * 3_600_000).toISOString().slice(0, 10);
    const week = await call(server.app, 'GET', `/api/single_class?start_date=${day}&end_date=${day}`);
    const shown = (week.body.single_classes as { single_class_id: number; class_instructors: { instructor_id: number }[] }[]).find((c) => c.single_class_id === classId);
    expect(shown?.class_instructors.map((i) => i.instructor_id)).toEqual([to.id]);

    const rows = await server.db
      .select()
      .from(outbox_message)
      .where(and(inArray(outbox_message.customer_id, [ana.customer_id, bea.customer_id]), eq(outbox_message.kind, 'class-coach-changed')))
      .orderBy(outbox_message.outbox_message_id);
    expect(rows.map((m) => [m.customer_id, m.channel])).toEqual([
      [ana.customer_id, 'email'],
      [bea.customer_id, 'email'],
      [bea.customer_id, 'whatsapp'],
    ]);
    expect(rows[0]?.subject).toMatch(/^Cambio de coach: Yoga, /);
    expect(rows[0]?.body).toContain(`la dará ${to.name} en lugar de ${from.name}.`);
    expect(rows[0]?.body).toContain('Tu lugar sigue reservado.');
    expect(rows[2]?.whatsapp_template).toMatchObject({ name: 'estudio_cambio_coach' });
    expect(rows[2]?.whatsapp_template?.parameters).toEqual(['Cliente', 'Yoga', expect.stringMatching(/\d{2} \S+ \d{4} \d{2}:\d{2}/), to.name, from.name]);

    const [audit] = await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.entity, 'single_class'), eq(audit_log.entity_id, String(classId))))
      .orderBy(desc(audit_log.audit_log_id))
      .limit(1);
    expect(audit).toMatchObject({ action: 'substitute', changes: { from_instructor_id: from.id, to_instructor_id: to.id, notify: true } });
    const activity = await call(server.app, 'GET', '/api/activity', { token: admin });
    expect(JSON.stringify(activity.body)).toContain(`puso a ${to.name} en lugar de ${from.name} en una clase del horario`);
  });

  it('for a range: only her classes still to start and not cancelled, inside the dates; telling nobody when not asked', async () => {
    const [from, to] = [coaches[2]!, coaches[3]!];
    const inside = [await taughtBy(from.id, 60 * 24 * hours), await taughtBy(from.id, 61 * 24 * hours)];
    const outside = await taughtBy(from.id, 70 * 24 * hours);
    const cancelled = await taughtBy(from.id, 62 * 24 * hours);
    await server.db.update(single_class).set({ cancelledAt: new Date() }).where(eq(single_class.single_class_id, cancelled));
    const someoneElse = await taughtBy(coaches[1]!.id, 60 * 24 * hours + 300);
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

    const res = await substitute({ from_instructor_id: from.id, to_instructor_id: to.id, start_date: day(59), end_date: day(63) });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toEqual({ single_class_ids: inside, messages_queued: 0 });
    for (const id of inside) expect(await coachesOf(id)).toEqual([to.id]);
    expect(await coachesOf(outside)).toEqual([from.id]);
    expect(await coachesOf(cancelled)).toEqual([from.id]);
    expect(await coachesOf(someoneElse)).toEqual([coaches[1]!.id]);
  });

  it('a substitute already teaching then is named, nothing changes; confirmed, she gives both', async () => {
    const [from, to] = [coaches[0]!, coaches[2]!];
    const classId = await taughtBy(from.id, 80 * 24 * hours);
    const busy = await taughtBy(to.id, 80 * 24 * hours + 20);
    const refused = await substitute({ from_instructor_id: from.id, to_instructor_id: to.id, single_class_id: classId });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('schedule/overlap');
    expect(refused.body.message).toMatch(new RegExp(`^${to.name} ya da Yoga el `));
    expect(await coachesOf(classId)).toEqual([from.id]);
    const kept = await substitute({ from_instructor_id: from.id, to_instructor_id: to.id, single_class_id: classId, allow_overlap: true });
    expect(kept.status).toBe(200);
    expect(await coachesOf(classId)).toEqual([to.id]);
    expect(await coachesOf(busy)).toEqual([to.id]);
  });

  it('refuses in Spanish: nothing to substitute, an unknown coach, the same coach, a class and a range at once; customers get 403', async () => {
    const [from, to] = [coaches[0]!, coaches[1]!];
    const notHers = await taughtBy(to.id, 90 * 24 * hours);
    const none = await substitute({ from_instructor_id: from.id, to_instructor_id: to.id, single_class_id: notHers });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('Ese coach no da ninguna clase por venir en lo que elegiste.');
    expect((await substitute({ from_instructor_id: from.id, to_instructor_id: 999_999, single_class_id: notHers })).status).toBe(404);
    const same = await substitute({ from_instructor_id: from.id, to_instructor_id: from.id, single_class_id: notHers });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe('Elige a otro coach para la sustitución.');
    const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const both = await substitute({ from_instructor_id: from.id, to_instructor_id: to.id, single_class_id: notHers, start_date: later(100), end_date: later(101) });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe('Indica una clase, o un rango con su fecha inicial y su fecha final; no los dos.');
    const halfRange = await substitute({ from_instructor_id: from.id, to_instructor_id: to.id, start_date: later(100) });
    expect(halfRange.status).toBe(400);
    expect(halfRange.body.code).toBe('schedule/substitute-scope');
    const cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
    expect((await substitute({ from_instructor_id: to.id, to_instructor_id: from.id, single_class_id: notHers }, cliente)).status).toBe(403);
    expect(await coachesOf(notHers)).toEqual([to.id]);
  });
});
