import { and, count, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { product, product_sale } from '@estudio/db/schema/products';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * The owner's products at the counter (water, grip socks, a towel): she keeps
 * the list in the console; Recepción reads it to sell and changes nothing.
 */
let server: TestServer;
let admin: string;
let recepcion: string;
let adminId: number;
let marianaId: number;
const productId: Record<string, number> = {};

demoStudio(['admin', 'recepcion'], (s) => ({ server, tokens: { admin, recepcion } } = s));
beforeAll(async () => {
  adminId = await customerId(server.db, 'admin@estudio.demo');
  marianaId = await customerId(server.db, 'cliente@estudio.demo');
  // The demo studio's own products (unsold) go: this file builds its list from nothing.
  await server.db.delete(product);
}, 120_000);

const productCount = async () => (await server.db.select({ n: count() }).from(product))[0]!.n;
const lastAudit = async (id: number) =>
  (
    await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.entity, 'product'), eq(audit_log.entity_id, String(id))))
      .orderBy(desc(audit_log.audit_log_id))
      .limit(1)
  )[0];
const names = async (token: string) => ((await call(server.app, 'GET', '/api/products', { token })).body.products as { name: string }[]).map((p) => p.name);

describe('POST /api/products', () => {
  it('creates water with its stock and grip socks not counted, audited', async () => {
    const water = await call(server.app, 'POST', '/api/products', { token: admin, body: { name: '  Agua 600 ml ', price: '25', stock: 48 } });
    expect(water.status).toBe(200);
    expect(water.body.product).toMatchObject({ name: 'Agua 600 ml', price: '25.00', stock: 48, available: true, sold: 0 });
    productId.agua = water.body.product.product_id;
    expect(await lastAudit(productId.agua!)).toMatchObject({ customer_id: adminId, action: 'create', changes: { name: 'Agua 600 ml', price: '25.00', stock: 48 } });

    const socks = await call(server.app, 'POST', '/api/products', { token: admin, body: { name: 'Calcetas antiderrapantes', price: 180.5 } });
    expect(socks.body.product).toMatchObject({ price: '180.50', stock: null, available: true });
    productId.calcetas = socks.body.product.product_id;
    const towel = await call(server.app, 'POST', '/api/products', { token: admin, body: { name: 'Toalla', price: '$1,200', stock: 0, available: false } });
    expect(towel.body.product).toMatchObject({ price: '1200.00', stock: 0, available: false });
    productId.toalla = towel.body.product.product_id;
  });

  it('refuses a price in words, a negative stock and an unknown field in Spanish, naming the field, saving nothing', async () => {
    const before = await productCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ price: 'quinientos' }, 'price', 'Escribe el precio en pesos, con hasta dos decimales.'],
      [{ price: '12.345' }, 'price', 'Escribe el precio en pesos, con hasta dos decimales.'],
      [{ stock: -3 }, 'stock', 'Las piezas en existencia no pueden ser negativas.'],
      [{ stock: 2.5 }, 'stock', 'Escribe las piezas en existencia como un número entero.'],
      [{ name: '   ' }, 'name', 'Escribe el nombre del producto.'],
    ];
    for (const [change, field, message] of cases) {
      const res = await call(server.app, 'POST', '/api/products', { token: admin, body: { name: 'Liga de resistencia', price: '150', ...change } });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body, JSON.stringify(change)).toEqual({ code: 'validation', field, message: `Revisa el campo ${field}: ${message}` });
    }
    const unknown = await call(server.app, 'POST', '/api/products', { token: admin, body: { name: 'Liga de resistencia', price: '150', existencias: 4 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ code: 'validation/unknown-field', message: 'El campo "existencias" no existe en esta operación.', field: 'existencias' });
    expect(await productCount()).toBe(before);
  });

  it('refuses a name already in the list, ignoring case', async () => {
    const taken = await call(server.app, 'POST', '/api/products', { token: admin, body: { name: 'AGUA 600 ML', price: '30' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ code: 'product/name-taken', message: 'Ya hay un producto con este nombre.' });
  });
});

describe('GET /api/products', () => {
  it('lists the products by name, for the owner and for Recepción', async () => {
    expect(await names(admin)).toEqual(['Agua 600 ml', 'Calcetas antiderrapantes', 'Toalla']);
    const desk = await call(server.app, 'GET', '/api/products', { token: recepcion });
    expect(desk.status).toBe(200);
    expect(desk.body.products[0]).toMatchObject({ name: 'Agua 600 ml', price: '25.00', stock: 48, sold: 0 });
  });

  it('Recepción may not create, change or delete a product', async () => {
    const created = await call(server.app, 'POST', '/api/products', { token: recepcion, body: { name: 'Barra de proteína', price: '45' } });
    const changed = await call(server.app, 'PUT', '/api/products', { token: recepcion, body: { product_id: productId.agua, price: '1' } });
    const removed = await call(server.app, 'DELETE', `/api/products/${productId.agua}`, { token: recepcion });
    expect([created.status, changed.status, removed.status]).toEqual([403, 403, 403]);
    expect(await names(admin)).toEqual(['Agua 600 ml', 'Calcetas antiderrapantes', 'Toalla']);
    const [water] = await server.db.select().from(product).where(eq(product.product_id, productId.agua!));
    expect(water?.price).toBe('25.00');
  });
});

describe('PUT /api/products', () => {
  it('changes the fields sent: a new price, the stock no longer counted, back on the counter', async () => {
    const price = await call(server.app, 'PUT', '/api/products', { token: admin, body: { product_id: productId.agua, price: '28.50' } });
    expect(price.status).toBe(200);
    expect(price.body.product).toMatchObject({ name: 'Agua 600 ml', price: '28.50', stock: 48 });
    expect(await lastAudit(productId.agua!)).toMatchObject({ action: 'update', changes: { price: '28.50' } });

    const towel = await call(server.app, 'PUT', '/api/products', { token: admin, body: { product_id: productId.toalla, stock: null, available: true, name: 'Toalla de microfibra' } });
    expect(towel.body.product).toMatchObject({ name: 'Toalla de microfibra', stock: null, available: true });
    // Its own name in other letters is not "taken".
    const same = await call(server.app, 'PUT', '/api/products', { token: admin, body: { product_id: productId.toalla, name: 'TOALLA DE MICROFIBRA' } });
    expect(same.body.product.name).toBe('TOALLA DE MICROFIBRA');
  });

  it("refuses another product's name, a bad stock and an unknown field, changing nothing; an unknown id is a 404", async () => {
    const taken = await call(server.app, 'PUT', '/api/products', { token: admin, body: { product_id: productId.calcetas, name: 'agua 600 ml' } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('product/name-taken');
    const negative = await call(server.app, 'PUT', '/api/products', { token: admin, body: { product_id: productId.calcetas, stock: -1 } });
    expect(negative.body).toEqual({ code: 'validation', field: 'stock', message: 'Revisa el campo stock: Las piezas en existencia no pueden ser negativas.' });
    const unknown = await call(server.app, 'PUT', '/api/products', { token: admin, body: { product_id: productId.calcetas, price: '1', precio: '1' } });
    expect(unknown.body).toEqual({ code: 'validation/unknown-field', message: 'El campo "precio" no existe en esta operación.', field: 'precio' });
    const [socks] = await server.db.select().from(product).where(eq(product.product_id, productId.calcetas!));
    expect(socks).toMatchObject({ name: 'Calcetas antiderrapantes', price: '180.50', stock: null });
    const missing = await call(server.app, 'PUT', '/api/products', { token: admin, body: { product_id: 999999, price: '5' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'product/not-found', message: 'No encontramos este producto; quizá ya no se vende.' });
  });
});

describe('DELETE /api/products/{id}', () => {
  it('removes a product never sold', async () => {
    const id = productId.toalla!;
    const res = await call(server.app, 'DELETE', `/api/products/${id}`, { token: admin });
    expect(res.body).toEqual({ deleted: true, id, soft: false });
    expect(await server.db.select().from(product).where(eq(product.product_id, id))).toHaveLength(0);
    expect(await lastAudit(id)).toMatchObject({ action: 'delete', changes: { soft: false } });
    const again = await call(server.app, 'DELETE', `/api/products/${id}`, { token: admin });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('product/not-found');
  });

  it('keeps a product already sold for its sales: hidden, marked deleted, its name free again', async () => {
    const id = productId.agua!;
    // Mariana bought two bottles at the counter.
    await server.db.insert(product_sale).values({ customer_id: marianaId, product_id: id, title: 'Agua 600 ml', quantity: 2, unit_price: '28.50', total: '57.00', paidAt: new Date() });
    const listed = await call(server.app, 'GET', '/api/products', { token: admin });
    expect(listed.body.products.find((p: { product_id: number }) => p.product_id === id)).toMatchObject({ sold: 2 });

    const res = await call(server.app, 'DELETE', `/api/products/${id}`, { token: admin });
    expect(res.body).toEqual({ deleted: true, id, soft: true });
    const [row] = await server.db.select().from(product).where(eq(product.product_id, id));
    expect(row).toMatchObject({ available: false, deletedAt: expect.any(Date) });
    expect(await server.db.select().from(product_sale).where(eq(product_sale.product_id, id))).toHaveLength(1);
    expect(await lastAudit(id)).toMatchObject({ action: 'delete', changes: { soft: true } });
    expect(await names(recepcion)).toEqual(['Calcetas antiderrapantes']);
    expect((await call(server.app, 'PUT', '/api/products', { token: admin, body: { product_id: id, price: '30' } })).status).toBe(404);

    // A new «Agua 600 ml» may be made: the deleted one keeps its name only for its history.
    const again = await call(server.app, 'POST', '/api/products', { token: admin, body: { name: 'Agua 600 ml', price: '30', stock: 24 } });
    expect(again.status).toBe(200);
    expect(again.body.product).toMatchObject({ sold: 0, stock: 24 });
  });
});
