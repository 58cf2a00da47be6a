import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { newClass } from '../support/reservations-fixtures.ts';

/**
 * A cap, once taken, stays taken (both drivers). A purchase that was ever
 * paid or granted counts toward the package's limit per customer and the
 * code's uses per customer for good: cancelling it gives nothing back. A
 * trial cancelled ends at once, with the bookings it paid for; a pack keeps
 * its credits until they expire. Only an admin, with a reason, gives a use
 * back. Each case is the attack as a new customer ran it over /api.
 */
let server: TestServer;
let admin: string;
const pkg: Record<string, number> = {};
let required: number[];
let seq = 0;

demoStudio(['admin'], (s) => ({ server, tokens: { admin } } = s));
beforeAll(async () => {
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
  const pages = await call(server.app, 'GET', '/api/pages');
  required = (pages.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
}, 60_000);

/** A new account, signed up through the API as a stranger would. */
async function newCustomer(): Promise<{ token: string; id: number }> {
  seq += 1;
  const email = `tope-${seq}-${Date.now()}@correo.mx`;
  const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Tope2024!x' } });
  expect(identity.status, identity.raw).toBe(200);
  const token = identity.body.idToken as string;
  const phone = `55${String(Date.now()).slice(-6)}${String(seq).padStart(2, '0')}`;
  const created = await call(server.app, 'POST', '/api/customer/signup', {
    token,
    body: { name: 'Tope', last_name: `Prueba ${seq}`, email, phone, birthdate: '1995-03-08', accepted_page_ids: required },
  });
  expect(created.status, created.raw).toBe(200);
  return { token, id: created.body.customer.customer_id as number };
}

const cancelPurchase = (token: string, id: number) => call(server.app, 'POST', `/api/purchases/cancel/${id}`, { token, body: { reason: 'Ya no la quiero' } });
const liveReservations = (customerId: number) =>
  server.db
    .select()
    .from(class_reservation)
    .where(and(eq(class_reservation.customer_id, customerId), isNull(class_reservation.deletedAt)));

describe('the free trial, cancelled, is not taken again', () => {
  it('a second trial after cancelling the first is refused, and the class the first one booked is cancelled with it', async () => {
    const me = await newCustomer();
    const trial = await call(server.app, 'POST', '/api/checkout', { token: me.token, body: { class_package_id: pkg['Clase de prueba'] } });
    expect(trial.status, trial.raw).toBe(200);
    const classId = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10 });
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: me.token, body: { single_class_id: classId } });
    expect(booked.status, booked.raw).toBe(200);

    const cancelled = await cancelPurchase(me.token, trial.body.purchase_id as number);
    expect(cancelled.status, cancelled.raw).toBe(200);
    expect(await liveReservations(me.id)).toEqual([]);

    for (let i = 0; i < 3; i++) {
      const again = await call(server.app, 'POST', '/api/checkout', { token: me.token, body: { class_package_id: pkg['Clase de prueba'] } });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ code: 'package/customer-limit', message: 'Lo sentimos, ya has alcanzado el límite de compras de este paquete.' });
    }
    const credits = await server.db
      .select()
      .from(available_classes)
      .where(and(eq(available_classes.customer_id, me.id), isNull(available_classes.deletedAt)));
    expect(credits.filter((c) => c.expiration_date === null || c.expiration_date.getTime() > Date.now())).toEqual([]);
  });

  it('a past class the trial paid for stays in the history: only what had not started is cancelled', async () => {
    const me = await newCustomer();
    const trial = await call(server.app, 'POST', '/api/checkout', { token: me.token, body: { class_package_id: pkg['Clase de prueba'] } });
    const [credit] = await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, trial.body.purchase_id as number));
    const pastClass = await newClass(server.db, { minutesAhead: -120, capacity: 10 });
    const [past] = await server.db
      .insert(class_reservation)
      .values({ single_class_id: pastClass, customer_id: me.id, available_class_id: credit!.available_class_id, attend: true })
      .returning();
    expect((await cancelPurchase(me.token, trial.body.purchase_id as number)).status).toBe(200);
    const [after] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, past!.class_reservation_id));
    expect(after?.deletedAt).toBeNull();
  });
});

describe('a code for one use per customer, used and cancelled, is not used again', () => {
  it('BIENVENIDA10 on 5 Clases: paid, cancelled, and the code is refused the second time; the pack keeps its credits', async () => {
    const me = await newCustomer();
    const buy = () =>
      call(server.app, 'POST', '/api/checkout/attempt', {
        token: me.token,
        body: { class_package_id: pkg['5 Clases'], payment_method: 1, payment_method_token: 'pm_card_visa', discountCode: 'BIENVENIDA10' },
      });
    const first = await buy();
    expect(first.status, first.raw).toBe(200);
    const [paid] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, first.body.purchase_id as number));
    expect(paid).toMatchObject({ status: 'completed', total_payment: '720.00' });
    expect((await cancelPurchase(me.token, paid!.purchase_id)).status).toBe(200);

    const second = await buy();
    expect(second.status).toBe(412);
    expect(second.body).toEqual({ code: 'discount/exhausted', message: 'Lo sentimos, ya has agotado este descuento.' });
    const preview = await call(server.app, 'GET', `/api/discounts/code/BIENVENIDA10?class_package_id=${pkg['5 Clases']}`, { token: me.token });
    expect(preview.status).toBe(412);

    // A pack paid for keeps its classes until they expire; it never renews.
    const credits = await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, paid!.purchase_id));
    expect(credits.map((c) => c.available_classes)).toEqual([5]);
    expect(credits[0]!.expiration_date!.getTime()).toBeGreaterThan(Date.now() + 50 * 86_400_000);
  });

  it('an unpaid cash order cancelled gives its use back: it never took the code', async () => {
    const me = await newCustomer();
    const order = () =>
      call(server.app, 'POST', '/api/checkout', { token: me.token, body: { class_package_id: pkg['5 Clases'], payment_method: 2, discountCode: 'BIENVENIDA10' } });
    const first = await order();
    expect(first.status, first.raw).toBe(200);
    expect((await cancelPurchase(me.token, first.body.purchase_id as number)).status).toBe(200);
    const second = await order();
    expect(second.status, second.raw).toBe(200);
  });
});

describe('an admin gives a use back, with a reason', () => {
  it('the trial can be taken again after the admin releases the cancelled one; reception may not; the activity says who and why', async () => {
    const me = await newCustomer();
    const trial = await call(server.app, 'POST', '/api/checkout', { token: me.token, body: { class_package_id: pkg['Clase de prueba'] } });
    const id = trial.body.purchase_id as number;
    expect((await cancelPurchase(me.token, id)).status).toBe(200);

    const staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    expect((await call(server.app, 'POST', `/api/purchases/${id}/release-limit`, { token: staff, body: { reason: 'Se equivocó de paquete' } })).status).toBe(403);
    const noReason = await call(server.app, 'POST', `/api/purchases/${id}/release-limit`, { token: admin, body: { reason: ' ' } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.code).toBe('access/reason-required');
    expect((await call(server.app, 'POST', '/api/checkout', { token: me.token, body: { class_package_id: pkg['Clase de prueba'] } })).status).toBe(409);

    const released = await call(server.app, 'POST', `/api/purchases/${id}/release-limit`, { token: admin, body: { reason: 'Se equivocó de paquete' } });
    expect(released.status, released.raw).toBe(200);
    const twice = await call(server.app, 'POST', `/api/purchases/${id}/release-limit`, { token: admin, body: { reason: 'Otra vez' } });
    expect(twice.status).toBe(409);
    expect((await call(server.app, 'POST', '/api/checkout', { token: me.token, body: { class_package_id: pkg['Clase de prueba'] } })).status).toBe(200);

    const activity = await call(server.app, 'GET', `/api/customer/${me.id}/activity`, { token: admin });
    expect(activity.status).toBe(200);
    expect(JSON.stringify(activity.body)).toContain('Se equivocó de paquete');
  });

  it('a live purchase cannot be released: it still holds its place', async () => {
    const me = await newCustomer();
    const trial = await call(server.app, 'POST', '/api/checkout', { token: me.token, body: { class_package_id: pkg['Clase de prueba'] } });
    const res = await call(server.app, 'POST', `/api/purchases/${trial.body.purchase_id}/release-limit`, { token: admin, body: { reason: 'Por si acaso' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('purchase/limit-still-held');
  });
});
