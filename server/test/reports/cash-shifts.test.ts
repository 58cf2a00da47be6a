import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { purchase } from '@estudio/db/schema/purchases';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';
import { giveAccess } from '../../src/services/desk/give-access.ts';

/**
 * The shifts at the cash drawer (both drivers): Recepción opens its drawer with
 * a float, its cash sales at the desk go into it and a card on the terminal is
 * listed beside it, a cash refund comes out of the refunder's drawer, and the
 * close keeps the count, the difference and why. One open drawer per person,
 * also when two opens race; Recepción reads and closes only its own.
 */
let server: TestServer;
let admin: string;
let recepcion: string;
let mariana: number;
let recepcionId: number;
let cash: number;
let card: number;
let pkg: { id: number; price: string };
demoStudio(['admin', 'recepcion'], (s) => ({ server, tokens: { admin, recepcion } } = s));
beforeAll(async () => {
  mariana = await customerId(server.db, 'cliente@estudio.demo');
  recepcionId = await customerId(server.db, 'recepcion@estudio.demo');
  const methods = await server.db.select().from(payment_method);
  cash = methods.find((m) => m.provider === 'cash')!.payment_method_id;
  card = methods.find((m) => m.provider === 'card')!.payment_method_id;
  const [row] = await server.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
  pkg = { id: row!.class_package_id, price: row!.sale_price && Number(row!.sale_price) > 0 ? row!.sale_price : row!.price };
}, 120_000);

const sell = (token: string, payment_method_id: number, terminal?: Record<string, unknown>) =>
  call(server.app, 'POST', '/api/customer/giveAccess', { token, body: { customer_id: mariana, class_package_id: pkg.id, payment_method_id, is_gift: false, ...(terminal ? { terminal } : {}) } });
const current = async (token: string) => (await call(server.app, 'GET', '/api/cash_shifts/current', { token })).body.cash_shift;
const cents = (money: string) => Math.round(Number(money) * 100);

describe('the cash drawer', () => {
  it('opens with a float, holds the cash sales, lists the card beside them, and closes with the difference explained', async () => {
    const [first, second] = await Promise.all([
      call(server.app, 'POST', '/api/cash_shifts', { token: recepcion, body: { opening_float: '500' } }),
      call(server.app, 'POST', '/api/cash_shifts', { token: recepcion, body: { opening_float: '500' } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const refused = first.status === 409 ? first : second;
    expect(refused.body.message).toBe('Ya tienes la caja abierta: ciérrala antes de abrir otro turno.');
    const shift = (first.status === 200 ? first : second).body.cash_shift;
    expect(shift).toMatchObject({ staff_id: recepcionId, opening_float: '500.00', expected_cash: '500.00', closed_at: null, counted_cash: null });

    const inCash = await sell(recepcion, cash);
    expect(inCash.status, inCash.raw).toBe(200);
    // The terminal's slip goes with a card only, in the slip's own shape; a refusal sells nothing.
    const slip = { last4: '4242', authorization: 'A1B2C3' };
    const onCash = await sell(recepcion, cash, slip);
    expect(onCash.status).toBe(400);
    expect(onCash.body.message).toBe('Los datos de la terminal (últimos 4 dígitos y autorización) van solo con un cobro con tarjeta.');
    expect((await sell(recepcion, card, { last4: '42', authorization: 'A1B2C3' })).body.message).toContain('Escribe los últimos 4 dígitos de la tarjeta.');
    const onCard = await sell(recepcion, card, slip);
    expect(onCard.status, onCard.raw).toBe(200);
    const [carded] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, onCard.body.purchase_id));
    expect([carded?.terminal_last4, carded?.terminal_auth]).toEqual(['4242', 'A1B2C3']);
    const open = await current(recepcion);
    expect(open.cash_sales).toEqual({ count: 1, total: (cents(pkg.price) / 100).toFixed(2) });
    expect(open.other_sales).toEqual({ count: 1, total: (cents(pkg.price) / 100).toFixed(2) });
    const expected = ((50_000 + cents(pkg.price)) / 100).toFixed(2);
    expect(open.expected_cash).toBe(expected);
    expect(open.lines.map((l: { in_drawer: boolean; method: string; terminal: unknown }) => [l.in_drawer, l.method, l.terminal])).toEqual([
      [true, 'cash', null],
      [false, 'card', slip],
    ]);

    // The owner hands back part of the cash sale from her own drawer: it leaves hers, not Recepción's.
    const own = await call(server.app, 'POST', '/api/cash_shifts', { token: admin, body: { opening_float: '1,000.00' } });
    expect(own.status, own.raw).toBe(200);
    const refund = await call(server.app, 'POST', `/api/purchases/${inCash.body.purchase_id}/refund`, { token: admin, body: { reason: 'Se mudó de ciudad', amount: '100' } });
    expect(refund.status, refund.raw).toBe(200);
    expect((await current(admin)).expected_cash).toBe('900.00');
    expect((await current(admin)).cash_refunds).toEqual({ count: 1, total: '100.00' });
    expect((await current(recepcion)).expected_cash).toBe(expected);

    // Recepción cannot close the owner's drawer, nor close its own short without a word.
    const notYours = await call(server.app, 'PUT', `/api/cash_shifts/${own.body.cash_shift.cash_shift_id}/close`, { token: recepcion, body: { counted_cash: '900' } });
    expect(notYours.status).toBe(403);
    const close = (body: Record<string, unknown>) => call(server.app, 'PUT', `/api/cash_shifts/${shift.cash_shift_id}/close`, { token: recepcion, body });
    const short = (cents(expected) - 5_000) / 100;
    const silent = await close({ counted_cash: short });
    expect(silent.status).toBe(400);
    expect(silent.body.message).toBe('La caja no cuadra: escribe qué pasó con la diferencia antes de cerrar.');
    const typo = await close({ counted_cash: 'quinientos' });
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({ field: 'counted_cash', message: expect.stringContaining('Escribe el efectivo contado en pesos, con hasta dos decimales.') });
    expect((await close({ counted_cash: short, nota: 'x' })).raw).toContain('nota');
    expect(await current(recepcion)).not.toBeNull();

    const closed = await close({ counted_cash: short, note: 'Se dio cambio de más a una clienta.' });
    expect(closed.status, closed.raw).toBe(200);
    expect(closed.body.cash_shift).toMatchObject({ expected_cash: expected, counted_cash: short.toFixed(2), difference: '-50.00', note: 'Se dio cambio de más a una clienta.' });
    expect(await current(recepcion)).toBeNull();
    expect((await close({ counted_cash: short, note: 'Otra vez' })).status).toBe(409);

    // A sale after the close is in no drawer (the day's cash-up still counts it).
    const after = await sell(recepcion, cash);
    const [late] = await server.db.select({ shift: purchase.cash_shift_id }).from(purchase).where(eq(purchase.purchase_id, after.body.purchase_id));
    expect(late?.shift).toBeNull();

    const [audit] = await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.action, 'cash_shift.close'), eq(audit_log.entity_id, String(shift.cash_shift_id))))
      .orderBy(desc(audit_log.audit_log_id));
    expect(audit).toMatchObject({ customer_id: recepcionId, changes: { counted_cash: short.toFixed(2), difference: '-50.00' } });
    const activity = await call(server.app, 'GET', '/api/activity?kind=cashShift', { token: admin });
    expect(activity.raw).toContain('cerró la caja: contó');
    expect(activity.raw).toContain('faltaron $50.00 — «Se dio cambio de más a una clienta.»');

    // The owner sees every drawer; Recepción its own.
    const all = await call(server.app, 'GET', '/api/cash_shifts', { token: admin });
    expect(all.body.cash_shifts.map((s: { cash_shift_id: number }) => s.cash_shift_id)).toEqual(expect.arrayContaining([shift.cash_shift_id, own.body.cash_shift.cash_shift_id]));
    const mine = await call(server.app, 'GET', '/api/cash_shifts', { token: recepcion });
    expect(mine.body.cash_shifts.every((s: { staff_id: number }) => s.staff_id === recepcionId)).toBe(true);

    // The owner closes her drawer, counted right: no word needed.
    const hers = await call(server.app, 'PUT', `/api/cash_shifts/${own.body.cash_shift.cash_shift_id}/close`, { token: admin, body: { counted_cash: '900' } });
    expect(hers.body.cash_shift).toMatchObject({ difference: '0.00', note: null });
  });

  it('a sale kept offline goes into the drawer that was open when it was made, at the desk', async () => {
    const shift = (await call(server.app, 'POST', '/api/cash_shifts', { token: recepcion, body: { opening_float: 0 } })).body.cash_shift;
    const opened = new Date(shift.opened_at).getTime();
    const sale = (at: number) =>
      giveAccess(
        server.db,
        { customer_id: recepcionId, desk: { id: 'mostrador-1', at: new Date(at) } },
        { customer_id: mariana, class_package_id: pkg.id, package_days: null, is_gift: false, payment_method_id: cash, bill: false, reason: null, terminal: null },
        null,
      );
    // Made at the desk before the drawer was opened, it reached the server after: in no drawer.
    const before = await sale(opened - 60_000);
    const during = await sale(opened + 1_000);
    expect([before.cash_shift_id, during.cash_shift_id]).toEqual([null, shift.cash_shift_id]);
    expect((await current(recepcion)).cash_sales.count).toBe(1);
    await call(server.app, 'PUT', `/api/cash_shifts/${shift.cash_shift_id}/close`, { token: recepcion, body: { counted_cash: (await current(recepcion)).expected_cash } });
  });
});
