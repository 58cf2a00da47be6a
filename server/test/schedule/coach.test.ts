import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { instructor } from '@estudio/db/schema/catalogue';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Decision 045, the coach role, as the owner and the coach live it: the owner
 * promotes an account to Coach and links it to Valeria (Coaches › Cuenta del
 * coach); the coach reads only Valeria's classes and their rosters (names,
 * seats, attendance, no contact data), another coach's class is 404 in
 * Spanish, and every desk and admin route stays closed (authz-matrix walks
 * them all). PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */

let server: TestServer;
let admin: string;
let coachToken: string;
let coachId: number;
let valeriaId: number;
let otherInstructorId: number;
const coachEmail = 'valeria.coach@estudio.demo';
const zone = 'America/Mexico_City';
const day = (offset: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(Date.now() + offset * 86_400_000));
const range = `start_date=${day(-1)}&end_date=${day(13)}`;

demoStudio(['admin'], (s) => ({ server, tokens: { admin } } = s));
beforeAll(async () => {
  const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email: coachEmail, password: 'Valeria2024!' } });
  expect(identity.status, identity.raw).toBe(200);
  const pages = await call(server.app, 'GET', '/api/pages');
  const required = (pages.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
  const signup = await call(server.app, 'POST', '/api/customer/signup', {
    token: identity.body.idToken,
    body: { name: 'Valeria', last_name: 'Montes', email: coachEmail, phone: '5598761234', birthdate: '1990-04-02', accepted_page_ids: required },
  });
  expect(signup.status, signup.raw).toBe(200);
  coachId = signup.body.customer.customer_id;
  coachToken = (await login(server.app, coachEmail, 'Valeria2024!')).idToken;
  const coaches = await server.db.select({ id: instructor.instructor_id, name: instructor.name }).from(instructor).orderBy(instructor.instructor_id);
  valeriaId = coaches.find((c) => c.name === 'Valeria')?.id ?? -1;
  otherInstructorId = coaches.find((c) => c.name !== 'Valeria')?.id ?? -1;
}, 120_000);

/** Upcoming classes of one instructor, with how many live reservations each has. */
async function classesOf(instructorId: number) {
  return server.db
    .select({ id: single_class.single_class_id, booked: sql<number>`(select count(*)::int from ${class_reservation} r where r.single_class_id = ${single_class.single_class_id} and r.deleted_at is null)` })
    .from(single_class)
    .innerJoin(single_class_instructor, eq(single_class_instructor.single_class_id, single_class.single_class_id))
    .where(and(eq(single_class_instructor.instructor_id, instructorId), gte(single_class.class_date, new Date(Date.now() - 86_400_000)), isNull(single_class.cancelledAt)))
    .orderBy(single_class.class_date);
}

describe('before the owner makes it a coach', () => {
  it('a customer account is refused the coach routes with 403 in Spanish', async () => {
    const res = await call(server.app, 'GET', `/api/coach/single_class?${range}`, { token: coachToken });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden', message: 'No tienes permiso para realizar esta acción.' });
  });
});

describe('the owner promotes the account to Coach and links it', () => {
  it('a Coach not linked yet has no classes and is told so by the answer (instructor null)', async () => {
    const promoted = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: coachId, name: 'Valeria', last_name: 'Montes', role: 'coach' } });
    expect(promoted.status, promoted.raw).toBe(200);
    expect(promoted.body.customer.role).toBe('coach');
    const me = await call(server.app, 'GET', '/api/users', { token: coachToken });
    expect(me.body.user).toMatchObject({ role: 'coach', role_name: 'Coach' });
    const res = await call(server.app, 'GET', `/api/coach/single_class?${range}`, { token: coachToken });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toEqual({ instructor: null, single_classes: [] });
  });

  it('Cuenta del coach links the account by e-mail; the answer is the coach as stored, and the public list does not show the e-mail', async () => {
    const linked = await call(server.app, 'PUT', `/api/instructors/${valeriaId}`, { token: admin, body: { customer_email: ` ${coachEmail.toUpperCase()} ` } });
    expect(linked.status, linked.raw).toBe(200);
    expect(linked.body.instructor).toMatchObject({ instructor_id: valeriaId, account_email: coachEmail });
    const [row] = await server.db.select({ customer_id: instructor.customer_id }).from(instructor).where(eq(instructor.instructor_id, valeriaId));
    expect(row?.customer_id).toBe(coachId);
    const publicList = await call(server.app, 'GET', '/api/instructors');
    expect(publicList.raw).not.toContain(coachEmail);
    const adminList = await call(server.app, 'GET', '/api/instructors', { token: admin });
    expect(adminList.body.instructors.find((i: { instructor_id: number }) => i.instructor_id === valeriaId).account_email).toBe(coachEmail);
  });

  it('an e-mail with no account is 404, an account already linked to another coach is 409, both in Spanish', async () => {
    const unknown = await call(server.app, 'PUT', `/api/instructors/${otherInstructorId}`, { token: admin, body: { customer_email: 'nadie@estudio.demo' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'instructor/account-not-found', message: expect.stringContaining('No encontramos una cuenta con ese correo') });
    const taken = await call(server.app, 'PUT', `/api/instructors/${otherInstructorId}`, { token: admin, body: { customer_email: coachEmail } });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'instructor/account-taken', message: 'Esa cuenta ya está vinculada a otro coach.' });
    // The database says so too, whatever the service checked first (a race between two owners).
    await expect(server.db.update(instructor).set({ customer_id: coachId }).where(eq(instructor.instructor_id, otherInstructorId))).rejects.toThrow();
  });
});

describe('the coach reads its own classes and rosters, nothing else', () => {
  it('lists exactly the classes Valeria teaches in the range', async () => {
    const res = await call(server.app, 'GET', `/api/coach/single_class?${range}`, { token: coachToken });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.instructor).toEqual({ instructor_id: valeriaId, name: 'Valeria Montes' });
    const publicWeek = await call(server.app, 'GET', `/api/single_class?${range}&instructor_id=${valeriaId}`);
    const ids = (res.body.single_classes as { single_class_id: number; coaches: string[] }[]).map((c) => c.single_class_id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual((publicWeek.body.single_classes as { single_class_id: number }[]).map((c) => c.single_class_id));
    for (const c of res.body.single_classes as { coaches: string[] }[]) expect(c.coaches).toContain('Valeria Montes');
  });

  it('a roster of its class: names, seats and attendance of the live reservations, no e-mail or phone', async () => {
    const mine = (await classesOf(valeriaId)).find((c) => c.booked > 0);
    if (!mine) throw new Error('el seed no tiene una clase de Valeria con reservaciones');
    const res = await call(server.app, 'GET', `/api/coach/single_class/${mine.id}/roster`, { token: coachToken });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.single_class.single_class_id).toBe(mine.id);
    expect(res.body.class_reservations).toHaveLength(mine.booked);
    for (const r of res.body.class_reservations) expect(Object.keys(r).sort()).toEqual(['attend', 'guest', 'health', 'last_name', 'name', 'spot']);
    expect(res.raw).not.toMatch(/@|"phone"|"email"/);
    const trpc = await call(server.app, 'GET', `/trpc/coach.roster?input=${encodeURIComponent(JSON.stringify({ id: mine.id }))}`, { token: coachToken });
    expect(trpc.body.result.data.class_reservations).toHaveLength(mine.booked);
  });

  it("its class's roster carries what a customer told the studio her coach should know (health, with her consent); no other answer", async () => {
    const mariana = (await login(server.app, 'cliente@estudio.demo')).idToken;
    const start = day(1);
    const week = await call(server.app, 'GET', `/api/single_class?start_date=${start}&end_date=${day(13)}&instructor_id=${valeriaId}`, { token: mariana });
    const open = (week.body.single_classes as { single_class_id: number; capacity: number; reservation_count: number; class_reservations: unknown[]; class_package_id: number | null }[]).find(
      (c) => c.reservation_count < c.capacity && c.class_reservations.length === 0 && c.class_package_id === null,
    );
    if (!open) throw new Error('el seed no tiene una clase de Valeria con lugar');
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: mariana, body: { single_class_id: open.single_class_id } });
    expect(booked.status, booked.raw).toBe(200);
    // The desk's notes on her: the health one is for her coach too; an alert about money is not.
    const marianaId = booked.body.class_reservation.customer_id as number;
    for (const [kind, body] of [['health', 'Operada del hombro izquierdo en mayo.'], ['alert', 'Debe $200.']] as const) {
      const note = await call(server.app, 'POST', '/api/customer/notes', { token: admin, body: { customer_id: marianaId, kind, body } });
      expect(note.status, note.raw).toBe(200);
    }
    const res = await call(server.app, 'GET', `/api/coach/single_class/${open.single_class_id}/roster`, { token: coachToken });
    const row = (res.body.class_reservations as { name: string; last_name: string; health: { label: string; text: string }[] }[]).find((r) => r.name === 'Mariana');
    expect(row?.health).toEqual([
      { label: 'Lesiones o condiciones médicas que tu coach deba conocer', text: 'Lesión antigua de rodilla derecha: evito saltos.' },
      { label: 'Nota de salud del estudio', text: 'Operada del hombro izquierdo en mayo.' },
    ]);
    // Her emergency contact is for the desk, not for the coach; nor is what she owes.
    expect(res.raw).not.toContain('Jorge López');
    expect(res.raw).not.toContain('Debe $200');
    await call(server.app, 'DELETE', `/api/class_reservations/${booked.body.class_reservation.class_reservation_id}`, { token: mariana });
  });

  it("another coach's class and a class that does not exist get the same 404 in Spanish", async () => {
    const valerias = new Set((await classesOf(valeriaId)).map((c) => c.id));
    const theirs = (await classesOf(otherInstructorId)).find((c) => !valerias.has(c.id));
    if (!theirs) throw new Error('el seed no tiene una clase de otro coach');
    const other = await call(server.app, 'GET', `/api/coach/single_class/${theirs.id}/roster`, { token: coachToken });
    const missing = await call(server.app, 'GET', '/api/coach/single_class/2147483647/roster', { token: coachToken });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(missing.body);
    expect(other.body).toMatchObject({ code: 'coach/class-not-found', message: 'No encontramos esta clase entre las tuyas.' });
  });

  it('the desk and admin routes stay closed (403): no customers, no money, no booking for others, no check-in', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/customer/admin/all', undefined],
      ['GET', '/api/purchases/admin/all', undefined],
      ['POST', '/api/single_class/attend', { class_reservation_id: 1 }],
    ] as const) {
      const res = await call(server.app, method, url, { token: coachToken, ...(body ? { body } : {}) });
      expect([403, 404], `${method} ${url} ${res.raw}`).toContain(res.status);
      if (res.status === 403) expect(res.body.code).toBe('forbidden');
    }
    // The staff's reader of a roster answers a coach as the customer it also is: its own reservations only (none).
    const mine = (await classesOf(valeriaId)).find((c) => c.booked > 0);
    const search = await call(server.app, 'GET', '/trpc/reservations.search?input=' + encodeURIComponent(JSON.stringify({ single_class_id: mine?.id ?? 1 })), { token: coachToken });
    expect(search.body.result.data.class_reservations, search.raw).toEqual([]);
  });

  it('unlinked (Cuenta del coach emptied), the coach reads no class', async () => {
    const unlinked = await call(server.app, 'PUT', `/api/instructors/${valeriaId}`, { token: admin, body: { customer_email: null } });
    expect(unlinked.body.instructor.account_email).toBeNull();
    const res = await call(server.app, 'GET', `/api/coach/single_class?${range}`, { token: coachToken });
    expect(res.body).toEqual({ instructor: null, single_classes: [] });
  });
});

describe("the previous panel's coach", () => {
  it("PUT /users with role 'coach' makes the account our Coach (it was Recepción before decision 045)", async () => {
    const res = await call(server.app, 'PUT', '/api/users', { token: admin, body: { user_id: coachId, role: 'coach' } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.user.role).toBe('coach');
    const manager = await call(server.app, 'PUT', '/api/users', { token: admin, body: { user_id: coachId, role: 'manager' } });
    // Stored as our Recepción; answered in the panel's own word for it.
    expect(manager.body.customer.role).toBe('staff');
    expect(manager.body.user.role).toBe('manager');
  });
});
