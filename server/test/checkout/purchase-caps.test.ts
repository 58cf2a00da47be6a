import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { discount, discount_use } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { call, login, startTestServer, testSecret, type TestServer } from '../support/helpers.ts';
import { createBookers } from '../support/reservations-fixtures.ts';

/**
 * Breaks 1 and 5, one customer at a time (both drivers): every cap
 * is checked again when a purchase is paid, so an attempt that was failed or
 * superseded cannot be paid past a cap; unpaid cash holds lapse.
 * The concurrent versions are in attack-caps.postgres.test.ts.
 */
const cardMethod = 1;
const cashMethod = 2;

describe('purchase caps hold when a purchase is paid', () => {
  let t: TestServer;
  let customerToken: string;
  let staffToken: string;
  beforeAll(async () => {
    t = await startTestServer();
    customerToken = (await login(t.app, 'cliente@estudio.demo')).idToken;
    staffToken = (await login(t.app, 'recepcion@estudio.demo')).idToken;
  });
  afterAll(async () => {
    await t?.close();
  });

  const newPackage = async (title: string, values: Partial<typeof class_package.$inferInsert> = {}) => {
    const [row] = await t.db
      .insert(class_package)
      .values({ title, price: '500.00', class_amount: 1, expiration_days: 30, is_special_event: true, ...values })
      .returning({ id: class_package.class_package_id });
    return row!.id;
  };
  const attempt = (token: string, body: Record<string, unknown>) => call(t.app, 'POST', '/api/checkout/attempt', { token, body: { payment_method: cardMethod, ...body } });
  const confirm = (token: string, clientSecret: string) => call(t.app, 'POST', '/api/checkout/confirm', { token, body: { clientSecret, payment_method_token: 'pm_card_visa' } });
  const paidOf = async (packageId: number) =>
    t.db.select().from(purchase).where(and(eq(purchase.class_package_id, packageId), inArray(purchase.status, ['active', 'completed'])));

  it('a code for 1 use per customer and 2 in all: 6 card attempts confirmed one after another pay once, at the discounted price', async () => {
    const packageId = await newPackage('Código de una vez');
    const [code] = await t.db.insert(discount).values({ code: 'UNAVEZ50', amount: '50', is_percent: true, max_uses: 2, max_uses_per_customer: 1 }).returning();
    const secrets: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await attempt(customerToken, { class_package_id: packageId, discountCode: 'UNAVEZ50' });
      expect(res.status, res.raw).toBe(200);
      secrets.push(res.body.clientSecret as string);
    }
    const confirmed = [];
    for (const secret of secrets) confirmed.push(await confirm(customerToken, secret));
    expect(confirmed.filter((r) => r.status === 200)).toHaveLength(1);
    for (const refused of confirmed.filter((r) => r.status !== 200)) {
      expect(refused.status).toBe(412);
      expect(refused.body.message).toBe('Lo sentimos, ya has agotado este descuento.');
    }
    const paid = await paidOf(packageId);
    expect(paid.map((p) => p.total_payment)).toEqual(['250.00']);
    const [after] = await t.db.select().from(discount).where(eq(discount.discount_id, code!.discount_id));
    expect(after?.uses).toBe(1);
    const uses = await t.db.select().from(discount_use).where(eq(discount_use.discount_id, code!.discount_id));
    expect(uses.map((u) => u.purchase_id)).toEqual([paid[0]!.purchase_id]);
  });

  it('a package limited to 1 per customer and 3 people: 4 attempts of one customer, all confirmed, sell 1', async () => {
    const packageId = await newPackage('Uno por persona', { limit_per_customer: 1, people_limit: 3 });
    const secrets: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await attempt(customerToken, { class_package_id: packageId });
      expect(res.status, res.raw).toBe(200);
      secrets.push(res.body.clientSecret as string);
    }
    const confirmed = [];
    for (const secret of secrets) confirmed.push(await confirm(customerToken, secret));
    expect(confirmed.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(confirmed.find((r) => r.status === 409)?.body.message).toBe('Lo sentimos, ya has alcanzado el límite de compras de este paquete.');
    expect(await paidOf(packageId)).toHaveLength(1);
    const credits = await t.db
      .select()
      .from(available_classes)
      .where(inArray(available_classes.purchase_id, (await paidOf(packageId)).map((p) => p.purchase_id)));
    expect(credits).toHaveLength(1);
  });

  it('an attempt the customer retried is still paid when no cap stands in the way (retry after closing the card form)', async () => {
    const packageId = await newPackage('Sin límites');
    const first = await attempt(customerToken, { class_package_id: packageId });
    const second = await attempt(customerToken, { class_package_id: packageId });
    expect((await confirm(customerToken, first.body.clientSecret as string)).status).toBe(200);
    expect((await confirm(customerToken, second.body.clientSecret as string)).status).toBe(200);
    expect(await paidOf(packageId)).toHaveLength(2);
  });

  it('unpaid cash checkouts hold an event’s places for cash_hold_hours, then lapse and free them; staff cannot collect a lapsed one past the limit', async () => {
    const packageId = await newPackage('Evento de 5 lugares', { price: '300.00', people_limit: 5 });
    const holders = await createBookers(t.db, testSecret, 5, { prefix: 'apartado-efectivo', credits: 0 });
    for (const h of holders) {
      const res = await call(t.app, 'POST', '/api/checkout', { token: h.token, body: { class_package_id: packageId, payment_method: cashMethod } });
      expect(res.status, res.raw).toBe(200);
    }
    const [payer] = await createBookers(t.db, testSecret, 1, { prefix: 'apartado-pagador', credits: 0 });
    const refused = await attempt(payer!.token, { class_package_id: packageId, payment_method_token: 'pm_card_visa' });
    expect(refused.status).toBe(412);
    expect(refused.body.code).toBe('package/people-limit');

    // A day later than the studio's hold (24 h by default) nobody came to pay.
    const [hold] = await t.db.select().from(app_config).where(eq(app_config.key, 'cash_hold_hours'));
    expect(hold?.value).toBe('24');
    await t.db
      .update(purchase)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(and(eq(purchase.class_package_id, packageId), eq(purchase.provider, 'cash')));
    const bought = await attempt(payer!.token, { class_package_id: packageId, payment_method_token: 'pm_card_visa' });
    expect(bought.status, bought.raw).toBe(200);
    expect(await paidOf(packageId)).toHaveLength(1);

    // Four more pay by card; the event is full again, so a lapsed cash hold cannot be collected at the desk.
    const late = await createBookers(t.db, testSecret, 4, { prefix: 'apartado-tarde', credits: 0 });
    for (const l of late) expect((await attempt(l.token, { class_package_id: packageId, payment_method_token: 'pm_card_visa' })).status).toBe(200);
    const [lapsed] = await t.db.select().from(purchase).where(and(eq(purchase.class_package_id, packageId), eq(purchase.provider, 'cash')));
    const collected = await call(t.app, 'PUT', `/api/purchases/${lapsed!.purchase_id}/paid`, { token: staffToken });
    expect([409, 412]).toContain(collected.status);
    expect(await paidOf(packageId)).toHaveLength(5);
  });

  it('a declined card leaves no order in the customer’s purchases (nothing was charged); staff still see the attempt', async () => {
    const packageId = await newPackage('Tarjeta rechazada');
    const declined = await attempt(customerToken, { class_package_id: packageId, payment_method_token: 'pm_card_visa_chargeDeclinedInsufficientFunds' });
    expect(declined.status).toBe(402);
    const mine = await call(t.app, 'GET', '/api/purchases', { token: customerToken });
    expect(mine.body.purchases.filter((p: { title: string }) => p.title === 'Tarjeta rechazada')).toEqual([]);
    const [attemptRow] = await t.db.select().from(purchase).where(eq(purchase.class_package_id, packageId));
    expect(attemptRow?.status).toBe('failed');
    expect((await call(t.app, 'GET', `/api/purchases/${attemptRow!.purchase_id}`, { token: staffToken })).body.purchase.status).toBe('failed');
  });

  it('staff may still collect a lapsed cash hold while places remain (the caps are checked again)', async () => {
    const packageId = await newPackage('Evento con lugares', { price: '300.00', people_limit: 10 });
    const [holder] = await createBookers(t.db, testSecret, 1, { prefix: 'apartado-vencido', credits: 0 });
    const created = await call(t.app, 'POST', '/api/checkout', { token: holder!.token, body: { class_package_id: packageId, payment_method: cashMethod } });
    const id = created.body.purchase_id as number;
    await t.db.update(purchase).set({ createdAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(purchase.purchase_id, id));
    const collected = await call(t.app, 'PUT', `/api/purchases/${id}/paid`, { token: staffToken });
    expect(collected.status, collected.raw).toBe(200);
    expect(collected.body.purchase.status).toBe('completed');
  });
});
