import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { instructor } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { createBookers, newClass } from '../support/reservations-fixtures.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Coach pay against a month computed by hand: a coach paid per class whose
 * rate changes mid-month, one paid per attendee with a floor, one paid a
 * share of what the class was worth (split with the class's second coach),
 * one with no rate; cancelled and future classes pay nothing, and what a
 * booking is worth follows its package (price over classes), its membership
 * (price over the classes booked with it) or its gift (nothing).
 */
const tz = 'America/Mexico_City';
const dayMs = 86_400_000;
let server: TestServer;
let admin: string;
let coaches: { id: number; name: string }[];
demoStudio([], (s) => ({ server } = s));

const localDay = (daysFromToday: number) => dayjs().tz(tz).add(daysFromToday, 'day').format('YYYY-MM-DD');
const rule = (body: Record<string, unknown>) => call(server.app, 'POST', '/api/coach_pay_rules', { token: admin, body });

/** A class given `daysAgo` days ago (same hour as now), taught by `coachIds`. */
async function givenClass(daysAgo: number, coachIds: number[]): Promise<number> {
  const id = await newClass(server.db, { minutesAhead: -Math.round((daysAgo * dayMs) / 60_000), capacity: 20, classType: 'Yoga' });
  if (coachIds.length) await server.db.insert(single_class_instructor).values(coachIds.map((instructor_id) => ({ single_class_id: id, instructor_id })));
  return id;
}

/** A paid purchase (or a gift) and its credit row: `classes` -1 is an unlimited membership. */
async function credit(customerId: number, total: string, classes: number, gift = false): Promise<number> {
  const [pkg] = await server.db.select({ id: class_package.class_package_id }).from(class_package).limit(1);
  const [bought] = await server.db
    .insert(purchase)
    .values({ customer_id: customerId, class_package_id: pkg!.id, title: 'Paquete de prueba', amount: total, total_payment: total, class_amount: classes, status: 'completed', is_gift: gift, paidAt: new Date() })
    .returning({ id: purchase.purchase_id });
  const [row] = await server.db.insert(available_classes).values({ customer_id: customerId, purchase_id: bought!.id, available_classes: classes }).returning({ id: available_classes.available_class_id });
  return row!.id;
}

const book = (classId: number, customerId: number, creditId: number, attend: boolean, guest: string | null = null) =>
  server.db.insert(class_reservation).values({ single_class_id: classId, customer_id: customerId, available_class_id: creditId, attend, guest });

beforeAll(async () => {
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  coaches = (await server.db.select({ id: instructor.instructor_id, name: instructor.name, last: instructor.last_name }).from(instructor).orderBy(instructor.instructor_id)).map((c) => ({ id: c.id, name: `${c.name} ${c.last}` }));
  expect(coaches.length).toBeGreaterThanOrEqual(4);
}, 60_000);

describe('coach pay', () => {
  it('a month by hand: each class under the rule of its day, totals by coach, and the same lines in the CSV and in each coach view', async () => {
    const [a, b, c, d] = coaches as [(typeof coaches)[number], (typeof coaches)[number], (typeof coaches)[number], (typeof coaches)[number]];
    // The demo's own classes have these coaches too: only this test's, far in the past, are in the range below.
    const base = 200;
    const dayOf = (n: number) => localDay(-(base + n));
    expect((await rule({ instructor_id: a.id, effective_from: dayOf(30), kind: 'per_class', amount: '250' })).status).toBe(200);
    expect((await rule({ instructor_id: a.id, effective_from: dayOf(5), kind: 'per_class', amount: '300.00' })).status).toBe(200);
    const perAttendee = await rule({ instructor_id: b.id, effective_from: dayOf(30), kind: 'per_attendee', amount: '35', minimum: '150', maximum: '400' });
    expect(perAttendee.status, perAttendee.raw).toBe(200);
    expect(perAttendee.body.rule.text).toBe('$35.00 por asistente (mín. $150.00, máx. $400.00)');
    expect((await rule({ instructor_id: c.id, effective_from: dayOf(30), kind: 'revenue_share', percent: 40 })).status).toBe(200);

    const [ana, bea, caro] = await createBookers(server.db, server.config.AUTH_SECRET, 3, { prefix: `pago-${Date.now()}`, credits: 0 });
    const pack = await credit(ana!.customer_id, '1000.00', 8); // $125.00 a class
    const member = await credit(bea!.customer_id, '1500.00', -1); // three classes booked with it: $500.00 each
    const gift = await credit(caro!.customer_id, '0.00', 5, true); // nothing

    const k1 = await givenClass(base + 10, [a.id]);
    await book(k1, ana!.customer_id, pack, true);
    await book(k1, bea!.customer_id, member, true);
    const k2 = await givenClass(base + 3, [a.id]);
    await book(k2, ana!.customer_id, pack, true);
    const k3 = await givenClass(base + 8, [b.id]);
    await book(k3, ana!.customer_id, pack, true, 'Invitada');
    await book(k3, bea!.customer_id, member, true);
    await book(k3, caro!.customer_id, gift, false);
    const k4 = await givenClass(base + 6, [c.id, a.id]);
    await book(k4, bea!.customer_id, member, false);
    const k5 = await givenClass(base + 2, [d.id]);
    // Cancelled, and (in the range's last day) still to start: they pay nothing.
    const cancelled = await givenClass(base + 4, [a.id]);
    await server.db.update(single_class).set({ cancelledAt: new Date() }).where(eq(single_class.single_class_id, cancelled));

    const range = `start_date=${dayOf(20)}&end_date=${dayOf(0)}`;
    const res = await call(server.app, 'GET', `/api/reports/coach_pay?${range}`, { token: admin });
    expect(res.status, res.raw).toBe(200);
    const line = (id: number, coach: number) => res.body.classes.find((l: { single_class_id: number; instructor_id: number }) => l.single_class_id === id && l.instructor_id === coach);
    // K1: two came; $125 + $500; A at $250 a class (the rate of its day).
    expect(line(k1, a.id)).toMatchObject({ attendees: 2, reservations: 2, revenue: '625.00', rule: '$250.00 por clase', amount: '250.00' });
    // K2: after A's new rate.
    expect(line(k2, a.id)).toMatchObject({ attendees: 1, revenue: '125.00', rule: '$300.00 por clase', amount: '300.00' });
    // K3: Ana and her guest, Bea: 3 × $35 = $105, up to the $150 floor; the gift is worth nothing.
    expect(line(k3, b.id)).toMatchObject({ attendees: 3, reservations: 3, revenue: '625.00', amount: '150.00' });
    // K4: nobody came; $500 of membership; C's 40 %, split with A: $100; A paid per class: $250.
    expect(line(k4, c.id)).toMatchObject({ attendees: 0, revenue: '500.00', rule: '40% de lo que vale la clase', amount: '100.00' });
    expect(line(k4, a.id)).toMatchObject({ amount: '250.00' });
    // K5: a coach with no rate is listed, and counted as such.
    expect(line(k5, d.id)).toMatchObject({ rule: null, amount: null });
    expect(res.body.classes.some((l: { single_class_id: number }) => l.single_class_id === cancelled)).toBe(false);

    const sum = (id: number) => res.body.coaches.find((s: { instructor_id: number }) => s.instructor_id === id);
    expect(sum(a.id)).toMatchObject({ classes: 3, amount: '800.00', without_rule: 0 });
    expect(sum(b.id)).toMatchObject({ classes: 1, attendees: 3, amount: '150.00' });
    expect(sum(c.id)).toMatchObject({ classes: 1, amount: '100.00' });
    expect(sum(d.id)).toMatchObject({ classes: 1, amount: '0.00', without_rule: 1 });
    expect(res.body.total).toBe('1050.00');

    const csv = await call(server.app, 'GET', `/api/reports/export?kind=coach_pay&${range}`, { token: admin });
    expect(csv.status, csv.raw).toBe(200);
    expect(csv.raw).toContain('ID clase,Fecha,Clase,Ubicación,ID coach,Coach,Reservaciones,Asistentes,Valor de la clase,Tarifa,Pago');
    expect(csv.raw).toContain(`${k3},`);
    expect(csv.raw).toContain('"$35.00 por asistente (mín. $150.00, máx. $400.00)",150.00');
    expect(csv.raw).toContain('Sin tarifa');

    // B's account, made a coach and linked to B, reads only B's lines.
    const [coachAccount] = await createBookers(server.db, server.config.AUTH_SECRET, 1, { prefix: `coach-pago-${Date.now()}` });
    await server.db.update(customer).set({ role: 'coach' }).where(eq(customer.customer_id, coachAccount!.customer_id));
    await server.db.update(instructor).set({ customer_id: coachAccount!.customer_id }).where(eq(instructor.instructor_id, b.id));
    const own = await call(server.app, 'GET', `/api/coach/pay?${range}`, { token: coachAccount!.token });
    expect(own.status, own.raw).toBe(200);
    expect(own.body.instructor).toMatchObject({ instructor_id: b.id });
    expect(own.body.classes.map((l: { single_class_id: number }) => l.single_class_id)).toEqual([k3]);
    expect(own.body.total).toBe('150.00');
    expect((await call(server.app, 'GET', `/api/reports/coach_pay?${range}`, { token: coachAccount!.token })).status).toBe(403);
    const log = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'coach_pay_rule'))).orderBy(desc(audit_log.audit_log_id)).limit(1);
    expect(log[0]?.action).toBe('create');
  });

  it('refuses a rule without its amount or percentage, or with a cap under its floor, in Spanish; the same day again replaces the rule', async () => {
    const coach = coaches[0]!;
    const noAmount = await rule({ instructor_id: coach.id, effective_from: localDay(1), kind: 'per_class' });
    expect(noAmount.status).toBe(400);
    expect(noAmount.body.message).toContain('Escribe el monto que se paga.');
    const noPercent = await rule({ instructor_id: coach.id, effective_from: localDay(1), kind: 'revenue_share' });
    expect(noPercent.body.message).toContain('Escribe el porcentaje que se paga.');
    const upsideDown = await rule({ instructor_id: coach.id, effective_from: localDay(1), kind: 'per_attendee', amount: '30', minimum: '200', maximum: '100' });
    expect(upsideDown.body.message).toContain('El máximo no puede ser menor que el mínimo.');
    const unknown = await rule({ instructor_id: coach.id, effective_from: localDay(1), kind: 'per_class', amount: '100', bonus: '5' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('bonus');

    const first = await rule({ instructor_id: coach.id, effective_from: localDay(1), kind: 'per_class', amount: '100' });
    const again = await rule({ instructor_id: coach.id, effective_from: localDay(1), kind: 'per_attendee', amount: '40' });
    expect(again.body.rule.coach_pay_rule_id).toBe(first.body.rule.coach_pay_rule_id);
    const list = await call(server.app, 'GET', '/api/coach_pay_rules', { token: admin });
    const mine = list.body.rules.filter((r: { instructor_id: number; effective_from: string }) => r.instructor_id === coach.id && r.effective_from === localDay(1));
    expect(mine).toEqual([expect.objectContaining({ kind: 'per_attendee', amount: '40.00', text: '$40.00 por asistente' })]);

    const removed = await call(server.app, 'DELETE', `/api/coach_pay_rules/${first.body.rule.coach_pay_rule_id}`, { token: admin });
    expect(removed.status).toBe(200);
    const gone = await call(server.app, 'DELETE', `/api/coach_pay_rules/${first.body.rule.coach_pay_rule_id}`, { token: admin });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('No encontramos esa tarifa de coach.');
    const reception = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    expect((await call(server.app, 'GET', '/api/coach_pay_rules', { token: reception })).status).toBe(403);
  });
});
