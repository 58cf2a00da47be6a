import { eq } from 'drizzle-orm';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { toCents } from '@estudio/core';
import { class_package } from '@estudio/db/schema/packages';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Money never received is neither a sale, a refund, nor cash in the drawer
 * (both drivers). A customer places cash orders and cancels them unpaid: the
 * owner's cash-up and sales do not move, and no refund is offered or taken.
 * An 'Efectivo' order paid by bank transfer is a sale but not drawer cash.
 */
let server: TestServer;
let admin: string;
let cliente: string;
let recepcion: string;
const pkg: Record<string, number> = {};
const today = () => dayjs().tz('America/Mexico_City').format('YYYY-MM-DD');

demoStudio(['admin', 'cliente', 'recepcion'], (s) => ({ server, tokens: { admin, cliente, recepcion } } = s));
beforeAll(async () => {
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
}, 60_000);

interface CashUp {
  expected_cash: string;
  sales: { count: number; total: string };
  refunds: { count: number; total: string };
  lines: { kind: string; purchase_id: number; amount: string }[];
}
const cashUp = async () => (await call(server.app, 'GET', `/api/reports/cash_up?date=${today()}`, { token: admin })).body as CashUp;
const sales = async () =>
  (await call(server.app, 'GET', `/api/reports/sales?start_date=${today()}&end_date=${today()}`, { token: admin })).body as {
    total: string;
    by_method: { method: string; count: number; total: string }[];
  };
const cashOrder = async (title: string) => {
  const res = await call(server.app, 'POST', '/api/checkout', { token: cliente, body: { class_package_id: pkg[title], payment_method: 2 } });
  expect(res.status, res.raw).toBe(200);
  return res.body.purchase_id as number;
};

describe('a cash order cancelled unpaid', () => {
  it('is offered no refund, refunds nothing, and moves neither the cash-up nor the sales, five times over', async () => {
    const before = { cash: await cashUp(), sales: await sales() };
    for (let i = 0; i < 5; i++) {
      const id = await cashOrder('5 Clases');
      const cancelled = await call(server.app, 'POST', `/api/purchases/cancel/${id}`, { token: cliente, body: { reason: 'Ya no voy a ir' } });
      expect(cancelled.status, cancelled.raw).toBe(200);

      const quote = await call(server.app, 'GET', `/api/purchases/${id}/refund`, { token: admin });
      expect(quote.status).toBe(200);
      expect(quote.body).toMatchObject({ paid: '0.00', refundable: '0.00' });
      const refund = await call(server.app, 'POST', `/api/purchases/${id}/refund`, { token: admin, body: { reason: 'Devolución en caja' } });
      expect(refund.status).toBe(409);
      expect(refund.body).toEqual({ code: 'refund/not-paid', message: 'Esta compra no se pagó: no hay nada que reembolsar.' });
      expect(await server.db.select().from(invoice).where(eq(invoice.purchase_id, id))).toEqual([]);
    }
    const after = { cash: await cashUp(), sales: await sales() };
    expect(after.cash.expected_cash).toBe(before.cash.expected_cash);
    expect(after.cash.lines).toEqual(before.cash.lines);
    expect(after.sales.total).toBe(before.sales.total);
  });

  it('collected late, it counts on the day the cash was taken, once', async () => {
    const before = await cashUp();
    const id = await cashOrder('1 Clase');
    expect((await cashUp()).expected_cash).toBe(before.expected_cash);
    const paid = await call(server.app, 'PUT', `/api/purchases/${id}/paid`, { token: recepcion, body: {} });
    expect(paid.status, paid.raw).toBe(200);
    const after = await cashUp();
    expect(toCents(after.expected_cash) - toCents(before.expected_cash)).toBe(18_000);
    expect(after.lines.filter((l) => l.purchase_id === id)).toHaveLength(1);
  });

  it('once its hold lapsed, it cannot be collected: nothing is granted and the drawer does not move', async () => {
    const before = await cashUp();
    const id = await cashOrder('1 Clase');
    // What the clock does to an order not paid within its hold (expire-holds.ts): its place and caps go back.
    await server.db.update(purchase).set({ status: 'failed' }).where(eq(purchase.purchase_id, id));
    const paid = await call(server.app, 'PUT', `/api/purchases/${id}/paid`, { token: recepcion, body: {} });
    expect(paid.status).toBe(409);
    expect(paid.body.code).toBe('purchase/not-pending');
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, id));
    expect(row).toMatchObject({ status: 'failed', paidAt: null });
    expect((await cashUp()).expected_cash).toBe(before.expected_cash);
  });
});

describe('an Efectivo order that came in as a bank transfer', () => {
  it('is a sale by transfer, not cash in the drawer', async () => {
    const before = { cash: await cashUp(), sales: await sales() };
    const id = await cashOrder('5 Clases');
    const paid = await call(server.app, 'PUT', `/api/purchases/${id}/paid`, { token: recepcion, body: { paid_with: 'transfer' } });
    expect(paid.status, paid.raw).toBe(200);
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, id));
    expect(row).toMatchObject({ status: 'completed', paid_with: 'transfer' });
    const after = { cash: await cashUp(), sales: await sales() };
    expect(after.cash.expected_cash).toBe(before.cash.expected_cash);
    expect(toCents(after.sales.total) - toCents(before.sales.total)).toBe(80_000);
    const transfer = after.sales.by_method.find((m) => m.method === 'transfer');
    expect(transfer).toMatchObject({ count: 1, total: '800.00' });
  });

  it('an unknown way of paying is refused in Spanish, naming the field', async () => {
    const id = await cashOrder('1 Clase');
    const res = await call(server.app, 'PUT', `/api/purchases/${id}/paid`, { token: recepcion, body: { paid_with: 'cheque' } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('paid_with');
    expect(res.body.message).not.toMatch(/Invalid|expected/);
  });
});
