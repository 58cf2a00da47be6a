import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { describe, expect, it } from 'vitest';
import { fromCents, toCents } from '@estudio/core';
import { class_type, instructor } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import { eq } from 'drizzle-orm';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The reports against the demo seed: the server answers with SQL aggregates;
 * the test reads the raw rows and counts them itself, row by row.
 */
const tz = 'America/Mexico_City';
let server: TestServer;
let admin: string;
let cliente: string;
demoStudio(['admin', 'cliente'], (s) => ({ server, tokens: { admin, cliente } } = s));

const localDay = (days: number) => dayjs().tz(tz).add(days, 'day').format('YYYY-MM-DD');
const inRange = (d: Date, start: string, end: string) => {
  const local = dayjs(d).tz(tz).format('YYYY-MM-DD');
  return local >= start && local <= end;
};
const round1 = (n: number) => Math.round(n * 10) / 10;

interface Tally {
  classes: number;
  capacity: number;
  reservations: number;
  attended: number;
  no_shows: number;
  places: number;
}

describe('GET /api/reports/attendance', () => {
  it('matches the seed counted class by class, by class type and by coach', async () => {
    const start = localDay(-30);
    const end = localDay(7);
    const res = await call(server.app, 'GET', `/api/reports/attendance?start_date=${start}&end_date=${end}`, { token: admin });
    expect(res.status).toBe(200);
    const now = Date.now();

    const classes = (await server.db.select().from(single_class)).filter((c) => c.cancelledAt === null && inRange(c.class_date, start, end));
    const reservations = (await server.db.select().from(class_reservation)).filter((r) => r.deletedAt === null);
    const links = await server.db.select().from(single_class_instructor);
    const types = await server.db.select().from(class_type);
    const coaches = await server.db.select().from(instructor);
    const empty = (): Tally => ({ classes: 0, capacity: 0, reservations: 0, attended: 0, no_shows: 0, places: 0 });
    const byType = new Map<number, Tally>();
    const byCoach = new Map<number, Tally>();
    for (const c of classes) {
      const own = reservations.filter((r) => r.single_class_id === c.single_class_id);
      const ended = c.class_date.getTime() + c.duration_minutes * 60_000 <= now;
      const add = (t: Tally) => {
        t.classes += 1;
        t.capacity += c.capacity;
        t.reservations += own.length;
        t.attended += own.filter((r) => r.attend).length;
        t.no_shows += ended ? own.filter((r) => !r.attend).length : 0;
        t.places += own.length + own.filter((r) => r.guest !== null).length;
      };
      add(byType.get(c.class_type_id) ?? byType.set(c.class_type_id, empty()).get(c.class_type_id)!);
      for (const l of links.filter((x) => x.single_class_id === c.single_class_id)) {
        add(byCoach.get(l.instructor_id) ?? byCoach.set(l.instructor_id, empty()).get(l.instructor_id)!);
      }
    }
    const expected = (t: Tally) => ({
      classes: t.classes,
      capacity: t.capacity,
      reservations: t.reservations,
      attended: t.attended,
      no_shows: t.no_shows,
      occupancy: t.capacity === 0 ? 0 : round1((100 * t.places) / t.capacity),
    });

    const gotTypes = res.body.by_class_type as ({ class_type_id: number; name: string } & Tally)[];
    expect(gotTypes.map((t) => t.class_type_id).sort()).toEqual([...byType.keys()].sort());
    for (const [id, tally] of byType) {
      expect(gotTypes.find((t) => t.class_type_id === id)).toEqual({ class_type_id: id, name: types.find((t) => t.class_type_id === id)?.name, ...expected(tally) });
    }
    const gotCoaches = res.body.by_instructor as ({ instructor_id: number } & Tally)[];
    expect(gotCoaches.map((t) => t.instructor_id).sort()).toEqual([...byCoach.keys()].sort());
    for (const [id, tally] of byCoach) {
      const coach = coaches.find((c) => c.instructor_id === id);
      expect(gotCoaches.find((t) => t.instructor_id === id)).toEqual({ instructor_id: id, name: coach?.name, last_name: coach?.last_name, ...expected(tally) });
    }
    // The seed has attended classes, no-shows and future bookings in this range: the numbers are not trivially zero.
    const sum = (k: keyof Tally) => [...byType.values()].reduce((n, t) => n + t[k], 0);
    expect(sum('attended')).toBeGreaterThan(0);
    expect(sum('no_shows')).toBeGreaterThan(0);
    expect(sum('reservations')).toBeGreaterThan(sum('attended') + sum('no_shows'));
  });

  it('validates the range: order, format and at most 366 days; customers get 403', async () => {
    const tooLong = await call(server.app, 'GET', `/api/reports/attendance?start_date=${localDay(-400)}&end_date=${localDay(0)}`, { token: admin });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toContain('El rango de fechas no puede ser mayor a 366 días.');
    const exactly = await call(server.app, 'GET', `/api/reports/attendance?start_date=2025-01-01&end_date=2026-01-02`, { token: admin });
    expect(exactly.status).toBe(200);
    const backwards = await call(server.app, 'GET', `/api/reports/sales?start_date=${localDay(0)}&end_date=${localDay(-1)}`, { token: admin });
    expect(backwards.body.message).toContain('La fecha final debe ser posterior a la inicial.');
    const badDate = await call(server.app, 'GET', '/api/reports/no_shows?start_date=2026-13-01&end_date=2026-12-31', { token: admin });
    expect(badDate.status).toBe(400);
    expect((await call(server.app, 'GET', '/api/reports/no_shows', { token: admin })).status).toBe(400);
    for (const path of ['attendance', 'sales', 'no_shows']) {
      expect((await call(server.app, 'GET', `/api/reports/${path}?start_date=${localDay(-7)}&end_date=${localDay(0)}`, { token: cliente })).status).toBe(403);
    }
    expect((await call(server.app, 'GET', '/api/reports/memberships', { token: cliente })).status).toBe(403);
  });
});

describe('GET /api/reports/sales', () => {
  it('sums paid purchases (no gifts) by package and by local month, in MXN money strings', async () => {
    const start = localDay(-150);
    const end = localDay(0);
    const res = await call(server.app, 'GET', `/api/reports/sales?start_date=${start}&end_date=${end}`, { token: admin });
    expect(res.status).toBe(200);
    const packages = await server.db.select().from(class_package);
    const sold = (await server.db.select().from(purchase)).filter(
      // A revoked sale is annulled; the seed refunds nothing, so every revoked one is out.
      (p) => !['pending', 'failed', 'revoked'].includes(p.status) && !p.is_gift && inRange(p.createdAt, start, end),
    );
    expect(sold.length).toBeGreaterThan(0);
    const byPackage = new Map<number, { count: number; cents: number }>();
    const byMonth = new Map<string, { count: number; cents: number }>();
    for (const p of sold) {
      const pk = byPackage.get(p.class_package_id) ?? { count: 0, cents: 0 };
      byPackage.set(p.class_package_id, { count: pk.count + 1, cents: pk.cents + toCents(p.total_payment) });
      const month = dayjs(p.createdAt).tz(tz).format('YYYY-MM');
      const m = byMonth.get(month) ?? { count: 0, cents: 0 };
      byMonth.set(month, { count: m.count + 1, cents: m.cents + toCents(p.total_payment) });
    }
    expect(res.body.by_package).toHaveLength(byPackage.size);
    for (const [id, t] of byPackage) {
      expect((res.body.by_package as { class_package_id: number }[]).find((r) => r.class_package_id === id)).toEqual({
        class_package_id: id,
        title: packages.find((p) => p.class_package_id === id)?.title,
        count: t.count,
        total: fromCents(t.cents),
      });
    }
    expect(res.body.by_month).toEqual([...byMonth.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([month, t]) => ({ month, count: t.count, total: fromCents(t.cents) })));
    expect(res.body.count).toBe(sold.length);
    expect(res.body.total).toBe(fromCents(sold.reduce((n, p) => n + toCents(p.total_payment), 0)));
    expect(res.body.total).toMatch(/^\d+\.\d{2}$/);
  });
});

describe('GET /api/reports/memberships', () => {
  it('counts unlimited members not expired and active subscriptions, by package', async () => {
    const res = await call(server.app, 'GET', '/api/reports/memberships', { token: admin });
    expect(res.status).toBe(200);
    const now = Date.now();
    const members = (await server.db.select().from(customer)).filter(
      (c) => c.deletedAt === null && c.has_unlimited && (c.unlimited_membership_expiration === null || c.unlimited_membership_expiration.getTime() > now),
    );
    const subs = (await server.db.select().from(purchase)).filter((p) => p.status === 'active' && p.subscription_period !== null);
    expect(members.length).toBeGreaterThan(0);
    expect(subs.length).toBeGreaterThan(0);
    expect(res.body.unlimited_members).toBe(members.length);
    expect(res.body.active_subscriptions).toBe(subs.length);
    const counts = new Map<number, number>();
    for (const s of subs) counts.set(s.class_package_id, (counts.get(s.class_package_id) ?? 0) + 1);
    expect(
      (res.body.subscriptions_by_package as { class_package_id: number; count: number }[]).map((r) => [r.class_package_id, r.count]).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0)),
    ).toEqual([...counts.entries()].sort((a, b) => a[0] - b[0]));
  });
});

describe('GET /api/reports/no_shows', () => {
  it('lists customers by no-shows of ended live classes, most first', async () => {
    const start = localDay(-60);
    const end = localDay(0);
    const res = await call(server.app, 'GET', `/api/reports/no_shows?start_date=${start}&end_date=${end}`, { token: admin });
    expect(res.status).toBe(200);
    const now = Date.now();
    const classes = new Map(
      (await server.db.select().from(single_class))
        .filter((c) => c.cancelledAt === null && inRange(c.class_date, start, end) && c.class_date.getTime() + c.duration_minutes * 60_000 <= now)
        .map((c) => [c.single_class_id, c]),
    );
    const tally = new Map<number, { reservations: number; no_shows: number }>();
    for (const r of await server.db.select().from(class_reservation)) {
      if (r.deletedAt !== null || !classes.has(r.single_class_id)) continue;
      const t = tally.get(r.customer_id) ?? { reservations: 0, no_shows: 0 };
      tally.set(r.customer_id, { reservations: t.reservations + 1, no_shows: t.no_shows + (r.attend ? 0 : 1) });
    }
    const expected = [...tally.entries()]
      .filter(([, t]) => t.no_shows > 0)
      .sort((a, b) => b[1].no_shows - a[1].no_shows || a[0] - b[0])
      .slice(0, 100)
      .map(([customer_id, t]) => ({ customer_id, ...t }));
    expect(expected.length).toBeGreaterThan(0);
    expect((res.body.customers as { customer_id: number; reservations: number; no_shows: number }[]).map(({ customer_id, reservations, no_shows }) => ({ customer_id, reservations, no_shows }))).toEqual(expected);
  });
});

describe('a revoked sale', () => {
  it("leaves the day's sales: the owner revokes a $1,350 grant and the day's total goes back", async () => {
    const today = localDay(0);
    const daySales = async () => (await call(server.app, 'GET', `/api/reports/sales?start_date=${today}&end_date=${today}`, { token: admin })).body as { count: number; total: string };
    const before = await daySales();
    const [mariana] = await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    const [pkg] = (await server.db.select().from(class_package)).filter((p) => p.deletedAt === null && !p.is_subscription && p.sale_price === '1350.00');
    expect(pkg, 'the seed sells a package at $1,350 (sale price)').toBeDefined();
    const given = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: admin,
      body: { customer_id: mariana!.customer_id, class_package_id: pkg!.class_package_id, payment_method_id: 2, bill: true },
    });
    expect(given.status).toBe(200);
    const sold = await daySales();
    expect(sold.count).toBe(before.count + 1);
    expect(toCents(sold.total)).toBe(toCents(before.total) + 135_000);
    const revoked = await call(server.app, 'PUT', '/api/customer/revokeAccess', { token: admin, body: { purchase_id: given.body.purchase_id, reason: 'Se cargó por error' } });
    expect(revoked.status).toBe(200);
    expect(await daySales()).toEqual(before);
  });
});

describe('a card sale refunded in the sandbox', () => {
  it('is refunded through the sandbox provider and counts as a card refund of the day', async () => {
    const today = localDay(0);
    const nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
    const [one] = (await server.db.select().from(class_package)).filter((p) => p.title === '1 Clase');
    const paid = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { payment_method: 1, class_package_id: one!.class_package_id, payment_method_token: 'pm_card_visa' } });
    expect(paid.status).toBe(200);
    const id = paid.body.purchase_id as number;
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, id));
    expect(row).toMatchObject({ status: 'completed', provider: 'sandbox' });
    const refunds = async () =>
      ((await call(server.app, 'GET', `/api/reports/sales?start_date=${today}&end_date=${today}`, { token: admin })).body as { refunds: { by_method: { method: string; total: string }[] } }).refunds.by_method.find((r) => r.method === 'card')?.total ?? '0.00';
    const before = toCents(await refunds());
    const done = await call(server.app, 'POST', `/api/purchases/${id}/refund`, { token: admin, body: { reason: 'Compra por error' } });
    expect(done.status).toBe(200);
    expect(done.body.refund).toMatchObject({ method: 'card', amount: row!.total_payment, provider_refund_id: expect.stringMatching(/^sandbox_re_/) });
    expect(toCents(await refunds())).toBe(before + toCents(row!.total_payment));
  });
});
