import { and, eq } from 'drizzle-orm';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchaseStatusKey, toCents } from '@estudio/core';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { stripeEnv } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The owner's money. A studio owner sells at the desk, refunds,
 * and reads the day's cash-up and the sales by payment method; card refunds go
 * through Stripe (the loopback fake speaking Stripe's API).
 */
let fake: StripeFake;
let server: TestServer;
let admin: string;
let adminId: number;
let recepcion: string;
let mariana: number;
const pkg: Record<string, number> = {};
const today = () => dayjs().tz('America/Mexico_City').format('YYYY-MM-DD');

beforeAll(async () => {
  fake = await startStripeFake();
  server = await startTestServer({ ...stripeEnv(fake), ...(process.env.RACE_LOG ? { LOG_LEVEL: 'error' } : {}) });
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  recepcion = (await login(server.app, 'recepcion@estudio.demo')).idToken;
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
  const ids = Object.fromEntries((await server.db.select().from(customer)).map((c) => [c.email, c.customer_id]));
  mariana = ids['cliente@estudio.demo']!;
  adminId = ids['admin@estudio.demo']!;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const sales = async () =>
  (await call(server.app, 'GET', `/api/reports/sales?start_date=${today()}&end_date=${today()}`, { token: admin })).body as {
    count: number;
    total: string;
    net: string;
    by_method: { method: string; count: number; total: string }[];
    refunds: { count: number; total: string; by_method: { method: string; count: number; total: string }[] };
  };
const cashUp = async () => (await call(server.app, 'GET', `/api/reports/cash_up?date=${today()}`, { token: admin })).body as { expected_cash: string; sales: { count: number; total: string }; refunds: { count: number; total: string }; lines: { kind: string; purchase_id: number; amount: string }[] };
const totalPaid = async () => ((await call(server.app, 'GET', `/api/customer/admin/${mariana}`, { token: admin })).body as { purchases_summary: { total_paid: string } }).purchases_summary.total_paid;
const methodTotal = (rows: { method: string; total: string }[], method: string) => toCents(rows.find((r) => r.method === method)?.total ?? '0');
const sellAtDesk = async (title: string, payment_method_id: number) => {
  const res = await call(server.app, 'POST', '/api/customer/giveAccess', { token: admin, body: { customer_id: mariana, class_package_id: pkg[title], payment_method_id, bill: true } });
  expect(res.status).toBe(200);
  return res.body.purchase_id as number;
};
const refund = (id: number, body: Record<string, unknown>, token = admin) => call(server.app, 'POST', `/api/purchases/${id}/refund`, { token, body });

describe('a cash sale refunded at the desk', () => {
  it("shows in the day's cash-up and by method; the refund takes it out of the drawer, removes the credits and is audited", async () => {
    const before = { sales: await sales(), cash: await cashUp() };
    const id = await sellAtDesk('10 Clases', 2);
    const sold = { sales: await sales(), cash: await cashUp() };
    expect(methodTotal(sold.sales.by_method, 'cash')).toBe(methodTotal(before.sales.by_method, 'cash') + 135_000);
    expect(toCents(sold.cash.expected_cash)).toBe(toCents(before.cash.expected_cash) + 135_000);
    expect(sold.cash.lines.find((l) => l.purchase_id === id)).toMatchObject({ kind: 'sale', amount: '1350.00' });
    const credits = await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id));
    expect(credits.map((c) => c.available_classes)).toEqual([10]);

    // No reason: a Spanish refusal naming what is missing, nothing changes.
    const noReason = await refund(id, { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toContain('motivo del reembolso');
    // Reception cannot refund.
    expect((await refund(id, { reason: 'Se equivocó de paquete' }, recepcion)).status).toBe(403);

    const done = await refund(id, { reason: 'Se equivocó de paquete' });
    expect(done.status).toBe(200);
    expect(done.body.refund).toMatchObject({ purchase_id: id, purchase_status: 'revoked', amount: '1350.00', method: 'cash', reason: 'Se equivocó de paquete', provider_refund_id: null, credits_removed: 1, refunded_by: adminId });
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, id));
    expect(row).toMatchObject({ status: 'revoked', cancel_reason: 'Se equivocó de paquete' });
    expect((await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id)))[0]?.deletedAt).not.toBeNull();
    const [audit] = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'purchase'), eq(audit_log.entity_id, String(id)), eq(audit_log.action, 'refund')));
    expect(audit).toMatchObject({ customer_id: adminId, changes: { amount: '1350.00', reason: 'Se equivocó de paquete', method: 'cash' } });

    // The sale stays on its day (gross), the refund is on its own: the drawer and the net go back.
    const after = { sales: await sales(), cash: await cashUp() };
    expect(after.sales.total).toBe(sold.sales.total);
    expect(toCents(after.sales.refunds.total)).toBe(toCents(before.sales.refunds.total) + 135_000);
    expect(toCents(after.sales.net)).toBe(toCents(before.sales.net));
    expect(after.cash.expected_cash).toBe(before.cash.expected_cash);
    expect(after.cash.lines.filter((l) => l.purchase_id === id).map((l) => l.kind)).toEqual(['sale', 'refund']);

    // A second refund is refused; so is revoking what is already gone.
    const again = await refund(id, { reason: 'Otra vez' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'refund/already-refunded', message: 'Esta compra ya fue reembolsada.' });
    expect((await server.db.select().from(invoice).where(and(eq(invoice.purchase_id, id), eq(invoice.status, 'refunded'))))).toHaveLength(1);
  });

  it('a purchase with classes used refunds only the unused share, and says how much', async () => {
    const id = await sellAtDesk('5 Clases', 2);
    // Two of the five classes are spent (the credit row is what a booking takes).
    await server.db.update(available_classes).set({ available_classes: 3 }).where(eq(available_classes.purchase_id, id));
    const [credit] = await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id));
    const reservations = (await import('@estudio/db/schema/reservations')).class_reservation;
    const classes = (await import('@estudio/db/schema/schedule')).single_class;
    const two = await server.db.select().from(classes).limit(2);
    await server.db.insert(reservations).values(two.map((c) => ({ single_class_id: c.single_class_id, customer_id: mariana, available_class_id: credit!.available_class_id })));

    const quote = await call(server.app, 'GET', `/api/purchases/${id}/refund`, { token: admin });
    expect(quote.body).toMatchObject({ purchase_id: id, paid: '800.00', used: 2, refundable: '480.00', method: 'cash', through_provider: false, already_refunded: false });
    const full = await refund(id, { reason: 'Se cambia de ciudad' });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('Ya se usaron 2 clases de esta compra: puedes reembolsar hasta $480.00.');
    const paidBefore = await totalPaid();
    const partial = await refund(id, { reason: 'Se cambia de ciudad', amount: '480' });
    expect(partial.status).toBe(200);
    expect(partial.body.refund).toMatchObject({ amount: '480.00', credits_removed: 1 });
    // The customer's record keeps what the studio kept of it ($320 of $800), under its own status.
    expect(toCents(await totalPaid())).toBe(toCents(paidBefore) - 48_000);
    const card = (await call(server.app, 'GET', `/api/customer/admin/${mariana}`, { token: admin })).body as { purchases: { purchase_id: number; status: string; invoices: { status: string; total_payment: string }[] }[] };
    const refunded = card.purchases.find((p) => p.purchase_id === id)!;
    expect(purchaseStatusKey(refunded)).toBe('refunded');
    // The purchase carries its own mark, for the desk's replica (which holds no invoices).
    const [row] = await server.db.select({ refundedAt: purchase.refundedAt, status: purchase.status }).from(purchase).where(eq(purchase.purchase_id, id));
    expect(purchaseStatusKey({ status: row!.status, refundedAt: row!.refundedAt })).toBe('refunded');
  });

  it('a gift has no money to give back', async () => {
    const res = await call(server.app, 'POST', '/api/customer/giveAccess', { token: admin, body: { customer_id: mariana, class_package_id: pkg['1 Clase'], is_gift: true, reason: 'Cortesía' } });
    const refused = await refund(res.body.purchase_id, { reason: 'Cortesía' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('refund/nothing-paid');
  });
});

describe('a card purchase refunded through Stripe', () => {
  it('asks Stripe for the refund with the amount and an idempotency key, and reports it under card', async () => {
    const nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
    const paid = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { payment_method: 1, class_package_id: pkg['1 Clase'], payment_method_token: 'pm_card_visa' } });
    expect(paid.status).toBe(200);
    const id = paid.body.purchase_id as number;
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, id));
    expect(row).toMatchObject({ status: 'completed', provider: 'stripe' });
    const before = await sales();

    const done = await refund(id, { reason: 'Cobro duplicado' });
    expect(done.status).toBe(200);
    expect(done.body.refund.provider_refund_id).toMatch(/^re_/);
    const request = fake.requests.find((r) => r.path === '/v1/refunds' && r.form.payment_intent === row!.provider_payment_id);
    expect(request).toMatchObject({ idempotencyKey: `purchase-${id}-admin-refund`, form: { amount: String(toCents(row!.total_payment)), reason: 'requested_by_customer' } });
    expect(fake.objects.get(done.body.refund.provider_refund_id)).toMatchObject({ amount: toCents(row!.total_payment), status: 'succeeded' });
    const after = await sales();
    expect(methodTotal(after.refunds.by_method, 'card')).toBe(methodTotal(before.refunds.by_method, 'card') + toCents(row!.total_payment));
  });

  it('a Stripe outage refunds nothing and records nothing', async () => {
    const nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
    const paid = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { payment_method: 1, class_package_id: pkg['1 Clase'], payment_method_token: 'pm_card_visa' } });
    const id = paid.body.purchase_id as number;
    fake.failing.add('/v1/refunds');
    try {
      const refused = await refund(id, { reason: 'Cobro duplicado' });
      expect(refused.status).toBeGreaterThanOrEqual(500);
    } finally {
      fake.failing.delete('/v1/refunds');
    }
    expect((await server.db.select().from(purchase).where(eq(purchase.purchase_id, id)))[0]?.status).toBe('completed');
    expect(await server.db.select().from(invoice).where(and(eq(invoice.purchase_id, id), eq(invoice.status, 'refunded')))).toHaveLength(0);
    expect((await refund(id, { reason: 'Cobro duplicado' })).status).toBe(200);
  });
});

describe('GET /api/reports/export', () => {
  /** The file as Excel reads it: the BOM, then comma-separated rows (quoted cells may hold commas). */
  const parse = (text: string) => {
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows: string[][] = [];
    let row: string[] = [];
    let cellText = '';
    let quoted = false;
    const endCell = () => {
      row.push(cellText);
      cellText = '';
    };
    for (let i = 1; i < text.length; i++) {
      const ch = text[i]!;
      if (quoted && ch === '"' && text[i + 1] === '"') {
        cellText += '"';
        i++;
      } else if (ch === '"') quoted = !quoted;
      else if (quoted) cellText += ch;
      else if (ch === ',') endCell();
      else if (ch === '\r' && text[i + 1] === '\n') {
        endCell();
        rows.push(row);
        row = [];
        i++;
      } else cellText += ch;
    }
    return rows;
  };
  const download = async (kind: string, token = admin) => {
    const res = await server.app.inject({ method: 'GET', url: `/api/reports/export?kind=${kind}&start_date=${today()}&end_date=${today()}`, headers: { authorization: `Bearer ${token}` } });
    return res;
  };

  it('purchases: a sale just made, a revoked one and a refunded one, each as it is, in Spanish', async () => {
    const sold = await sellAtDesk('1 Clase', 2);
    const revoked = await sellAtDesk('1 Clase', 1);
    expect((await call(server.app, 'PUT', '/api/customer/revokeAccess', { token: admin, body: { purchase_id: revoked, reason: 'Se cargó por error' } })).status).toBe(200);
    const refunded = await sellAtDesk('1 Clase', 2);
    expect((await refund(refunded, { reason: 'No pudo venir, "mudanza"' })).status).toBe(200);

    const res = await download('purchases');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="compras_${today()}_${today()}.csv"`);
    const [header, ...rows] = parse(res.body);
    expect(header).toEqual(['ID compra', 'Fecha', 'ID cliente', 'Cliente', 'Correo', 'Paquete', 'Precio', 'Pagado', 'Forma de pago', 'Estado', 'Código de descuento', 'Reembolsado', 'Fecha de reembolso', 'Motivo']);
    const byId = new Map(rows.map((r) => [Number(r[0]), r]));
    expect(byId.get(sold)?.slice(3, 10)).toEqual(['Mariana López', 'cliente@estudio.demo', '1 Clase', '180.00', '180.00', 'Efectivo', 'Pagada']);
    expect(byId.get(revoked)?.[8]).toBe('Tarjeta');
    expect(byId.get(revoked)?.[9]).toBe('Revocada');
    expect(byId.get(refunded)?.slice(9)).toEqual(['Reembolsada', '', '180.00', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/), 'No pudo venir, "mudanza"']);
    expect(rows.every((r) => r.length === header!.length)).toBe(true);
  });

  it('customers, reservations and attendance have their columns; reception is refused', async () => {
    const [customers, reservations, attendance] = await Promise.all([download('customers'), download('reservations'), download('attendance')]);
    expect(parse(customers.body)[0]).toEqual(['ID cliente', 'Nombre', 'Apellidos', 'Correo', 'Teléfono', 'Rol', 'Membresía ilimitada', 'Alta']);
    const res = parse(reservations.body);
    expect(res[0]).toEqual(['ID reservación', 'Clase (fecha)', 'Clase', 'Ubicación', 'Coach', 'ID cliente', 'Cliente', 'Correo', 'Lugar', 'Invitado', 'Estado', 'Asistió', 'Reservada el']);
    const att = parse(attendance.body);
    expect(att[0]).toEqual(['ID clase', 'Fecha', 'Clase', 'Ubicación', 'Coach', 'Capacidad', 'Reservaciones', 'Invitados', 'Asistencias', 'Ocupación %', 'Estado']);
    // Today's classes of the seed (none on some days), each with today's date.
    expect(att.slice(1).every((r) => r[1]!.startsWith(today()))).toBe(true);
    const refused = await download('purchases', recepcion);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden' });
    const bad = await server.app.inject({ method: 'GET', url: `/api/reports/export?kind=facturas&start_date=${today()}&end_date=${today()}`, headers: { authorization: `Bearer ${admin}` } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Elige qué exportar');
  });
});
