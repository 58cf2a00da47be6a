import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

let server: TestServer;
let cliente: string;
let nuevo: string;
let staff: string;
let nuevoId: number;
const pkg: Record<string, number> = {};

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  [cliente, nuevo, staff] = (await Promise.all(
    ['cliente', 'nuevo', 'recepcion'].map(async (who) => (await login(server.app, `${who}@estudio.demo`)).idToken),
  )) as [string, string, string];
  nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
}, 120_000);

const credits = async (id: number) =>
  (await server.db.select().from(available_classes).where(eq(available_classes.customer_id, id))).filter(
    (c) => !c.deletedAt && (c.expiration_date === null || c.expiration_date.getTime() > Date.now()),
  );
const setConfig = (key: string, value: string) =>
  server.db.insert(app_config).values({ key, value }).onConflictDoUpdate({ target: app_config.key, set: { value } });

describe('packages', () => {
  it('lists the packages for sale, with trial detection and files', async () => {
    const res = await call(server.app, 'GET', '/api/class_packages');
    expect(res.status).toBe(200);
    const titles = res.body.class_packages.map((p: { title: string }) => p.title);
    expect(titles).toContain('5 Clases');
    const trial = res.body.class_packages.find((p: { title: string }) => p.title === 'Clase de prueba');
    expect(trial).toMatchObject({ is_trial: true, price: '0.00', limit_per_customer: 1 });
    const event = res.body.class_packages.find((p: { title: string }) => p.title === 'Masterclass Sunset Yoga');
    expect(event.class_package_types).toHaveLength(1);
  });

  it('the regular list excludes events and one-per-customer packages and puts unlimited last', async () => {
    const res = await call(server.app, 'GET', '/api/class_packages/presenciales/all');
    expect(res.status).toBe(200);
    expect(res.body.class_packages.map((p: { title: string }) => p.title)).toEqual(['1 Clase', '5 Clases', '10 Clases', 'Ilimitado Mensual']);
    const online = await call(server.app, 'GET', '/api/class_packages/online/all');
    expect(online.body.class_packages.map((p: { title: string }) => p.title)).toEqual(['Online Mensual']);
    const events = await call(server.app, 'GET', '/api/class_packages/especiales/home');
    expect(events.body.class_packages.map((p: { title: string }) => p.title)).toEqual(['Masterclass Sunset Yoga']);
    const home = await call(server.app, 'GET', '/api/class_packages/presenciales/home');
    expect(home.body.class_packages.map((p: { title: string }) => p.title)).toEqual(['5 Clases', '10 Clases', 'Ilimitado Mensual']);
  });

  it('one package, or the spec 404', async () => {
    const res = await call(server.app, 'GET', `/api/class_packages/${pkg['10 Clases']}`);
    expect(res.body.class_package).toMatchObject({ title: '10 Clases', price: '1500.00', sale_price: '1350.00', class_amount: 10 });
    const missing = await call(server.app, 'GET', '/api/class_packages/99999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'package/not-found', message: 'Lo sentimos, no encontramos el paquete que quieres comprar.' });
  });

  it('event attendees are for staff only', async () => {
    const url = `/api/class_packages/especiales/${pkg['Masterclass Sunset Yoga']}/asistentes`;
    expect((await call(server.app, 'GET', url, { token: cliente })).status).toBe(403);
    const res = await call(server.app, 'GET', url, { token: staff });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.customers)).toBe(true);
  });
});

describe('discounts', () => {
  it('percent off the sale price, in two decimals', async () => {
    const res = await call(server.app, 'GET', `/api/discounts/code/bienvenida10?class_package_id=${pkg['10 Clases']}`, { token: nuevo });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ discount: { code: 'BIENVENIDA10', is_percent: true, amount: '10.00' }, total: '1215.00' });
  });
  it('amount off a package it applies to; not valid for other packages', async () => {
    const ok = await call(server.app, 'GET', `/api/discounts/code/VERANO200?class_package_id=${pkg['10 Clases']}`, { token: nuevo });
    expect(ok.body.total).toBe('1150.00');
    const other = await call(server.app, 'GET', `/api/discounts/code/VERANO200?class_package_id=${pkg['5 Clases']}`, { token: nuevo });
    expect(other.status).toBe(412);
    expect(other.body.message).toBe('Lo sentimos, ese descuento no es válido.');
  });
  it('exhausted and unknown codes', async () => {
    const gone = await call(server.app, 'GET', `/api/discounts/code/BUENFIN?class_package_id=${pkg['5 Clases']}`, { token: nuevo });
    expect(gone.status).toBe(412);
    expect(gone.body).toEqual({ code: 'discount/exhausted', message: 'Lo sentimos, ya has agotado este descuento.' });
    const unknown = await call(server.app, 'GET', `/api/discounts/code/NOEXISTE?class_package_id=${pkg['5 Clases']}`, { token: nuevo });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Lo sentimos, ese descuento no es válido.');
  });
  it('first_invoice_only: half the first month for a first purchase of the package, not for a returning member', async () => {
    const first = await call(server.app, 'GET', `/api/discounts/code/PRIMERMES50?class_package_id=${pkg['Ilimitado Mensual']}`, { token: nuevo });
    expect(first.body).toMatchObject({ discount: { first_invoice_only: true }, total: '995.00' });
    const ilimitado = (await login(server.app, 'ilimitado@estudio.demo')).idToken;
    const returning = await call(server.app, 'GET', `/api/discounts/code/PRIMERMES50?class_package_id=${pkg['Ilimitado Mensual']}`, { token: ilimitado });
    expect(returning.status).toBe(412);
    expect(returning.body).toEqual({ code: 'discount/not-applicable', message: 'Lo sentimos, ese descuento no es válido.' });
  });
  it('a code with one use per customer is exhausted after the customer used it', async () => {
    const bought = await call(server.app, 'POST', '/api/checkout/attempt', {
      token: nuevo,
      body: { class_package_id: pkg['1 Clase'], payment_method: 1, discountCode: 'BIENVENIDA10', payment_method_token: 'pm_card_visa' },
    });
    expect(bought.status).toBe(200);
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, bought.body.purchase_id));
    expect(row?.total_payment).toBe('162.00');
    const res = await call(server.app, 'GET', `/api/discounts/code/BIENVENIDA10?class_package_id=${pkg['5 Clases']}`, { token: nuevo });
    expect(res.status).toBe(412);
    expect(res.body.message).toBe('Lo sentimos, ya has agotado este descuento.');
    const declined = await call(server.app, 'POST', '/api/checkout/attempt', {
      token: cliente,
      body: { class_package_id: pkg['1 Clase'], payment_method: 1, discountCode: 'BIENVENIDA10', payment_method_token: 'pm_card_chargeDeclined' },
    });
    expect(declined.status).toBe(402);
    // A declined purchase gives its use back.
    expect((await call(server.app, 'GET', `/api/discounts/code/BIENVENIDA10?class_package_id=${pkg['5 Clases']}`, { token: cliente })).status).toBe(200);
  });
  it('needs a signed-in customer', async () => {
    expect((await call(server.app, 'GET', `/api/discounts/code/BIENVENIDA10?class_package_id=${pkg['5 Clases']}`)).status).toBe(401);
  });
});

describe('checkout with the sandbox card provider', () => {
  it('payment methods: card and cash (PayPal is off in the demo)', async () => {
    const res = await call(server.app, 'GET', '/api/payment_methods');
    expect(res.body.payment_methods.map((m: { name: string }) => m.name)).toEqual(['Tarjeta', 'Efectivo']);
    expect(res.body.card_provider).toBe('sandbox');
  });

  it('card 4242 buys 5 clases: pending purchase, confirm, 5 credits, invoice, exactly once', async () => {
    const before = await credits(nuevoId);
    const attempt = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['5 Clases'], payment_method: 1 } });
    expect(attempt.status).toBe(200);
    expect(attempt.body.clientSecret).toMatch(/^sandbox_pi_\d+_secret_/);
    const purchaseId = attempt.body.purchase_id as number;
    const [pending] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, purchaseId));
    expect(pending).toMatchObject({ status: 'pending', total_payment: '800.00', provider: 'sandbox' });

    const confirm = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: attempt.body.clientSecret, payment_method_token: 'pm_card_visa' } });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ purchase_id: purchaseId });
    const again = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: attempt.body.clientSecret, payment_method_token: 'pm_card_visa' } });
    expect(again.body).toEqual({ purchase_id: purchaseId });

    const after = await credits(nuevoId);
    expect(after.length - before.length).toBe(1);
    expect(after.find((c) => c.purchase_id === purchaseId)?.available_classes).toBe(5);
    const invoices = await server.db.select().from(invoice).where(eq(invoice.purchase_id, purchaseId));
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ total_payment: '800.00', status: 'completed' });

    const mine = await call(server.app, 'GET', `/api/purchases/${purchaseId}`, { token: nuevo });
    expect(mine.body.purchase).toMatchObject({ status: 'completed', title: '5 Clases', next_charge_date: null, payment_method: { name: 'Tarjeta' } });
    expect((await call(server.app, 'GET', `/api/purchases/${purchaseId}`, { token: cliente })).status).toBe(404);
  });

  it('card 9995 is declined with insufficient funds (402) and grants nothing', async () => {
    const attempt = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['1 Clase'], payment_method: 1 } });
    const res = await call(server.app, 'POST', '/api/checkout/confirm', {
      token: nuevo,
      body: { clientSecret: attempt.body.clientSecret, payment_method_token: 'pm_card_visa_chargeDeclinedInsufficientFunds' },
    });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      code: 'payment/card-declined',
      message: 'Lo sentimos. Tu tarjeta ha sido rechazada por fondos insuficientes.',
      decline_code: 'insufficient_funds',
    });
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, attempt.body.purchase_id));
    expect(row?.status).toBe('failed');
    expect(await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, attempt.body.purchase_id))).toEqual([]);
  });

  it('over tRPC the decline code travels in the error data', async () => {
    const attempt = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['1 Clase'], payment_method: 1 } });
    const res = await server.app.inject({
      method: 'POST',
      url: '/trpc/checkout.confirm',
      payload: { clientSecret: attempt.body.clientSecret, payment_method_token: 'pm_card_chargeDeclinedExpiredCard' },
      headers: { authorization: `Bearer ${nuevo}` },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().error.data).toMatchObject({ domainCode: 'payment/card-declined', decline_code: 'expired_card' });
    expect(res.json().error.message).toBe('Lo sentimos. Tu tarjeta ha expirado');
  });

  it('a forged client secret is not found', async () => {
    const res = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: 'sandbox_pi_1_secret_abc', payment_method_token: 'pm_card_visa' } });
    expect(res.status).toBe(404);
    const attempt = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['1 Clase'], payment_method: 1 } });
    const noToken = await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: attempt.body.clientSecret } });
    expect(noToken.status).toBe(400);
    expect(noToken.body.message).toBe('No has seleccionado un método de pago.');
  });

  it('the server computes the price with the discount and takes one use', async () => {
    const [before] = await server.db.select().from(discount).where(eq(discount.code, 'VERANO200'));
    const res = await call(server.app, 'POST', '/api/checkout/attempt', {
      token: nuevo,
      body: { class_package_id: pkg['10 Clases'], payment_method: 1, discountCode: 'verano200', payment_method_token: 'pm_card_visa' },
    });
    expect(res.status).toBe(200);
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
    expect(row).toMatchObject({ status: 'completed', amount: '1500.00', total_payment: '1150.00' });
    const [after] = await server.db.select().from(discount).where(eq(discount.code, 'VERANO200'));
    expect(after!.uses).toBe(before!.uses + 1);
  });

  it('a trial subscription charges $0 now and shows the next charge at the end of the trial', async () => {
    const attempt = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['Online Mensual'], payment_method: 1 } });
    expect(attempt.status).toBe(200);
    await call(server.app, 'POST', '/api/checkout/confirm', { token: nuevo, body: { clientSecret: attempt.body.clientSecret, payment_method_token: 'pm_card_visa' } });
    const res = await call(server.app, 'GET', `/api/purchases/${attempt.body.purchase_id}`, { token: nuevo });
    expect(res.body.purchase).toMatchObject({ status: 'active', total_payment: '0.00', amount: '349.00', free_trial_length: 7 });
    const next = Date.parse(res.body.purchase.next_charge_date);
    expect(Math.round((next - Date.parse(res.body.purchase.createdAt)) / 86_400_000)).toBe(7);
    expect(res.body.purchase.subscription_id).toMatch(/^sandbox_sub_/);
  });

  it('cancelling needs a reason; a trial loses access now', async () => {
    const list = await call(server.app, 'GET', '/api/purchases', { token: nuevo });
    const online = list.body.purchases.find((p: { title: string; status: string }) => p.title === 'Online Mensual' && p.status === 'active');
    const empty = await call(server.app, 'POST', `/api/purchases/cancel/${online.purchase_id}`, { token: nuevo, body: { reason: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Debes indicar un motivo de cancelación.');
    const res = await call(server.app, 'POST', `/api/purchases/cancel/${online.purchase_id}`, { token: nuevo, body: { reason: 'No lo uso' } });
    expect(res.status).toBe(200);
    expect(res.body.purchase).toMatchObject({ status: 'cancelled', cancel_reason: 'No lo uso', next_charge_date: null });
    expect(Date.parse(res.body.purchase.expiration_date)).toBeLessThanOrEqual(Date.now());
    const twice = await call(server.app, 'POST', `/api/purchases/cancel/${online.purchase_id}`, { token: nuevo, body: { reason: 'otra vez' } });
    expect(twice.status).toBe(409);
  });

  it('an unlimited subscription makes the customer unlimited; cancel keeps access to the end of the cycle', async () => {
    const res = await call(server.app, 'POST', '/api/checkout/attempt', {
      token: nuevo,
      body: { class_package_id: pkg['Ilimitado Mensual'], payment_method: 1, payment_method_token: 'pm_card_visa' },
    });
    expect(res.status).toBe(200);
    const [c] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(c?.has_unlimited).toBe(true);
    const cancel = await call(server.app, 'POST', `/api/purchases/cancel/${res.body.purchase_id}`, { token: nuevo, body: { reason: 'Me mudo' } });
    expect(cancel.body.purchase.status).toBe('cancelled');
    expect(Date.parse(cancel.body.purchase.expiration_date)).toBeGreaterThan(Date.now() + 20 * 86_400_000);
    const [still] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(still?.has_unlimited).toBe(true);
  });

  it('saved cards: save, pay with it, list under both names, delete', async () => {
    const saved = await call(server.app, 'POST', '/api/payment_sources', { token: nuevo, body: { payment_method_token: 'pm_card_visa', card_type: 'visa', last_digits: '4242' } });
    expect(saved.status).toBe(200);
    expect(saved.body.payment_source).toMatchObject({ card_type: 'visa', last_digits: '4242', provider: 'sandbox' });
    const id = saved.body.payment_source.payment_source_id;
    const pay = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['1 Clase'], payment_method: 1, payment_source_id: id } });
    expect(pay.status).toBe(200);
    expect(pay.body.clientSecret).toBeUndefined();
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, pay.body.purchase_id));
    expect(row).toMatchObject({ status: 'completed', payment_source_id: id });
    // The order page and the receipt name the card ('Visa terminación 4242'); a test token carries no expiry (decision 090).
    expect(saved.body.payment_source).toMatchObject({ exp_month: null, exp_year: null });
    const read = await call(server.app, 'GET', `/api/purchases/${pay.body.purchase_id}`, { token: nuevo });
    expect(read.body.purchase.card).toEqual({ card_type: 'visa', last_digits: '4242' });
    const byToken = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['1 Clase'], payment_method: 1, payment_method_token: 'pm_card_visa' } });
    expect((await call(server.app, 'GET', `/api/purchases/${byToken.body.purchase_id}`, { token: nuevo })).body.purchase.card).toBeNull();
    const legacy = await call(server.app, 'GET', '/api/metodosPago', { token: nuevo });
    expect(legacy.body.metodos_pago.map((s: { payment_source_id: number }) => s.payment_source_id)).toContain(id);
    const others = (await call(server.app, 'GET', '/api/payment_sources', { token: cliente })).body.payment_sources;
    expect(others.map((s: { payment_source_id: number }) => s.payment_source_id)).not.toContain(id);
    expect((await call(server.app, 'DELETE', `/api/payment_sources/${id}`, { token: cliente })).status).toBe(404);
    const removed = await call(server.app, 'DELETE', `/api/metodosPago/${id}`, { token: nuevo });
    expect(removed.body.metodos_pago).toEqual([]);
    const legacyCreate = await call(server.app, 'POST', '/api/metodosPago', { token: nuevo, body: { token_id: 'pm_card_mastercard', card_type: 'mastercard', last_digits: '4444', saveCard: true } });
    expect(legacyCreate.body.metodos_pago).toHaveLength(1);
  });

  it('invoices list the charges with their purchase', async () => {
    const res = await call(server.app, 'GET', '/api/invoices', { token: nuevo });
    expect(res.status).toBe(200);
    expect(res.body.invoices.length).toBeGreaterThanOrEqual(4);
    expect(res.body.invoices[0]).toHaveProperty('purchase.purchase_id');
    expect(res.body.invoices[0]).toHaveProperty('class_package.title');
  });
});

describe('free packages, cash and caps', () => {
  it('the trial class is free (Obtener Oferta) and once per customer (409)', async () => {
    const res = await call(server.app, 'POST', '/api/checkout', { token: nuevo, body: { class_package_id: pkg['Clase de prueba'] } });
    expect(res.status).toBe(200);
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
    expect(row).toMatchObject({ status: 'completed', total_payment: '0.00' });
    const again = await call(server.app, 'POST', '/api/checkout', { token: nuevo, body: { class_package_id: pkg['Clase de prueba'] } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Lo sentimos, ya has alcanzado el límite de compras de este paquete.');
  });

  it('a paid package without a method is 400', async () => {
    await setConfig('cash_checkout_enabled', 'false');
    const res = await call(server.app, 'POST', '/api/checkout', { token: nuevo, body: { class_package_id: pkg['5 Clases'] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('No has seleccionado un método de pago.');
    await setConfig('cash_checkout_enabled', 'true');
  });

  it('cash stays pending until staff mark it paid, which grants it once', async () => {
    const res = await call(server.app, 'POST', '/api/checkout', { token: nuevo, body: { class_package_id: pkg['5 Clases'] } });
    expect(res.status).toBe(200);
    const id = res.body.purchase_id;
    expect((await server.db.select().from(purchase).where(eq(purchase.purchase_id, id)))[0]?.status).toBe('pending');
    expect(await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id))).toEqual([]);
    expect((await call(server.app, 'PUT', `/api/purchases/${id}/paid`, { token: nuevo })).status).toBe(403);
    const paid = await call(server.app, 'PUT', `/api/purchases/${id}/paid`, { token: staff });
    expect(paid.status).toBe(200);
    expect(paid.body.purchase.status).toBe('completed');
    expect((await call(server.app, 'PUT', `/api/purchases/${id}/paid`, { token: staff })).status).toBe(409);
    expect(await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id))).toHaveLength(1);
  });

  it('the people limit answers 412 with the spec message', async () => {
    const eventId = pkg['Masterclass Sunset Yoga']!;
    const sold = await server.db
      .select()
      .from(purchase)
      .where(and(eq(purchase.class_package_id, eventId)));
    const held = sold.filter((p) => p.status === 'active' || p.status === 'completed').length;
    await server.db.update(class_package).set({ people_limit: held }).where(eq(class_package.class_package_id, eventId));
    const res = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: eventId, payment_method: 1 } });
    expect(res.status).toBe(412);
    expect(res.body.message).toBe('Lo sentimos, se ha alcanzado el límite de personas para este paquete.');
    await server.db.update(class_package).set({ people_limit: 30 }).where(eq(class_package.class_package_id, eventId));
  });

  it('the enrolment fee comes first when signup_fee is set (trials excepted)', async () => {
    await setConfig('signup_fee', String(pkg['Inscripción']));
    const res = await call(server.app, 'POST', '/api/checkout/attempt', { token: cliente, body: { class_package_id: pkg['5 Clases'], payment_method: 1 } });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('package/signup-fee-required');
    expect(res.body.message).toContain('Inscripción');
    const fee = await call(server.app, 'POST', '/api/checkout/attempt', {
      token: cliente,
      body: { class_package_id: pkg['Inscripción'], payment_method: 1, payment_method_token: 'pm_card_visa' },
    });
    expect(fee.status).toBe(200);
    const ok = await call(server.app, 'POST', '/api/checkout/attempt', { token: cliente, body: { class_package_id: pkg['5 Clases'], payment_method: 1 } });
    expect(ok.status).toBe(200);
    await setConfig('signup_fee', '');
  });

  it("a pending cash purchase can be cancelled by its owner only; its discount use comes back", async () => {
    const res = await call(server.app, 'POST', '/api/checkout', { token: cliente, body: { class_package_id: pkg['10 Clases'], discountCode: 'VERANO200' } });
    expect(res.status).toBe(200);
    const [before] = await server.db.select().from(discount).where(eq(discount.code, 'VERANO200'));
    expect((await call(server.app, 'POST', `/api/purchases/cancel/${res.body.purchase_id}`, { token: nuevo, body: { reason: 'no es mía' } })).status).toBe(404);
    const cancel = await call(server.app, 'POST', `/api/purchases/cancel/${res.body.purchase_id}`, { token: cliente, body: { reason: 'Pagaré con tarjeta' } });
    expect(cancel.body.purchase).toMatchObject({ status: 'cancelled', total_payment: '1150.00' });
    const [after] = await server.db.select().from(discount).where(eq(discount.code, 'VERANO200'));
    expect(after!.uses).toBe(before!.uses - 1);
    expect((await call(server.app, 'PUT', `/api/purchases/${res.body.purchase_id}/paid`, { token: staff })).status).toBe(409);
  });

  it('checkout_disabled closes the shop', async () => {
    await setConfig('checkout_disabled', 'true');
    const res = await call(server.app, 'POST', '/api/checkout/attempt', { token: nuevo, body: { class_package_id: pkg['5 Clases'], payment_method: 1 } });
    expect(res.status).toBe(412);
    await setConfig('checkout_disabled', 'false');
  });
});
