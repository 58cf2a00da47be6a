import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { class_type } from '@estudio/db/schema/catalogue';
import { class_package, class_package_type } from '@estudio/db/schema/packages';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { customerId } from '../support/reservations-fixtures.ts';
import { stripeEnv } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

/** The admin console's packages: list, create, update, delete, home; Stripe kept in step when configured. */
let server: TestServer;
let fake: StripeFake;
let withStripe: FastifyInstance;
let admin: string;
let adminId: number;
let cliente: string;
const typeId: Record<string, number> = {};
const pkgId: Record<string, number> = {};

beforeAll(async () => {
  fake = await startStripeFake();
  server = await startTestServer();
  withStripe = await server.withConfig(stripeEnv(fake));
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
  adminId = await customerId(server.db, 'admin@estudio.demo');
  for (const t of await server.db.select().from(class_type)) typeId[t.name] = t.class_type_id;
  for (const p of await server.db.select().from(class_package)) pkgId[p.title] = p.class_package_id;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const packageCount = async () => (await server.db.select({ n: count() }).from(class_package))[0]!.n;
const row = async (id: number) => (await server.db.select().from(class_package).where(eq(class_package.class_package_id, id)))[0];
const lastAudit = async (id: number) =>
  (
    await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.entity, 'class_package'), eq(audit_log.entity_id, String(id))))
      .orderBy(desc(audit_log.audit_log_id))
      .limit(1)
  )[0];

const anyTypes = () => Object.values(typeId).slice(0, 2);
const base = () => ({
  title: 'Paquete Duo',
  short_description: 'Dos disciplinas',
  price: '1200',
  class_amount: 8,
  expiration_days: 30,
  class_package_types: [
    { class_type_id: anyTypes()[0]!, class_amount: 5, expiration_days: 30, allowed_times: '07:00, 09:00' },
    { class_type_id: anyTypes()[1]!, class_amount: 3 },
  ],
});

describe('GET /api/class_packages/admin/all', () => {
  it('lists hidden packages too, a page at a time, with the total and what only the admin sees', async () => {
    await server.db.update(class_package).set({ available: false }).where(eq(class_package.class_package_id, pkgId['Inscripción']!));
    const res = await call(server.app, 'GET', '/api/class_packages/admin/all?limit=100', { token: admin });
    expect(res.status).toBe(200);
    const titles = (res.body.class_packages as { title: string }[]).map((p) => p.title);
    expect(titles).toContain('Inscripción');
    expect(res.body.total).toBe(await packageCount());
    const hidden = (res.body.class_packages as { title: string; available: boolean; purchases: number }[]).find((p) => p.title === 'Inscripción');
    expect(hidden?.available).toBe(false);
    const fiveClasses = (res.body.class_packages as { title: string; purchases: number }[]).find((p) => p.title === '5 Clases');
    expect(fiveClasses?.purchases).toBeGreaterThan(0);
    const shop = await call(server.app, 'GET', '/api/class_packages');
    expect((shop.body.class_packages as { title: string }[]).map((p) => p.title)).not.toContain('Inscripción');

    const page = await call(server.app, 'GET', '/api/class_packages/admin/all?limit=2&page=2', { token: admin });
    expect(page.body.class_packages.map((p: { title: string }) => p.title)).toEqual(titles.slice(2, 4));
    const search = await call(server.app, 'GET', '/api/class_packages/admin/all?query=ilimit', { token: admin });
    expect(search.body.class_packages.map((p: { title: string }) => p.title)).toEqual(['Ilimitado Mensual']);
    await server.db.update(class_package).set({ available: true }).where(eq(class_package.class_package_id, pkgId['Inscripción']!));
  });
});

describe('POST /api/class_packages', () => {
  it('refuses incoherent packages with the field and a Spanish message, saving nothing', async () => {
    const before = await packageCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ sale_price: '1200.00' }, 'sale_price', 'El precio de oferta debe ser menor que el precio.'],
      [{ price: '12.345' }, 'price', 'El precio debe ser un importe en pesos con hasta dos decimales.'],
      [{ price: '-5' }, 'price', 'El precio debe ser un importe en pesos con hasta dos decimales.'],
      [{ class_amount: -2 }, 'class_amount', 'Las clases deben ser -1 (ilimitadas) o más.'],
      [{ is_subscription: true }, 'subscription_period', 'Una suscripción necesita periodo e intervalo de cobro.'],
      [{ subscription_interval: 1 }, 'is_subscription', 'Un paquete que no es suscripción no lleva periodo, intervalo ni prueba gratis.'],
      [{ class_package_types: [{ class_type_id: anyTypes()[0], class_amount: 1 }, { class_type_id: anyTypes()[0], class_amount: 2 }] }, 'class_package_types', 'Cada tipo de clase puede aparecer una sola vez en el paquete.'],
      [{ class_package_types: [{ class_type_id: anyTypes()[0], class_amount: 1, allowed_times: '7am' }] }, 'class_package_types.0.allowed_times', 'Los horarios deben ser horas HH:mm separadas por comas.'],
      [{ title: '  ' }, 'title', 'Debes escribir el nombre del paquete.'],
    ];
    for (const [change, field, message] of cases) {
      const res = await call(server.app, 'POST', '/api/class_packages', { token: admin, body: { ...base(), ...change } });
      expect(res.status, field).toBe(400);
      expect(res.body, field).toEqual({ code: 'validation', field, message: `Revisa el campo ${field}: ${message}` });
    }
    const unknownType = await call(server.app, 'POST', '/api/class_packages', { token: admin, body: { ...base(), class_package_types: [{ class_type_id: 999999, class_amount: 1 }] } });
    expect(unknownType.status).toBe(404);
    expect(unknownType.body.code).toBe('package/reference-not-found');
    expect(await packageCount()).toBe(before);
  });

  it('creates the package with its credits per class type, audited; without Stripe nothing is called', async () => {
    const res = await call(server.app, 'POST', '/api/class_packages', { token: admin, body: { ...base(), sale_price: 999.5 } });
    expect(res.status).toBe(200);
    const created = res.body.class_package;
    expect(created).toMatchObject({ title: 'Paquete Duo', price: '1200.00', sale_price: '999.50', class_amount: 8, available: true, show_on_home: false, purchases: 0 });
    expect(created.stripe_product_id).toBeNull();
    expect(created.class_package_types).toEqual([
      expect.objectContaining({ class_type_id: anyTypes()[0], class_amount: 5, expiration_days: 30, allowed_times: '07:00,09:00' }),
      expect.objectContaining({ class_type_id: anyTypes()[1], class_amount: 3, expiration_days: null, allowed_times: null }),
    ]);
    pkgId.duo = created.class_package_id;
    const shop = await call(server.app, 'GET', `/api/class_packages/${created.class_package_id}`);
    expect(shop.body.class_package.class_package_types).toHaveLength(2);
    expect(await lastAudit(created.class_package_id)).toMatchObject({ customer_id: adminId, action: 'create' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('PUT /api/class_packages', () => {
  it('changes the fields sent and replaces the class types; the rules hold on the merged package', async () => {
    const id = pkgId.duo!;
    const res = await call(server.app, 'PUT', '/api/class_packages', {
      token: admin,
      body: { class_package_id: id, price: '1500.00', class_package_types: [{ class_type_id: anyTypes()[1], class_amount: -1 }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.class_package).toMatchObject({ price: '1500.00', sale_price: '999.50', title: 'Paquete Duo' });
    expect(res.body.class_package.class_package_types.map((t: { class_type_id: number }) => t.class_type_id)).toEqual([anyTypes()[1]]);
    expect(await server.db.select().from(class_package_type).where(eq(class_package_type.class_package_id, id))).toHaveLength(1);
    expect(await lastAudit(id)).toMatchObject({ action: 'update', changes: expect.objectContaining({ price: '1500.00' }) });

    // A sale price above the stored price is caught although the price was not sent.
    const tooHigh = await call(server.app, 'PUT', '/api/class_packages', { token: admin, body: { class_package_id: id, sale_price: '1600', title: 'No se guarda' } });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body).toEqual({ code: 'package/sale-price', message: 'El precio de oferta debe ser menor que el precio.' });
    const halfSubscription = await call(server.app, 'PUT', '/api/class_packages', { token: admin, body: { class_package_id: id, is_subscription: true } });
    expect(halfSubscription.body.code).toBe('package/subscription-fields');
    expect(await row(id)).toMatchObject({ title: 'Paquete Duo', sale_price: '999.50', is_subscription: false });

    const missing = await call(server.app, 'PUT', '/api/class_packages', { token: admin, body: { class_package_id: 999999, title: 'Nada' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'package/unknown', message: 'No encontramos este paquete.' });
  });
});

describe('the demo packages', () => {
  it('every seeded package meets the rules, so the admin can save any of them as it is', async () => {
    const listed = await call(server.app, 'GET', '/api/class_packages/admin/all?limit=100', { token: admin });
    for (const p of listed.body.class_packages as { class_package_id: number; title: string }[]) {
      const res = await call(server.app, 'PUT', '/api/class_packages', { token: admin, body: { class_package_id: p.class_package_id, title: p.title } });
      expect(res.status, `${p.title}: ${res.raw}`).toBe(200);
    }
  });
});

describe('home', () => {
  it("PUT /class_packages/{id}/home puts it on the landing's list, DELETE takes it off, with the spec's messages", async () => {
    const id = pkgId.duo!;
    const homeTitles = async () => ((await call(server.app, 'GET', '/api/class_packages/presenciales/home')).body.class_packages as { title: string }[]).map((p) => p.title);
    expect(await homeTitles()).not.toContain('Paquete Duo');
    const added = await call(server.app, 'PUT', `/api/class_packages/${id}/home`, { token: admin, body: {} });
    expect(added.status).toBe(200);
    expect(added.body.message).toBe('¡Paquete agregado al home con éxito!');
    expect(added.body.class_package.show_on_home).toBe(true);
    expect(await homeTitles()).toContain('Paquete Duo');
    expect(await lastAudit(id)).toMatchObject({ action: 'home.add' });

    const removed = await call(server.app, 'DELETE', `/api/class_packages/${id}/home`, { token: admin });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('¡Paquete eliminado del home!');
    expect(await homeTitles()).not.toContain('Paquete Duo');
    expect(await lastAudit(id)).toMatchObject({ action: 'home.remove' });
    expect((await call(server.app, 'PUT', '/api/class_packages/999999/home', { token: admin, body: {} })).status).toBe(404);
  });
});

describe('DELETE /api/class_packages/{id}', () => {
  it('removes a package never bought', async () => {
    const id = pkgId.duo!;
    const res = await call(server.app, 'DELETE', `/api/class_packages/${id}`, { token: admin });
    expect(res.body).toEqual({ deleted: true, id, soft: false });
    expect(await row(id)).toBeUndefined();
    expect(await server.db.select().from(class_package_type).where(eq(class_package_type.class_package_id, id))).toHaveLength(0);
    expect(await lastAudit(id)).toMatchObject({ action: 'delete', changes: { soft: false } });
  });

  it('keeps a bought package for its purchases: hidden, off the home, marked deleted', async () => {
    const id = pkgId['5 Clases']!;
    await server.db.update(class_package).set({ show_on_home: true }).where(eq(class_package.class_package_id, id));
    const res = await call(server.app, 'DELETE', `/api/class_packages/${id}`, { token: admin });
    expect(res.body).toEqual({ deleted: true, id, soft: true });
    expect(await row(id)).toMatchObject({ available: false, show_on_home: false, deletedAt: expect.any(Date) });
    expect((await call(server.app, 'GET', `/api/class_packages/${id}`)).status).toBe(404);
    const listed = await call(server.app, 'GET', '/api/class_packages/admin/all?limit=100', { token: admin });
    expect(listed.body.class_packages.map((p: { class_package_id: number }) => p.class_package_id)).not.toContain(id);
    const withDeleted = await call(server.app, 'GET', '/api/class_packages/admin/all?limit=100&include_deleted=true', { token: admin });
    const kept = withDeleted.body.class_packages.find((p: { class_package_id: number }) => p.class_package_id === id);
    expect(kept.deletedAt).toEqual(expect.any(String));
    // The customer's purchase history still shows it.
    const mine = await call(server.app, 'GET', '/api/purchases', { token: cliente });
    expect(mine.status).toBe(200);
    const again = await call(server.app, 'DELETE', `/api/class_packages/${id}`, { token: admin });
    expect(again.status).toBe(404);
    expect((await call(server.app, 'GET', `/api/class_packages/admin/${id}`, { token: admin })).body.class_package.deletedAt).toEqual(expect.any(String));
  });
});

describe('with Stripe configured', () => {
  const stripeCall = (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    call(withStripe, method, url, { token: admin, ...(body !== undefined ? { body } : {}) });

  it('creates the product and a one-off price, keeping their ids on the package', async () => {
    const res = await stripeCall('POST', '/api/class_packages', { ...base(), title: 'Paquete Stripe', price: '800' });
    expect(res.status).toBe(200);
    const pkg = res.body.class_package;
    pkgId.stripe = pkg.class_package_id;
    expect(pkg.stripe_product_id).toMatch(/^prod_/);
    expect(pkg.stripe_price_id).toMatch(/^price_/);
    const product = fake.objects.get(pkg.stripe_product_id)!;
    expect(product).toMatchObject({ name: 'Paquete Stripe', active: true, metadata: { class_package_id: String(pkg.class_package_id) } });
    expect(fake.objects.get(pkg.stripe_price_id)).toMatchObject({ product: pkg.stripe_product_id, unit_amount: 80000, currency: 'mxn', recurring: null, active: true });
    const create = fake.requests.find((r) => r.path === '/v1/products');
    expect(create?.idempotencyKey).toBe(`package-${pkg.class_package_id}-product`);
  });

  it('a title change renames the product and keeps the price; a new price or period makes a new price and archives the old', async () => {
    const id = pkgId.stripe!;
    const first = (await row(id))!;
    const renamed = await stripeCall('PUT', '/api/class_packages', { class_package_id: id, title: 'Paquete Stripe Plus' });
    expect(renamed.body.class_package.stripe_price_id).toBe(first.stripe_price_id);
    expect(fake.objects.get(first.stripe_product_id!)?.name).toBe('Paquete Stripe Plus');

    const repriced = await stripeCall('PUT', '/api/class_packages', { class_package_id: id, price: '900.00', sale_price: '850.00' });
    const second = repriced.body.class_package.stripe_price_id as string;
    expect(second).not.toBe(first.stripe_price_id);
    expect(fake.objects.get(second)).toMatchObject({ unit_amount: 85000, active: true, product: first.stripe_product_id });
    expect(fake.objects.get(first.stripe_price_id!)?.active).toBe(false);

    const monthly = await stripeCall('PUT', '/api/class_packages', { class_package_id: id, is_subscription: true, subscription_period: 'month', subscription_interval: 1 });
    const third = monthly.body.class_package.stripe_price_id as string;
    expect(fake.objects.get(third)).toMatchObject({ unit_amount: 85000, recurring: { interval: 'month', interval_count: 1 } });
    expect(fake.objects.get(second)?.active).toBe(false);
    expect((await row(id))?.stripe_price_id).toBe(third);
  });

  it('a Stripe outage answers 502 and saves nothing', async () => {
    const before = await packageCount();
    fake.failing.add('/v1/products');
    const res = await stripeCall('POST', '/api/class_packages', { ...base(), title: 'No Llega a Stripe' });
    fake.failing.clear();
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('package/stripe-error');
    expect(await packageCount()).toBe(before);

    const id = pkgId.stripe!;
    const priceBefore = (await row(id))!.stripe_price_id;
    fake.failing.add('/v1/prices');
    const update = await stripeCall('PUT', '/api/class_packages', { class_package_id: id, price: '1000.00', sale_price: null });
    fake.failing.clear();
    expect(update.status).toBe(502);
    expect(await row(id)).toMatchObject({ price: '900.00', sale_price: '850.00', stripe_price_id: priceBefore });
  });

  it('deleting archives the product and its price', async () => {
    const id = pkgId.stripe!;
    const { stripe_product_id, stripe_price_id } = (await row(id))!;
    const res = await stripeCall('DELETE', `/api/class_packages/${id}`);
    expect(res.body).toEqual({ deleted: true, id, soft: false });
    expect(fake.objects.get(stripe_product_id!)?.active).toBe(false);
    expect(fake.objects.get(stripe_price_id!)?.active).toBe(false);
  });
});
