import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { domainErrors } from '@estudio/core';
import { customer } from '@estudio/db/schema/customer';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { purchase } from '@estudio/db/schema/purchases';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * A discount code's dates, as a customer meets them in the shop: the demo's
 * VERANO200 ($200 off 10 Clases) takes its $200 while it runs; once it has
 * expired, or before it starts, the code's preview and the checkout both
 * refuse it in Spanish and nothing is bought with it.
 */
let server: TestServer;
let cliente: string;
let clienteId: number;
let tenClasses: number;
let cash: number;

demoStudio(['cliente'], (s) => ({ server, tokens: { cliente } } = s));
beforeAll(async () => {
  const [me] = await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  clienteId = me!.customer_id;
  const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '10 Clases'));
  tenClasses = pkg!.class_package_id;
  const [method] = await server.db.select().from(payment_method).where(eq(payment_method.provider, 'cash'));
  cash = method!.payment_method_id;
}, 120_000);

const invalid = { code: 'discount/invalid', message: domainErrors['discount/invalid'].message };
const preview = () => call(server.app, 'GET', `/api/discounts/code/VERANO200?class_package_id=${tenClasses}`, { token: cliente });
const buyWithCode = () => call(server.app, 'POST', '/api/checkout/attempt', { token: cliente, body: { class_package_id: tenClasses, payment_method: cash, discountCode: 'VERANO200' } });
const setDates = (dates: { starts_at: Date | null; expires_at: Date | null }) => server.db.update(discount).set(dates).where(eq(discount.code, 'VERANO200'));
const withCode = async () => {
  const [code] = await server.db.select().from(discount).where(eq(discount.code, 'VERANO200'));
  return server.db.select().from(purchase).where(and(eq(purchase.customer_id, clienteId), eq(purchase.discount_id, code!.discount_id)));
};

describe('a discount code’s dates', () => {
  it('expired a minute ago: the preview and the checkout refuse it, nothing is bought', async () => {
    await setDates({ starts_at: null, expires_at: new Date(Date.now() - 60_000) });
    const seen = await preview();
    expect({ status: seen.status, body: seen.body }).toEqual({ status: 404, body: invalid });
    const bought = await buyWithCode();
    expect({ status: bought.status, body: bought.body }).toEqual({ status: 404, body: invalid });
    expect(await withCode()).toEqual([]);
  });

  it('starting tomorrow: refused the same way until then', async () => {
    await setDates({ starts_at: new Date(Date.now() + 86_400_000), expires_at: new Date(Date.now() + 30 * 86_400_000) });
    expect((await preview()).body).toEqual(invalid);
    expect((await buyWithCode()).body).toEqual(invalid);
    expect(await withCode()).toEqual([]);
  });

  it('inside its dates: $200 off, in the preview and in the order', async () => {
    await setDates({ starts_at: new Date(Date.now() - 60_000), expires_at: new Date(Date.now() + 60_000) });
    const seen = await preview();
    expect(seen.status).toBe(200);
    expect(seen.body.total).toBe('1150.00');
    const bought = await buyWithCode();
    expect(bought.status).toBe(200);
    const orders = await withCode();
    expect(orders.map((p) => p.total_payment)).toEqual(['1150.00']);
  });
});
