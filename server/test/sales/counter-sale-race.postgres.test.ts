import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth_user } from '@estudio/db/schema/identity';
import { payment_method } from '@estudio/db/schema/payments';
import { product, product_return, product_sale } from '@estudio/db/schema/products';
import { createIdTokenSigner } from '../../src/services/auth/id-token.ts';
import { startRacingServer, type RacingServer } from '../support/helpers.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * Two counters selling the last units at once, on PostgreSQL with real
 * parallel requests: the shelf never goes below zero and every unit sold is a
 * line. Only with TEST_DATABASE_URL (PGlite has one connection).
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('the last units on the shelf, on PostgreSQL', () => {
  let race: RacingServer;
  beforeAll(async () => {
    race = await startRacingServer();
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  it('12 sales of 1 water at once with 5 on the shelf: 5 sold, 7 refused, none below zero', async () => {
    const [row] = await race.db.insert(product).values({ name: 'Agua mineral', price: '30.00', stock: 5 }).returning({ id: product.product_id });
    const [staff] = await race.db.select({ uid: auth_user.uid, email: auth_user.email }).from(auth_user).where(eq(auth_user.email, 'recepcion@estudio.demo'));
    const token = await createIdTokenSigner(race.secret, 3600).sign({ uid: staff!.uid, email: staff!.email });
    const [cash] = await race.db.select().from(payment_method).where(eq(payment_method.provider, 'cash'));
    const buyer = await customerId(race.db, 'cliente@estudio.demo');
    const results = await Promise.all(
      Array.from({ length: 12 }, () => race.post('/api/sales', token, { customer_id: buyer, payment_method_id: cash!.payment_method_id, products: [{ product_id: row!.id, quantity: 1 }] })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    for (const lost of results.filter((r) => r.status !== 200)) expect([lost.status, lost.body.code]).toEqual([409, 'product/out-of-stock']);
    const [left] = await race.db.select({ stock: product.stock }).from(product).where(eq(product.product_id, row!.id));
    expect(left?.stock).toBe(0);
    expect(await race.db.select().from(product_sale).where(eq(product_sale.product_id, row!.id))).toHaveLength(5);
  });

  it('8 returns of the same 3 waters at once: 3 units back, never more money than the sale took', async () => {
    const [row] = await race.db.insert(product).values({ name: 'Agua para devolver', price: '30.00', stock: 3 }).returning({ id: product.product_id });
    const [staff] = await race.db.select({ uid: auth_user.uid, email: auth_user.email }).from(auth_user).where(eq(auth_user.email, 'recepcion@estudio.demo'));
    const token = await createIdTokenSigner(race.secret, 3600).sign({ uid: staff!.uid, email: staff!.email });
    const [cash] = await race.db.select().from(payment_method).where(eq(payment_method.provider, 'cash'));
    const buyer = await customerId(race.db, 'cliente@estudio.demo');
    const sold = await race.post('/api/sales', token, { customer_id: buyer, payment_method_id: cash!.payment_method_id, products: [{ product_id: row!.id, quantity: 3 }] });
    expect(sold.status).toBe(200);
    const saleId = (sold.body as unknown as { lines: { product_sale_id: number }[] }).lines[0]!.product_sale_id;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => race.post(`/api/sales/products/${saleId}/return`, token, { product_sale_id: saleId, quantity: 1, restock: true, reason: 'No la quiso' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const lost of results.filter((r) => r.status !== 200)) expect([lost.status, lost.body.code, (lost.body as { message?: string }).message]).toEqual([409, 'product-return/too-many', 'Esta venta ya se devolvió completa.']);
    const returns = await race.db.select().from(product_return).where(eq(product_return.product_sale_id, saleId));
    expect(returns.reduce((n, r) => n + Math.round(Number(r.amount) * 100), 0)).toBe(9_000);
    const [shelf] = await race.db.select({ stock: product.stock }).from(product).where(eq(product.product_id, row!.id));
    expect(shelf?.stock).toBe(3);
  });
});
