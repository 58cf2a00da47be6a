import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { texts } from '@estudio/core';
import { audit_log } from '@estudio/db/schema/audit';
import { outbox_message } from '@estudio/db/schema/outbox';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { product, product_sale } from '@estudio/db/schema/products';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';
import { sellAtDesk } from '../../src/services/desk/sell-at-desk.ts';

/**
 * A sale at the counter (both drivers): packages and products in one cart,
 * one way to pay, a discount code for the packages it applies to. The products
 * come off the shelf in the sale's transaction and never below zero; the money
 * goes into the seller's drawer and into the cash-up and the sales report; a
 * refusal sells nothing at all.
 */
let server: TestServer;
let admin: string;
let recepcion: string;
let mariana: number;
let recepcionId: number;
let cash: number;
let card: number;
let fivePack: { id: number; price: string };
let tenPack: { id: number; price: string };
let water: number;
let socks: number;
demoStudio(['admin', 'recepcion'], (s) => ({ server, tokens: { admin, recepcion } } = s));
beforeAll(async () => {
  mariana = await customerId(server.db, 'cliente@estudio.demo');
  recepcionId = await customerId(server.db, 'recepcion@estudio.demo');
  const methods = await server.db.select().from(payment_method);
  cash = methods.find((m) => m.provider === 'cash')!.payment_method_id;
  card = methods.find((m) => m.provider === 'card')!.payment_method_id;
  const priced = async (title: string) => {
    const [row] = await server.db.select().from(class_package).where(eq(class_package.title, title));
    return { id: row!.class_package_id, price: row!.sale_price && Number(row!.sale_price) > 0 ? row!.sale_price : row!.price };
  };
  fivePack = await priced('5 Clases');
  tenPack = await priced('10 Clases');
  const rows = await server.db
    .insert(product)
    .values([
      { name: 'Agua natural', price: '25.00', stock: 3 },
      { name: 'Calcetas antiderrapantes', price: '180.00', stock: null },
    ])
    .returning({ id: product.product_id });
  [water, socks] = rows.map((r) => r.id) as [number, number];
}, 120_000);

const sell = (token: string, body: Record<string, unknown>) => call(server.app, 'POST', '/api/sales', { token, body: { customer_id: mariana, payment_method_id: cash, ...body } });
const stockOf = async (id: number) => (await server.db.select({ stock: product.stock }).from(product).where(eq(product.product_id, id)))[0]?.stock;
const cents = (money: string) => Math.round(Number(money) * 100);
const salesCount = async () => (await server.db.select().from(product_sale)).length;

describe('a sale at the counter', () => {
  it('sells a package and products in one cart: credits, units off the shelf, one drawer line each, the cash-up and the report', async () => {
    const opened = await call(server.app, 'POST', '/api/cash_shifts', { token: recepcion, body: { opening_float: '500' } });
    expect(opened.status, opened.raw).toBe(200);
    const before = (await server.db.select().from(available_classes).where(eq(available_classes.customer_id, mariana))).length;

    const sold = await sell(recepcion, { packages: [{ class_package_id: fivePack.id }], products: [{ product_id: water, quantity: 2 }, { product_id: socks, quantity: 1 }] });
    expect(sold.status, sold.raw).toBe(200);
    const total = ((cents(fivePack.price) + 2 * 2_500 + 18_000) / 100).toFixed(2);
    expect(sold.body).toMatchObject({ total, discount_code: null });
    expect(sold.body.lines.map((l: { kind: string; title: string; quantity: number; amount: string }) => [l.kind, l.title, l.quantity, l.amount])).toEqual([
      ['package', '5 Clases', 1, (cents(fivePack.price) / 100).toFixed(2)],
      ['product', 'Agua natural', 2, '50.00'],
      ['product', 'Calcetas antiderrapantes', 1, '180.00'],
    ]);
    // The water is counted (3 → 1); the socks are not (still null).
    expect(await stockOf(water)).toBe(1);
    expect(await stockOf(socks)).toBeNull();
    expect((await server.db.select().from(available_classes).where(eq(available_classes.customer_id, mariana))).length).toBeGreaterThan(before);
    const [bought] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, sold.body.lines[0].purchase_id));
    expect(bought).toMatchObject({ provider: 'admin', status: 'completed', payment_method_id: cash, cash_shift_id: opened.body.cash_shift.cash_shift_id });
    // Money taken is a charge even when the caller does not ask for one (`bill` false): it reaches her charges and the CFDI.
    const charges = await server.db.select().from(invoice).where(eq(invoice.purchase_id, bought!.purchase_id));
    expect(charges.map((c) => [c.status, c.total_payment])).toEqual([['completed', bought!.total_payment]]);
    const lines = await server.db.select().from(product_sale).where(eq(product_sale.customer_id, mariana));
    expect(lines.map((l) => [l.title, l.quantity, l.unit_price, l.total, l.staff_id, l.cash_shift_id])).toEqual([
      ['Agua natural', 2, '25.00', '50.00', recepcionId, opened.body.cash_shift.cash_shift_id],
      ['Calcetas antiderrapantes', 1, '180.00', '180.00', recepcionId, opened.body.cash_shift.cash_shift_id],
    ]);

    // The drawer holds every line of the sale, and expects the whole total in cash.
    const shift = (await call(server.app, 'GET', '/api/cash_shifts/current', { token: recepcion })).body.cash_shift;
    expect(shift.expected_cash).toBe(((50_000 + cents(total)) / 100).toFixed(2));
    expect(shift.lines.map((l: { title: string; in_drawer: boolean; product_sale_id: number | null }) => [l.title, l.in_drawer, l.product_sale_id !== null])).toEqual([
      ['5 Clases', true, false],
      ['Agua natural × 2', true, true],
      ['Calcetas antiderrapantes × 1', true, true],
    ]);

    // The day's cash-up and the sales report count the products too.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
    const cashUp = await call(server.app, 'GET', `/api/reports/cash_up?date=${today}`, { token: admin });
    expect(cashUp.status, cashUp.raw).toBe(200);
    expect(cashUp.body.lines.map((l: { title: string }) => l.title)).toEqual(expect.arrayContaining(['Agua natural × 2', 'Calcetas antiderrapantes × 1']));
    const report = await call(server.app, 'GET', `/api/reports/sales?start_date=${today}&end_date=${today}`, { token: admin });
    expect(report.status, report.raw).toBe(200);
    expect(report.body.by_product).toEqual(
      expect.arrayContaining([
        { product_id: socks, title: 'Calcetas antiderrapantes', count: 1, units: 1, total: '180.00' },
        { product_id: water, title: 'Agua natural', count: 1, units: 2, total: '50.00' },
      ]),
    );
    const byMethod: { method: string; total: string }[] = report.body.by_method;
    expect(byMethod.reduce((n, m) => n + cents(m.total), 0)).toBe(cents(report.body.total));

    // One activity row tells the whole sale, with who sold it.
    const [audit] = await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.action, 'sale.desk'), eq(audit_log.entity_id, String(mariana))))
      .orderBy(desc(audit_log.audit_log_id));
    expect(audit).toMatchObject({ customer_id: recepcionId, changes: { total, payment_method_id: cash } });
    await call(server.app, 'PUT', `/api/cash_shifts/${opened.body.cash_shift.cash_shift_id}/close`, { token: recepcion, body: { counted_cash: shift.expected_cash } });
  });

  it('refuses a cart the shelf cannot fill, and sells nothing of it', async () => {
    const purchasesBefore = (await server.db.select().from(purchase).where(eq(purchase.customer_id, mariana))).length;
    const linesBefore = await salesCount();
    const left = await stockOf(water);
    const refused = await sell(recepcion, { packages: [{ class_package_id: fivePack.id }], products: [{ product_id: socks, quantity: 1 }, { product_id: water, quantity: left! + 1 }] });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`Solo quedan ${left} ${left === 1 ? 'pieza' : 'piezas'} de «Agua natural».`);
    expect(await stockOf(water)).toBe(left);
    expect(await salesCount()).toBe(linesBefore);
    expect((await server.db.select().from(purchase).where(eq(purchase.customer_id, mariana))).length).toBe(purchasesBefore);
    // The same product twice in a cart counts as its units together.
    const twice = await sell(recepcion, { products: [{ product_id: water, quantity: left! }, { product_id: water, quantity: 1 }] });
    expect(twice.status).toBe(409);
  });

  it('applies a code to the packages it covers, says the price first, and claims its use with the sale', async () => {
    const quote = await call(server.app, 'POST', '/api/sales/quote', {
      token: recepcion,
      body: { customer_id: mariana, packages: [{ class_package_id: tenPack.id }, { class_package_id: fivePack.id }], discount_code: 'verano200' },
    });
    expect(quote.status, quote.raw).toBe(200);
    const discounted = ((cents(tenPack.price) - 20_000) / 100).toFixed(2);
    expect(quote.body).toEqual({
      discount_code: 'VERANO200',
      packages: [
        { class_package_id: tenPack.id, title: '10 Clases', list_price: (cents(tenPack.price) / 100).toFixed(2), price: discounted, discounted: true },
        { class_package_id: fivePack.id, title: '5 Clases', list_price: (cents(fivePack.price) / 100).toFixed(2), price: (cents(fivePack.price) / 100).toFixed(2), discounted: false },
      ],
    });
    const slip = { last4: '4242', authorization: 'AUT123' };
    const sold = await sell(recepcion, { packages: [{ class_package_id: tenPack.id }], products: [{ product_id: socks, quantity: 2 }], discount_code: 'VERANO200', payment_method_id: card, terminal: slip });
    expect(sold.status, sold.raw).toBe(200);
    expect(sold.body.total).toBe(((cents(discounted) + 36_000) / 100).toFixed(2));
    const [bought] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, sold.body.lines[0].purchase_id));
    expect(bought?.total_payment).toBe(discounted);
    expect(bought?.discount_id).not.toBeNull();
    expect([bought?.terminal_last4, bought?.terminal_auth]).toEqual(['4242', 'AUT123']);
    const [socksLine] = await server.db.select().from(product_sale).where(eq(product_sale.product_sale_id, sold.body.lines[1].product_sale_id));
    expect([socksLine?.terminal_last4, socksLine?.terminal_auth]).toEqual(['4242', 'AUT123']);
    // One e-mailed receipt for the whole cart, as the printed one: no separate receipt for the package.
    const receipts = await server.db
      .select()
      .from(outbox_message)
      .where(and(eq(outbox_message.customer_id, mariana), eq(outbox_message.kind, 'purchase-receipt')))
      .orderBy(desc(outbox_message.outbox_message_id))
      .limit(2);
    const receipt = receipts[0]!;
    expect(receipt).toMatchObject({ channel: 'email', subject: `Recibo de tu compra en recepción: ${texts.thanks.order(bought!.purchase_id)}` });
    expect(receipt.body).toContain('10 Clases (con VERANO200)');
    expect(receipt.body).toContain('Calcetas antiderrapantes × 2');
    expect(receipt.body).toContain('$360.00');
    expect(receipt.body).toContain('Tarjeta ···· 4242 · aut. AUT123');
    expect(receipt.body).toContain('Este comprobante no es una factura (CFDI).');
    expect(receipts[1]?.subject ?? '').not.toContain(texts.thanks.order(bought!.purchase_id));

    // A code for none of the cart's packages, an unknown one, one used up: refused, nothing sold.
    const linesBefore = await salesCount();
    expect((await sell(recepcion, { products: [{ product_id: socks, quantity: 1 }], discount_code: 'VERANO200' })).status).toBe(412);
    expect((await sell(recepcion, { packages: [{ class_package_id: fivePack.id }], discount_code: 'VERANO200' })).status).toBe(412);
    expect((await sell(recepcion, { packages: [{ class_package_id: fivePack.id }], discount_code: 'NOEXISTE' })).status).toBe(404);
    expect((await sell(recepcion, { packages: [{ class_package_id: tenPack.id }], discount_code: 'BUENFIN' })).status).toBe(412);
    expect(await salesCount()).toBe(linesBefore);
  });

  it('splits a payment: the cash part in the drawer and the cash-up, the rest on the card beside it, the report by method adds up', async () => {
    const opened = (await call(server.app, 'POST', '/api/cash_shifts', { token: recepcion, body: { opening_float: '0' } })).body.cash_shift;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
    type SalesByMethod = { by_method: { method: string; total: string }[]; total: string };
    const report = async () => (await call(server.app, 'GET', `/api/reports/sales?start_date=${today}&end_date=${today}`, { token: admin })).body as SalesByMethod;
    const methodTotal = (r: { by_method: { method: string; total: string }[] }, method: string) => cents(r.by_method.find((m) => m.method === method)?.total ?? '0');
    const before = await report();
    const slip = { last4: '1881', authorization: 'SPLIT1' };
    const body = { packages: [{ class_package_id: fivePack.id }], products: [{ product_id: socks, quantity: 1 }], payment_method_id: card, terminal: slip };
    // The cash part is a part: not on cash alone, not all of the total, not nothing.
    expect((await sell(recepcion, { ...body, payment_method_id: cash, terminal: null, cash_part: '100' })).body.message).toBe('Para dividir el pago, elige la tarjeta como forma de pago: el efectivo es la otra parte.');
    const total = cents(fivePack.price) + 18_000;
    expect((await sell(recepcion, { ...body, cash_part: (total / 100).toFixed(2) })).body.message).toBe('La parte en efectivo debe ser mayor que $0 y menor que el total de la venta.');
    expect((await sell(recepcion, { ...body, cash_part: 'mucho' })).body.message).toContain('Escribe la parte en efectivo en pesos');

    const cashPart = cents(fivePack.price) + 5_000; // the package in cash and $50 of the socks
    const sold = await sell(recepcion, { ...body, cash_part: (cashPart / 100).toFixed(2) });
    expect(sold.status, sold.raw).toBe(200);
    expect(sold.body.cash_part).toBe((cashPart / 100).toFixed(2));
    const [bought] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, sold.body.lines[0].purchase_id));
    const [socksLine] = await server.db.select().from(product_sale).where(eq(product_sale.product_sale_id, sold.body.lines[1].product_sale_id));
    expect([bought?.cash_part, socksLine?.cash_part]).toEqual([(cents(fivePack.price) / 100).toFixed(2), '50.00']);

    const shift = (await call(server.app, 'GET', '/api/cash_shifts/current', { token: recepcion })).body.cash_shift;
    expect(shift.expected_cash).toBe((cashPart / 100).toFixed(2));
    expect(shift.other_sales.total).toBe(((total - cashPart) / 100).toFixed(2));
    expect(shift.lines.map((l: { title: string; amount: string; method: string; terminal: unknown }) => [l.title, l.amount, l.method, l.terminal])).toEqual([
      ['5 Clases (pago dividido)', (cents(fivePack.price) / 100).toFixed(2), 'cash', null],
      ['5 Clases (pago dividido)', '0.00', 'card', slip],
      ['Calcetas antiderrapantes × 1 (pago dividido)', '50.00', 'cash', null],
      ['Calcetas antiderrapantes × 1 (pago dividido)', '130.00', 'card', slip],
    ].filter((l) => l[1] !== '0.00'));
    const cashUp = (await call(server.app, 'GET', `/api/reports/cash_up?date=${today}`, { token: admin })).body;
    expect(cashUp.lines.filter((l: { title: string }) => l.title.endsWith('(pago dividido)')).map((l: { amount: string }) => l.amount)).toEqual([(cents(fivePack.price) / 100).toFixed(2), '50.00']);
    const after = await report();
    expect(methodTotal(after, 'cash') - methodTotal(before, 'cash')).toBe(cashPart);
    expect(methodTotal(after, 'card') - methodTotal(before, 'card')).toBe(total - cashPart);
    expect(after.by_method.reduce((n, m) => n + cents(m.total), 0)).toBe(cents(after.total));
    await call(server.app, 'PUT', `/api/cash_shifts/${opened.cash_shift_id}/close`, { token: recepcion, body: { counted_cash: shift.expected_cash } });
  });

  it('says in Spanish what is wrong with a cart, and names an unknown field', async () => {
    const empty = await sell(recepcion, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Agrega al menos un paquete o un producto a la venta.');
    const zero = await sell(recepcion, { products: [{ product_id: socks, quantity: 0 }] });
    expect(zero.status).toBe(400);
    expect(zero.body.message).toContain('Escribe al menos una pieza.');
    const unknown = await sell(recepcion, { products: [{ product_id: socks, quantity: 1 }], descuento: 10 });
    expect(unknown.status).toBe(400);
    expect(unknown.raw).toContain('descuento');
    const slipOnCash = await sell(recepcion, { products: [{ product_id: socks, quantity: 1 }], terminal: { last4: '4242', authorization: 'AUT123' } });
    expect(slipOnCash.status).toBe(400);
    expect(slipOnCash.body.message).toBe('Los datos de la terminal (últimos 4 dígitos y autorización) van solo con un cobro con tarjeta.');
    const gone = await sell(recepcion, { products: [{ product_id: 999_999, quantity: 1 }] });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('No encontramos este producto; quizá ya no se vende.');
    expect((await call(server.app, 'POST', '/api/sales', { body: { customer_id: mariana, payment_method_id: cash, products: [{ product_id: socks, quantity: 1 }] } })).status).toBe(401);
  });

  it('a sale sent later by a desk is one sale: its products and its packages on the same moment, in the drawer open when it was made', async () => {
    const madeAt = new Date(Date.now() - 3 * 60_000);
    const sale = await sellAtDesk(
      server.db,
      { customer_id: recepcionId, desk: { id: 'mostrador-1', at: madeAt } },
      { customer_id: mariana, packages: [{ class_package_id: fivePack.id, package_days: null }], products: [{ product_id: socks, quantity: 1 }], discount_code: null, payment_method_id: cash, bill: false, terminal: null, cash_part: null },
      null,
    );
    const [line] = await server.db.select().from(product_sale).where(eq(product_sale.product_sale_id, sale.lines[1]!.product_sale_id!));
    const [bought] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, sale.lines[0]!.purchase_id!));
    expect(line?.paidAt.getTime()).toBe(bought?.paidAt?.getTime());
    // No drawer was open at the desk's time: the sale is in none.
    expect([line?.cash_shift_id, bought?.cash_shift_id]).toEqual([null, null]);
  });
});
