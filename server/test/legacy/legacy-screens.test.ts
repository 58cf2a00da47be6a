import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Decision 094: what the previous panel's screens read (the nested paths its
 * render dereferences, where a missing one crashed the whole panel) and what
 * its forms send back (the record they read, with our read-only fields), as
 * the panel sends it: a bare token from its `admin.` origin. The call-by-call
 * replay is legacy-calls.test.ts; this file holds the screens' paths and the
 * forms' saves, on the real migrated database (both drivers).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

let server: TestServer;
let admin = '';
let recepcion = '';
let cliente = '';
let origin = '';

async function panel(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown): Promise<{ status: number; body: Any; raw: string }> {
  const res = await server.app.inject({ method, url, headers: { authorization: token, origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null, raw: res.body };
}

/** The studio's wall clock of an instant, as 'YYYY-MM-DDTHH:mm:ss'. */
function wallClock(iso: string, zone = 'America/Mexico_City'): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`;
}

/** The studio's dates of this week and the next (Monday to Sunday twice), as the panel's week asks for a range. */
function twoWeeks(): { start_date: string; end_date: string; days: string[] } {
  const today = wallClock(new Date().toISOString()).slice(0, 10);
  const start = new Date(`${today}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  const days = Array.from({ length: 14 }, (_, i) => new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10));
  return { start_date: days[0]!, end_date: days[13]!, days };
}

demoStudio(['admin', 'recepcion', 'cliente'], (s) => ({ server, tokens: { admin, recepcion, cliente } } = s));
beforeAll(async () => {
  const studio = new URL(server.config.PUBLIC_URL);
  origin = `${studio.protocol}//admin.${studio.hostname}`;
}, 120_000);

describe("the previous panel's screens read what they dereference", () => {
  it('the side menu: GET /users carries the person (user.customer.name) and user_id', async () => {
    const res = await panel('GET', '/api/users', admin);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ role: 'admin', user_id: res.body.user.customer_id, customer: { customer_id: res.body.user.customer_id, name: expect.any(String), last_name: expect.any(String), email: 'admin@estudio.demo' } });
  });

  it('Usuarios lists the staff accounts only, each with its person and its role in the panel’s words', async () => {
    const res = await panel('GET', '/api/users/admin/all?page=0', admin);
    expect(res.status, res.raw).toBe(200);
    const users = res.body.users as Any[];
    expect(users.map((u) => u.customer.email).sort()).toEqual(expect.arrayContaining(['admin@estudio.demo', 'recepcion@estudio.demo']));
    expect(users.some((u) => u.customer.email === 'cliente@estudio.demo')).toBe(false);
    for (const u of users) {
      expect(['admin', 'manager', 'coach']).toContain(u.role);
      expect(u).toMatchObject({ user_id: u.customer_id, customer: { customer_id: u.customer_id, name: expect.any(String) } });
    }
    expect(users.find((u) => u.customer.email === 'recepcion@estudio.demo')).toMatchObject({ role: 'manager', role_name: 'Recepción' });
  });

  it('Clases: every day of the range, classes at the studio’s wall time marked Z, not cancelled, each coach nested, its places taken, its type’s colour', async () => {
    const week = twoWeeks();
    const res = await panel('GET', `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`, admin);
    expect(res.status).toBe(200);
    expect((res.body.classes as Any[]).map((d) => d.date)).toEqual(week.days);
    const shown = (res.body.classes as Any[]).flatMap((d) => (d.details as Any[]).map((c) => ({ ...c, day: d.date })));
    expect(shown.length).toBeGreaterThan(0);
    const byId = new Map((res.body.single_classes as Any[]).map((c) => [c.single_class_id, c]));
    for (const c of shown) {
      const spec = byId.get(c.single_class_id);
      // moment(class_date).utc() shows the digits: the studio's own 07:00, not 13:00.
      expect(c.class_date).toBe(`${wallClock(spec.class_date)}.000Z`);
      expect(c.day).toBe(c.class_date.slice(0, 10));
      expect(c.class_date_utc).toBe(spec.class_date);
      expect(c.deletedAt).toBeNull();
      expect(c.class_reservations).toHaveLength(spec.reservation_count);
      expect(c.class_type.color).toMatch(/^#[0-9a-fA-F]{6}$/);
      for (const i of c.class_instructors as Any[]) expect(i.instructor).toMatchObject({ instructor_id: i.instructor_id, name: i.name, nick_name: i.nick_name });
    }
    // The spec's list keeps its instant and gets the colour too.
    expect([...byId.values()].every((c) => /^#[0-9a-fA-F]{6}$/.test(c.class_type.color))).toBe(true);
  });

  it('a cancelled class is left out of the week and reads deletedAt where the panel reads a class', async () => {
    const week = twoWeeks();
    const listed = (await panel('GET', `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`, admin)).body;
    const ahead = [...(listed.single_classes as Any[])].reverse().find((c) => c.cancelledAt === null && c.class_date > new Date(Date.now() + 86_400_000).toISOString());
    expect(ahead).toBeDefined();
    const cancelled = await panel('POST', `/api/single_class/${ahead.single_class_id}/cancel`, admin, {});
    expect(cancelled.status, cancelled.raw).toBe(200);
    const after = (await panel('GET', `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`, admin)).body;
    expect((after.classes as Any[]).flatMap((d) => d.details).some((c: Any) => c.single_class_id === ahead.single_class_id)).toBe(false);
    const one = await panel('GET', `/api/single_class/single/${ahead.single_class_id}`, admin);
    expect(one.body.clase.deletedAt).toBe(one.body.single_class.cancelledAt);
    expect(one.body.clase.deletedAt).not.toBeNull();
    // The edit form splits class_date at the space: the studio's wall clock.
    expect(one.body.clase.class_date).toBe(wallClock(one.body.single_class.class_date).replace('T', ' '));
  });

  it('Asistentes: the roster with each booker, the seat as text, phone and birthday; staff’s, not a customer’s', async () => {
    const week = twoWeeks();
    const listed = (await panel('GET', `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`, admin)).body;
    const booked = (listed.single_classes as Any[]).find((c) => c.reservation_count > 0 && c.cancelledAt === null);
    expect(booked).toBeDefined();
    const res = await panel('GET', `/api/single_class/admin/${booked.single_class_id}`, recepcion);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.clase).toMatchObject({ single_class_id: booked.single_class_id, deletedAt: null, class_type: { name: expect.any(String) }, location: { name: expect.any(String) } });
    // reservation_count counts places: a booking with a guest takes two.
    expect((res.body.clase.asistentes as Any[]).reduce((places, a) => places + (a.guest ? 2 : 1), 0)).toBe(booked.reservation_count);
    for (const a of res.body.clase.asistentes as Any[]) {
      expect(a.customer).toMatchObject({ name: expect.any(String), last_name: expect.any(String) });
      expect(a.spot === null || typeof a.spot === 'string').toBe(true);
      expect(a).toHaveProperty('phone');
      expect(a).toHaveProperty('birthday');
    }
    const asCustomer = await panel('GET', `/api/single_class/admin/${booked.single_class_id}`, cliente);
    expect(asCustomer.status).toBe(403);
  });

  it('the customer’s screen: purchases with their package, charges, one credit entry per class, reservations with nested coaches', async () => {
    const [mariana] = await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    const res = await panel('GET', `/api/customer/admin/${mariana!.customer_id}`, admin);
    expect(res.status).toBe(200);
    const c = res.body.customer;
    expect(c.purchases.length).toBeGreaterThan(0);
    for (const p of c.purchases as Any[]) {
      expect(p.class_package).toMatchObject({ title: expect.any(String) });
      expect(p.createdAt).toBe(`${wallClock(p.created_at_utc)}.000Z`);
    }
    expect(c.invoices.length).toBeGreaterThan(0);
    for (const i of c.invoices as Any[]) expect(i).toMatchObject({ purchase_id: expect.any(Number), class_package: { title: expect.any(String) } });
    // The panel counts entries: Mariana's 5 credits are 5 entries (it showed 1 for a row of 5).
    const total = (res.body.credits.available_classes as Any[]).reduce((sum, r) => sum + r.available_classes, 0);
    expect(total).toBe(5);
    expect(c.available_classes).toHaveLength(5);
    for (const r of c.class_reservations as Any[]) if (r.single_class) expect(r.single_class.class_date).toMatch(/\.000Z$/);
  });

  it('Órdenes: each purchase with its package, the customer with her charges, and how it was paid', async () => {
    const week = twoWeeks();
    const from = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
    const res = await panel('GET', `/api/purchases/admin/all?start_date=${from}&end_date=${week.end_date}&page=1`, admin);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.purchases.length).toBeGreaterThan(0);
    for (const p of res.body.purchases as Any[]) {
      expect(p).toMatchObject({ class_package: { title: expect.any(String) }, customer: { name: expect.any(String), last_name: expect.any(String), invoices: expect.any(Array) }, payment_method: { name: expect.any(String) } });
    }
    const refused = await panel('GET', `/api/purchases/admin/all?start_date=${from}&end_date=${week.end_date}&status=todas`, admin);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'legacy/order-status', field: 'status' });
  });

  it('Coaches: user is null for a coach without an account, the account’s person for the owner, and the coach alone for Recepción and a visitor', async () => {
    const coaches = (await panel('GET', '/api/instructors/admin/all', admin)).body.instructors as Any[];
    const [first, second] = coaches;
    expect((await panel('GET', `/api/instructors/${first.instructor_id}`, admin)).body.instructor).toMatchObject({ user: null, user_id: null });
    const linked = await panel('PUT', `/api/instructors/${second.instructor_id}`, admin, { customer_email: 'ilimitado@estudio.demo' });
    expect(linked.status, linked.raw).toBe(200);
    const owner = await panel('GET', `/api/instructors/${second.instructor_id}`, admin);
    expect(owner.status, owner.raw).toBe(200);
    expect(owner.body.instructor).toMatchObject({ user_id: expect.any(Number), user: { customer: { email: 'ilimitado@estudio.demo' } } });
    const reception = await panel('GET', `/api/instructors/${second.instructor_id}`, recepcion);
    expect(reception.status, reception.raw).toBe(200);
    expect(reception.body.instructor).toMatchObject({ user: null, user_id: null });
    const visitor = await server.app.inject({ method: 'GET', url: `/api/instructors/${second.instructor_id}` });
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json().instructor).toMatchObject({ user: null });
    expect(visitor.json().instructor).not.toHaveProperty('account_email');
  });

  it('the analytics in the shapes its charts read', async () => {
    const from = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date().toISOString().slice(0, 10);
    const income = (await panel('GET', `/api/analytics/income?start_date=${from}&end_date=${to}`, admin)).body;
    expect(income.income).toEqual({ total: income.total, payments: income.count });
    for (const m of income.payment_methods as Any[]) expect(m).toMatchObject({ name: expect.any(String), payments: expect.any(Number), total: expect.any(String) });
    const purchases = (await panel('GET', `/api/analytics/purchases?start_date=${from}&end_date=${to}`, admin)).body;
    for (const p of purchases.purchases as Any[]) expect(p).toMatchObject({ title: expect.any(String), purchases: expect.any(Number), total: expect.any(Number) });
    const reservations = (await panel('GET', `/api/analytics/reservations?start_date=${from}&end_date=${to}`, admin)).body;
    expect(Array.isArray(reservations.capacity)).toBe(true);
    for (const h of reservations.capacity as Any[]) expect(Object.keys(h).sort()).toEqual(['attended', 'bookings', 'capacity', 'class_hour', 'single_classes']);
    const monthly = (await panel('GET', '/api/analytics/monthly', admin)).body;
    for (const m of monthly.purchases as Any[]) expect(m).toMatchObject({ month: expect.any(Number), purchases: expect.any(Number), total: expect.any(Number) });
    for (const m of monthly.reservations as Any[]) expect(m).toMatchObject({ month: expect.any(Number), booked: expect.any(Number) });
    expect([...monthly.purchases, ...monthly.reservations].every((m: Any) => m.month >= 1 && m.month <= 12)).toBe(true);
  });

  it('lists read their fields: birthdate of every customer row, a discount’s expiration_date, a location’s description', async () => {
    const customers = (await panel('GET', '/api/customer/admin/all?page=1', admin)).body.customers as Any[];
    for (const c of customers) {
      expect(c).toHaveProperty('birthdate');
      expect(c.value).toMatch(/^\d+\.\d{2}$/);
    }
    const discounts = (await panel('GET', '/api/discounts/admin/all', admin)).body.discounts as Any[];
    for (const d of discounts) expect(d).toHaveProperty('expiration_date');
    const locations = (await panel('GET', '/api/locations', admin)).body.locations as Any[];
    for (const l of locations) expect(l).toHaveProperty('description');
  });
});

describe('the screens each list reads, row by row', () => {
  /** Every path of `paths` (dot-separated) is there on `row`: a value, or null where the screen tests for null. */
  const expectPaths = (row: Any, paths: string[]) => {
    for (const path of paths) {
      const value = path.split('.').reduce((at: Any, key) => (at === null || at === undefined ? undefined : at[key]), row);
      expect(value, `${path} of ${JSON.stringify(row).slice(0, 200)}`).not.toBeUndefined();
    }
  };

  it('Asistentes (/asistentes): the range’s classes, each at the studio’s wall time, its coaches nested, its place, capacity and places taken', async () => {
    const week = twoWeeks();
    const res = await panel('GET', `/api/single_class/admin?start_date=${week.start_date}&end_date=${week.end_date}`, recepcion);
    expect(res.status, res.raw).toBe(200);
    const clases = res.body.clases as Any[];
    expect(clases.length).toBeGreaterThan(0);
    for (const c of clases) {
      expectPaths(c, ['single_class_id', 'class_date', 'location.name', 'capacity', 'reservations', 'class_instructors']);
      expect(c.class_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
      expect(typeof c.reservations).toBe('number');
      for (const i of c.class_instructors as Any[]) expectPaths(i, ['instructor.nick_name', 'instructor.name', 'instructor.last_name']);
    }
  });

  it('Categorías and its form: each category’s name, description and handle; the form’s switches; the record read back saves', async () => {
    const list = await panel('GET', '/api/class_categories', admin);
    expect(list.status, list.raw).toBe(200);
    const categories = list.body.class_categories as Any[];
    expect(categories.length).toBeGreaterThan(0);
    for (const c of categories) expectPaths(c, ['class_category_id', 'name', 'description', 'handle']);
    const read = await panel('GET', `/api/class_categories/${categories[0].class_category_id}`, admin);
    expect(read.status, read.raw).toBe(200);
    expectPaths(read.body.class_category, ['available', 'name', 'description', 'handle', 'is_free']);
    const saved = await panel('PUT', '/api/class_categories', admin, { ...read.body.class_category, description: 'Descripción desde el panel' });
    expect(saved.status, saved.raw).toBe(200);
    expect((await panel('GET', `/api/class_categories/${categories[0].class_category_id}`, admin)).body.class_category.description).toBe('Descripción desde el panel');
    // Turned on, «¿Es gratis?» is refused by name: Estudio has no free categories.
    const free = await panel('PUT', '/api/class_categories', admin, { ...read.body.class_category, is_free: true });
    expect(free.status).toBe(400);
    expect(free.body.field).toBe('is_free');
    expect((await panel('GET', '/api/class_categories/available', admin)).body.class_categories.every((c: Any) => c.is_free === false)).toBe(true);
  });

  it('Ubicaciones, Tipos de clase and Paquetes: what each row shows', async () => {
    const locations = await panel('GET', '/api/locations', admin);
    for (const l of locations.body.locations as Any[]) expectPaths(l, ['location_id', 'name', 'address', 'description']);
    const types = await panel('GET', '/api/class_types', admin);
    for (const t of types.body.class_types as Any[]) expectPaths(t, ['class_type_id', 'name', 'icon', 'color', 'mapa', 'class_category_id']);
    const packages = await panel('GET', '/api/class_packages/admin/all', admin);
    expect(packages.status, packages.raw).toBe(200);
    expect((packages.body.packages as Any[]).length).toBeGreaterThan(0);
    for (const p of packages.body.packages as Any[]) {
      expectPaths(p, ['class_package_id', 'title', 'available', 'price', 'sale_price']);
      expect(Number.isNaN(Number.parseFloat(p.price))).toBe(false);
    }
  });

  it('Clientes: each row’s name, e-mail, phone, birthday and what she has paid the studio (value, for the owner)', async () => {
    const res = await panel('GET', '/api/customer/admin/all?page=1', admin);
    expect(res.status, res.raw).toBe(200);
    const customers = res.body.customers as Any[];
    expect(customers.length).toBeGreaterThan(0);
    for (const c of customers) {
      expectPaths(c, ['customer_id', 'name', 'last_name', 'email', 'phone', 'birthdate', 'value']);
      expect(Number.isNaN(Number.parseFloat(c.value))).toBe(false);
    }
  });

  it('Home: the packages and those on the home page carry package_class_id, the id the screen compares and removes by', async () => {
    const all = await panel('GET', '/api/class_packages', admin);
    for (const p of all.body.packages as Any[]) expect(p.package_class_id).toBe(p.class_package_id);
    const home = await panel('GET', '/api/class_packages/presenciales/home', admin);
    expect(home.status, home.raw).toBe(200);
    for (const p of home.body.paquetes as Any[]) expectPaths(p, ['package_class_id', 'title']);
  });

  it('Inscritos and Instructores: the three lists of customers as Clientes shows them, and each coach’s booked and attended', async () => {
    const from = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date().toISOString().slice(0, 10);
    const signups = await panel('GET', `/api/analytics/customers?start_date=${from}&end_date=${to}`, admin);
    expect(signups.status, signups.raw).toBe(200);
    for (const list of ['nuevos', 'activos', 'cancelados']) {
      expect(Array.isArray(signups.body[list]), list).toBe(true);
      for (const c of signups.body[list] as Any[]) expectPaths(c, ['customer_id', 'name', 'last_name', 'email', 'phone', 'birthdate', 'value']);
    }
    expect((signups.body.activos as Any[]).length).toBeGreaterThan(0);
    const coaches = await panel('GET', `/api/analytics/instructors?start_date=${from}&end_date=${to}`, admin);
    expect(coaches.status, coaches.raw).toBe(200);
    expect((coaches.body.result as Any[]).length).toBeGreaterThan(0);
    for (const i of coaches.body.result as Any[]) {
      expectPaths(i, ['name', 'booked', 'attended']);
      expect(typeof i.booked).toBe('number');
    }
  });

  it('Especiales and an event’s attendees: each event with its class, limit and sales; the event’s class, its roster and, for its seat map, the seats taken', async () => {
    const list = await panel('GET', '/api/class_packages/admin/especiales', admin);
    expect(list.status, list.raw).toBe(200);
    const events = list.body.packages as Any[];
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expectPaths(e, ['class_package_id', 'title', 'customer_limit', 'single_class']);
      expect(Array.isArray(e.purchases)).toBe(true);
    }
    const withClass = events.find((e) => e.single_class !== null);
    expect(withClass, 'the demo has an event with its class').toBeDefined();
    const res = await panel('GET', `/api/class_packages/especiales/${withClass.class_package_id}/asistentes`, admin);
    expect(res.status, res.raw).toBe(200);
    expectPaths(res.body.class_package, [
      'title',
      'single_class.single_class_id',
      'single_class.class_date',
      'single_class.description',
      'single_class.class_type.name',
      'single_class.class_type.spot_map',
      'single_class.location.name',
    ]);
    expect(Array.isArray(res.body.class_package.single_class.class_reservations)).toBe(true);
    // The seat map's taken seats come from the class as the screen holds it (single_class.asistentes).
    expectPaths(res.body.single_class, ['class_type.spot_map']);
    expect(Array.isArray(res.body.single_class.asistentes)).toBe(true);
    expect(Array.isArray(res.body.asistentes)).toBe(true);
  });

  it('Circuitos: an empty list, which the screen shows as none (Estudio has no circuits)', async () => {
    const res = await panel('GET', '/api/circuits', admin);
    expect(res.status).toBe(200);
    expect(res.body.circuits).toEqual([]);
  });
});

describe("the previous panel's forms save what they read back", () => {
  it('Editar cliente: the whole record read, with its read-only fields, saves the change; a field nobody answers is still refused by name', async () => {
    const [mariana] = await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    const read = (await panel('GET', `/api/customer/admin/${mariana!.customer_id}`, admin)).body.customer;
    const saved = await panel('PUT', '/api/customer', admin, { ...read, last_name: 'López Editada' });
    expect(saved.status, saved.raw).toBe(200);
    expect(saved.body.customer.last_name).toBe('López Editada');
    const [row] = await server.db.select().from(customer).where(eq(customer.customer_id, mariana!.customer_id));
    expect(row!.last_name).toBe('López Editada');
    const refused = await panel('PUT', '/api/customer', admin, { ...read, color_favorito: 'azul' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation/unknown-field', field: 'color_favorito' });
  });

  it('Agregar cliente: her Instagram, birthday and how she heard of the studio are stored with her', async () => {
    const res = await panel('POST', '/api/customer', admin, {
      customer_id: 'nuevo',
      name: 'Paula',
      last_name: 'Panel',
      email: 'paula.panel@correo.mx',
      phone: '5510203040',
      birthdate: '1994-05-06',
      instagram: 'paula.mueve',
      signup_reason: 'Instagram',
    });
    expect(res.status, res.raw).toBe(200);
    const [row] = await server.db.select().from(customer).where(eq(customer.email, 'paula.panel@correo.mx'));
    expect(row).toMatchObject({ instagram: 'paula.mueve', birthdate: '1994-05-06', signup_reason: 'Instagram' });
  });

  it('Editar paquete: the package read (package_id, bookkeeping) saves; its customer_limit is our people_limit', async () => {
    const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
    const read = (await panel('GET', `/api/class_packages/admin/${pkg!.class_package_id}`, admin)).body.class_package;
    expect(read).toHaveProperty('package_id');
    const saved = await panel('PUT', '/api/class_packages', admin, { ...read, customer_limit: 40 });
    expect(saved.status, saved.raw).toBe(200);
    const [row] = await server.db.select().from(class_package).where(eq(class_package.class_package_id, pkg!.class_package_id));
    expect(row!.people_limit).toBe(40);
    expect((await panel('GET', `/api/class_packages/admin/${pkg!.class_package_id}`, admin)).body.class_package).toMatchObject({ customer_limit: 40, people_limit: 40 });
  });

  it('Descuentos: a code read back (uses, dates as days, limit_per_customer) keeps its stored dates; its own names create one; an empty limit is none', async () => {
    const created = await panel('POST', '/api/discounts', admin, {
      discount_id: 'nuevo',
      title: '',
      code: 'PANELFORM',
      description: 'Del formulario',
      amount: '10',
      isPercent: true,
      available: true,
      limit_per_customer: '',
      max_uses: null,
      first_invoice_only: false,
      start_date: '2026-01-01',
      expiration_date: null,
    });
    expect(created.status, created.raw).toBe(200);
    const [stored] = await server.db.select().from(discount).where(eq(discount.code, 'PANELFORM'));
    expect(stored).toMatchObject({ is_percent: true, max_uses_per_customer: null });
    const read = ((await panel('GET', '/api/discounts/admin/all', admin)).body.discounts as Any[]).find((d) => d.code === 'PANELFORM');
    expect(read).toMatchObject({ start_date: '2026-01-01', expiration_date: null, limit_per_customer: null, uses: expect.any(Number) });
    const saved = await panel('PUT', '/api/discounts', admin, { ...read, description: 'Editado', limit_per_customer: 2 });
    expect(saved.status, saved.raw).toBe(200);
    const [after] = await server.db.select().from(discount).where(eq(discount.code, 'PANELFORM'));
    expect(after).toMatchObject({ description: 'Editado', max_uses_per_customer: 2 });
    expect(after!.starts_at?.toISOString()).toBe(stored!.starts_at?.toISOString());
  });

  it('Coaches: first_name and birthday are its names of name and birthdate', async () => {
    const res = await panel('POST', '/api/instructors', admin, { instructor_id: 'nueva', first_name: 'Lucía', last_name: 'Panel', nick_name: '', birthday: '1990-03-04', idAdjunto: null, user_id: null, file: {} });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.instructor).toMatchObject({ name: 'Lucía', last_name: 'Panel', birthdate: '1990-03-04' });
  });

  it('Tipos de clase: a colour is stored and painted on the schedule; none sent is the dark grey; a bad one is refused in Spanish', async () => {
    const created = await panel('POST', '/api/class_types', admin, { class_type_id: 'nuevo', name: 'Tipo con color', description: 'x', icon: '', spot_map: null, color: '#c92a2a' });
    expect(created.status, created.raw).toBe(200);
    expect(created.body.class_type.color).toBe('#c92a2a');
    const plain = await panel('POST', '/api/class_types', admin, { class_type_id: 'nuevo', name: 'Tipo sin color', description: 'x', icon: '', spot_map: null, color: '' });
    expect(plain.status, plain.raw).toBe(200);
    const [row] = await server.db.select().from(class_type).where(eq(class_type.class_type_id, plain.body.class_type.class_type_id));
    expect(row!.color).toBe('#495057');
    const bad = await panel('PUT', '/api/class_types', admin, { class_type_id: created.body.class_type.class_type_id, color: 'rojo' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('#RRGGBB');
    const listed = (await panel('GET', '/api/class_types', admin)).body.class_types as Any[];
    expect(listed.find((t) => t.class_type_id === created.body.class_type.class_type_id)).toMatchObject({ color: '#c92a2a', mapa: null });
  });

  it('the schedule’s edit: the class read back saves, its coach kept', async () => {
    const week = twoWeeks();
    const listed = (await panel('GET', `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`, admin)).body;
    const ahead = (listed.single_classes as Any[]).find((c) => c.cancelledAt === null && c.class_date > new Date(Date.now() + 2 * 86_400_000).toISOString() && c.class_instructors.length > 0);
    expect(ahead).toBeDefined();
    const read = (await panel('GET', `/api/single_class/single/${ahead.single_class_id}`, admin)).body.clase;
    const saved = await panel('PUT', '/api/single_class', admin, { ...read, description: 'Editada desde el panel', instructor_id: read.class_instructors[0].instructor_id });
    expect(saved.status, saved.raw).toBe(200);
    const after = (await panel('GET', `/api/single_class/single/${ahead.single_class_id}`, admin)).body.single_class;
    expect(after.description).toBe('Editada desde el panel');
    expect(after.class_date).toBe(ahead.class_date);
    expect(after.class_instructors.map((i: Any) => i.instructor_id)).toEqual(ahead.class_instructors.map((i: Any) => i.instructor_id));
  });

  it('Agregar clase at the time of another class saves it (the panel shows nothing when a class save fails), and the activity keeps the confirmation', async () => {
    const week = twoWeeks();
    const listed = (await panel('GET', `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`, admin)).body;
    const taken = (listed.classes as Any[]).flatMap((d) => d.details).find((c: Any) => c.class_date_utc > new Date(Date.now() + 3 * 86_400_000).toISOString());
    expect(taken).toBeDefined();
    // The form as the panel sends it: the wall time of the class already there, in the same place.
    const wall = String(taken.class_date).slice(0, 16).replace('T', ' ');
    const body = { class_instructor_id: 'nueva', description: 'Clase doble desde el panel', instructor_id: '', location_id: taken.location_id, class_type_id: taken.class_type_id, capacity: '10', class_date: wall, is_virtual_class: false, is_special_event: false };
    const saved = await panel('POST', '/api/single_class', admin, body);
    expect(saved.status, saved.raw).toBe(200);
    const day = (await panel('GET', `/api/single_class?start_date=${wall.slice(0, 10)}&end_date=${wall.slice(0, 10)}`, admin)).body.single_classes as Any[];
    expect(day.filter((c) => c.class_date === taken.class_date_utc).map((c) => c.description)).toContain('Clase doble desde el panel');
  });

  it('a class in a room: the panel’s seat map (class_type.spot_map where it reads a class) is the room’s', async () => {
    const [place] = (await panel('GET', '/api/locations', admin)).body.locations as Any[];
    const room = await panel('POST', '/api/rooms', admin, { location_id: place.location_id, name: 'Salón del panel', capacity: 6, spot_map: '3,3' });
    expect(room.status, room.raw).toBe(200);
    const day = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    const types = (await panel('GET', '/api/class_types', admin)).body.class_types as Any[];
    const made = await panel('POST', '/api/single_class', admin, { date: day, time: '23:10', duration_minutes: 30, capacity: 6, class_type_id: types[0].class_type_id, location_id: place.location_id, room_id: room.body.room.room_id, instructor_ids: [], allow_overlap: true });
    expect(made.status, made.raw).toBe(200);
    const id = made.body.single_class.single_class_id;
    const { clase } = (await panel('GET', `/api/single_class/admin/${id}`, admin)).body;
    expect(clase.class_type.spot_map).toBe('3,3');
    expect((await panel('GET', `/api/single_class/single/${id}`, admin)).body.clase.class_type.spot_map).toBe('3,3');
  });

  it('Eliminar on a class’s screen sends its class_id: the class read there carries it, and the delete cancels that class', async () => {
    const week = twoWeeks();
    const listed = (await panel('GET', `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`, admin)).body;
    const ahead = (listed.single_classes as Any[]).find((c) => c.cancelledAt === null && c.class_date > new Date(Date.now() + 2 * 86_400_000).toISOString() && c.reservation_count > 0);
    expect(ahead).toBeDefined();
    const { clase } = (await panel('GET', `/api/single_class/admin/${ahead.single_class_id}`, admin)).body;
    expect(clase.class_id).toBe(ahead.single_class_id);
    const deleted = await panel('DELETE', `/api/single_class/${clase.class_id}`, admin);
    expect(deleted.status, deleted.raw).toBe(200);
    expect((await panel('GET', `/api/single_class/admin/${ahead.single_class_id}`, admin)).body.clase.deletedAt).not.toBeNull();
  });
});
