import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activitySentence } from '@estudio/core';
import { audit_log } from '@estudio/db/schema/audit';
import { payment_method } from '@estudio/db/schema/payments';
import { product } from '@estudio/db/schema/products';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * Products brought back to the counter (both drivers): the money goes back the
 * way it came (a cash sale from the drawer, a card on the card, a split its
 * cash part first), never more units or money than the sale took, the units
 * back on the shelf when they can be sold again, and the drawer, the day's
 * cash-up and the sales report say so.
 */
let server: TestServer;
let admin: string;
let recepcion: string;
let mariana: number;
let cash: number;
let card: number;
let water: number;
let towel: number;
demoStudio(['admin', 'recepcion'], (s) => ({ server, tokens: { admin, recepcion } } = s));
beforeAll(async () => {
  mariana = await customerId(server.db, 'cliente@estudio.demo');
  const methods = await server.db.select().from(payment_method);
  cash = methods.find((m) => m.provider === 'cash')!.payment_method_id;
  card = methods.find((m) => m.provider === 'card')!.payment_method_id;
  const rows = await server.db
    .insert(product)
    .values([
      { name: 'Agua para devolver', price: '25.00', stock: 10 },
      { name: 'Toalla de renta', price: '100.00', stock: null },
    ])
    .returning({ id: product.product_id });
  [water, towel] = rows.map((r) => r.id) as [number, number];
}, 120_000);

const sell = async (body: Record<string, unknown>) => {
  const res = await call(server.app, 'POST', '/api/sales', { token: recepcion, body: { customer_id: mariana, ...body } });
  expect(res.status, res.raw).toBe(200);
  return res.body.lines[0].product_sale_id as number;
};
const giveBack = (saleId: number, body: Record<string, unknown>) =>
  call(server.app, 'POST', `/api/sales/products/${saleId}/return`, { token: recepcion, body: { product_sale_id: saleId, ...body } });
const stockOf = async (id: number) => (await server.db.select({ stock: product.stock }).from(product).where(eq(product.product_id, id)))[0]?.stock;
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());

describe('a product brought back', () => {
  it('a cash sale: the money leaves the drawer, the units go back on the shelf, and the drawer, the cash-up, the report and Actividad say it', async () => {
    const opened = await call(server.app, 'POST', '/api/cash_shifts', { token: recepcion, body: { opening_float: '200' } });
    expect(opened.status, opened.raw).toBe(200);
    const saleId = await sell({ products: [{ product_id: water, quantity: 3 }], payment_method_id: cash });
    expect(await stockOf(water)).toBe(7);
    const upBefore = (await call(server.app, 'GET', `/api/reports/cash_up?date=${today()}`, { token: admin })).body;
    const reportBefore = (await call(server.app, 'GET', `/api/reports/sales?start_date=${today()}&end_date=${today()}`, { token: admin })).body;

    const back = await giveBack(saleId, { quantity: 1, restock: true, reason: 'Venía abierta' });
    expect(back.status, back.raw).toBe(200);
    expect(back.body).toMatchObject({ product_sale_id: saleId, title: 'Agua para devolver', quantity: 1, amount: '25.00', cash_part: '25.00', restocked: true, returnable: 2 });
    expect(await stockOf(water)).toBe(8);

    const shift = (await call(server.app, 'GET', '/api/cash_shifts/current', { token: recepcion })).body.cash_shift;
    expect(shift.cash_refunds).toEqual({ count: 1, total: '25.00' });
    expect(shift.expected_cash).toBe('250.00');
    expect(shift.lines.find((l: { kind: string }) => l.kind === 'refund')).toMatchObject({ title: 'Agua para devolver × 1 (devolución)', amount: '25.00', in_drawer: true });
    const upAfter = (await call(server.app, 'GET', `/api/reports/cash_up?date=${today()}`, { token: admin })).body;
    expect(Number(upAfter.expected_cash)).toBeCloseTo(Number(upBefore.expected_cash) - 25, 2);
    const reportAfter = (await call(server.app, 'GET', `/api/reports/sales?start_date=${today()}&end_date=${today()}`, { token: admin })).body;
    expect(Number(reportAfter.refunds.total)).toBeCloseTo(Number(reportBefore.refunds.total) + 25, 2);
    expect(Number(reportAfter.net)).toBeCloseTo(Number(reportBefore.net) - 25, 2);

    const [row] = await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.action, 'product.return'), eq(audit_log.entity_id, String(mariana))))
      .orderBy(desc(audit_log.audit_log_id))
      .limit(1);
    expect(activitySentence({ entity: row!.entity, action: row!.action, entityId: row!.entity_id, changes: row!.changes, actor: { name: 'Andrea Torres', email: null }, customerName: 'Mariana López' })).toBe(
      'Andrea Torres recibió de Mariana López la devolución de 1 pieza de Agua para devolver y le regresó $25.00; regresó al anaquel — motivo: Venía abierta.',
    );

    // Never more units than sold; the last ones take what is left of the total, to the centavo.
    const tooMany = await giveBack(saleId, { quantity: 3, reason: 'Todas' });
    expect([tooMany.status, tooMany.body.code, tooMany.body.message]).toEqual([409, 'product-return/too-many', 'Solo quedan 2 piezas por devolver de esta venta.']);
    const rest = await giveBack(saleId, { quantity: 2, restock: false, reason: 'Se mojaron' });
    expect(rest.body).toMatchObject({ amount: '50.00', cash_part: '50.00', restocked: false, returnable: 0 });
    expect(await stockOf(water)).toBe(8);
    const again = await giveBack(saleId, { quantity: 1, reason: 'Otra vez' });
    expect([again.status, again.body.message]).toEqual([409, 'Esta venta ya se devolvió completa.']);
    const listed = (await call(server.app, 'GET', `/api/sales/products?customer_id=${mariana}`, { token: recepcion })).body.sales;
    expect(listed.find((s: { product_sale_id: number }) => s.product_sale_id === saleId)).toMatchObject({ quantity: 3, returned: 3, returnable: 0, method: 'Efectivo' });
  });

  it('a split payment gives back its cash part first, the rest on the card beside the drawer', async () => {
    const saleId = await sell({ products: [{ product_id: towel, quantity: 1 }], payment_method_id: card, terminal: { last4: '4242', authorization: 'DEV123' }, cash_part: '30' });
    const listed = (await call(server.app, 'GET', `/api/sales/products?customer_id=${mariana}`, { token: recepcion })).body.sales;
    expect(listed.find((s: { product_sale_id: number }) => s.product_sale_id === saleId)?.method).toBe('Efectivo $30.00 + Tarjeta');
    const back = await giveBack(saleId, { quantity: 1, reason: 'No la usó' });
    expect(back.body).toMatchObject({ amount: '100.00', cash_part: '30.00', restocked: false });
    const shift = (await call(server.app, 'GET', '/api/cash_shifts/current', { token: recepcion })).body.cash_shift;
    const lines = shift.lines.filter((l: { kind: string; title: string }) => l.kind === 'refund' && l.title.startsWith('Toalla'));
    expect(lines.map((l: { amount: string; in_drawer: boolean }) => [l.amount, l.in_drawer])).toEqual([
      ['30.00', true],
      ['70.00', false],
    ]);
  });

  it('a card sale goes back on the card: nothing leaves the drawer', async () => {
    const saleId = await sell({ products: [{ product_id: towel, quantity: 2 }], payment_method_id: card, terminal: { last4: '1111', authorization: 'TAR999' } });
    const back = await giveBack(saleId, { quantity: 1, reason: 'Cobro de más' });
    expect(back.body).toMatchObject({ amount: '100.00', cash_part: '0.00', returnable: 1 });
  });

  it('says in Spanish what is wrong, names an unknown field, and changes nothing', async () => {
    const saleId = await sell({ products: [{ product_id: water, quantity: 1 }], payment_method_id: cash });
    const stock = await stockOf(water);
    const noReason = await giveBack(saleId, { quantity: 1, reason: '  ' });
    expect([noReason.status, noReason.body.field]).toEqual([400, 'reason']);
    expect(noReason.body.message).toContain('Escribe por qué se devuelve.');
    const zero = await giveBack(saleId, { quantity: 0, reason: 'x' });
    expect([zero.status, zero.body.field]).toEqual([400, 'quantity']);
    expect(zero.body.message).toContain('Devuelve al menos una pieza.');
    const unknown = await giveBack(saleId, { quantity: 1, reason: 'x', refund_all: true });
    expect(unknown.body).toMatchObject({ code: 'validation/unknown-field', field: 'refund_all' });
    const missing = await giveBack(999_999, { quantity: 1, reason: 'x' });
    expect([missing.status, missing.body.code]).toEqual([404, 'product-sale/not-found']);
    const customer = await call(server.app, 'POST', `/api/sales/products/${saleId}/return`, { body: { product_sale_id: saleId, quantity: 1, reason: 'x' } });
    expect(customer.status).toBe(401);
    expect(await stockOf(water)).toBe(stock);
  });
});
