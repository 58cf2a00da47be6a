import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainErrors } from '@estudio/core';
import { createDb, type DbHandle } from '@estudio/db';
import { class_package } from '@estudio/db/schema/packages';
import { processed_webhook_event } from '@estudio/db/schema/payments';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { buildServer } from '../../src/app.ts';
import { createFaultDatabase, dropConnectionWhenBlocked, invariantViolations, type FaultDatabase } from '../support/fault-helpers.ts';
import { call, testConfig, testSecret } from '../support/helpers.ts';
import { createBookers, newClass, type Booker } from '../support/reservations-fixtures.ts';
import { deliver, stripeEnv, stripeEvent } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

/**
 * The database connection dropped in the middle of a transaction
 * (pg_terminate_backend, as a failover, a restarted PostgreSQL or a cut
 * network does) leaves no half state. Each case is made deterministic: a
 * second connection holds a lock the transaction needs only after it has
 * written, pg_stat_activity shows the transaction waiting on it, and that
 * backend is terminated. PostgreSQL only: PGlite has no connection to lose.
 *
 * - a booking, killed at the class row lock, after its credit was spent;
 * - a Stripe webhook, killed at the credits insert, after the purchase was
 *   marked paid and the event recorded;
 * - a card checkout, killed at the same point after the card was charged.
 */
const adminUrl = process.env.TEST_DATABASE_URL;

/** The answer of a lost connection: 503, Spanish, in the API's shape, nothing of the driver. */
const unavailable = { code: 'db/unavailable', message: domainErrors['db/unavailable'].message };

describe.skipIf(!adminUrl)('the connection dropped mid-transaction (PostgreSQL)', () => {
  let database: FaultDatabase | undefined;
  let pool: DbHandle | undefined;
  let sql: postgres.Sql | undefined;
  let app: FastifyInstance | undefined;
  let fake: StripeFake | undefined;

  beforeAll(async () => {
    if (!adminUrl) return;
    fake = await startStripeFake();
    database = await createFaultDatabase(adminUrl);
    // One connection: every request after a drop goes through the very connection that was dropped.
    pool = await createDb(database.url, { max: 1 });
    sql = postgres(database.url, { max: 3, onnotice: () => {}, connection: { application_name: 'flt-check' } });
    app = await buildServer({ config: testConfig({ AUTH_SECRET: testSecret, ...stripeEnv(fake) }), db: pool.db });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await pool?.close();
    await sql?.end({ timeout: 5 });
    await database?.drop();
    await fake?.close();
  });

  const ready = () => {
    if (!app || !pool || !sql || !fake) throw new Error('sin preparar');
    return { app, db: pool.db, sql, fake };
  };

  const lastChange = async () => {
    const [row] = await ready().sql<{ id: string | null }[]>`select max(change_id)::text as id from sync_change`;
    return Number(row?.id ?? 0);
  };

  describe('a booking', () => {
    let classId: number;
    let booker: Booker;

    beforeAll(async () => {
      const { db } = ready();
      classId = await newClass(db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });
      const [one] = await createBookers(db, testSecret, 1, { prefix: 'falla-reserva', credits: 3 });
      if (!one) throw new Error('sin cliente');
      booker = one;
    });

    const creditLeft = async () => {
      const [row] = await ready().db.select().from(available_classes).where(eq(available_classes.available_class_id, booker.available_class_id));
      return row?.available_classes;
    };
    const liveReservations = () =>
      ready()
        .db.select()
        .from(class_reservation)
        .where(and(eq(class_reservation.single_class_id, classId), eq(class_reservation.customer_id, booker.customer_id), isNull(class_reservation.deletedAt)));
    const lockClassRow = (tx: postgres.ReservedSql) => tx`select 1 from single_class where single_class_id = ${classId} for update`;

    it.each([
      { transport: 'REST', url: '/api/class_reservations', answer: (body: Record<string, unknown>) => body },
      {
        transport: 'tRPC',
        url: '/trpc/reservations.create',
        answer: (body: Record<string, unknown>) => {
          const error = body.error as { message: string; data: { domainCode: string; httpStatus: number } };
          return { code: error.data.domainCode, message: error.message };
        },
      },
    ])('over $transport: a clean 503, the credit kept, no reservation, nothing in the change log', async ({ url, answer }) => {
      const { app, sql } = ready();
      const before = { credit: await creditLeft(), change: await lastChange() };
      const { result, killedIn } = await dropConnectionWhenBlocked(sql, lockClassRow, () =>
        call(app, 'POST', url, { token: booker.token, body: { single_class_id: classId } }),
      );
      // Killed at the class lock: the customer and the credit were already locked and the credit spent.
      // pg_stat_activity keeps a statement's first 1024 bytes, and the lock's select (with the class's seat map) is
      // longer: the waiting statement is recognised by its start, the class row it selects.
      expect(killedIn).toMatch(/^select "single_class"\."single_class_id"/i);

      expect(result.status).toBe(503);
      expect(answer(result.body)).toEqual(unavailable);
      expect(result.raw).not.toMatch(/terminat|postgres|connection|sql|stack/i);

      expect(await creditLeft()).toBe(before.credit);
      expect(await liveReservations()).toEqual([]);
      expect(await lastChange()).toBe(before.change);
      expect(await invariantViolations(sql)).toEqual([]);
    });

    it('the next booking of the same customer goes through: the pool reconnected', async () => {
      const { app, sql } = ready();
      const before = await creditLeft();
      const res = await call(app, 'POST', '/api/class_reservations', { token: booker.token, body: { single_class_id: classId } });
      expect(res.status).toBe(200);
      expect(await creditLeft()).toBe((before ?? 0) - 1);
      expect((await liveReservations()).map((r) => r.class_reservation_id)).toEqual([res.body.class_reservation.class_reservation_id]);
      expect(await invariantViolations(sql)).toEqual([]);
    });
  });

  describe('a payment', () => {
    let buyer: Booker;
    const pkg: Record<string, number> = {};

    beforeAll(async () => {
      const { db } = ready();
      const [one] = await createBookers(db, testSecret, 1, { prefix: 'falla-pago', credits: 0 });
      if (!one) throw new Error('sin cliente');
      buyer = one;
      for (const p of await db.select().from(class_package)) pkg[p.title] = p.class_package_id;
    });

    const purchaseRow = async (purchaseId: number) => {
      const [row] = await ready().db.select().from(purchase).where(eq(purchase.purchase_id, purchaseId));
      if (!row) throw new Error(`sin compra ${purchaseId}`);
      return row;
    };
    const creditsOf = (purchaseId: number) => ready().db.select().from(available_classes).where(eq(available_classes.purchase_id, purchaseId));
    const invoicesOf = (purchaseId: number) => ready().db.select().from(invoice).where(eq(invoice.purchase_id, purchaseId));
    const eventsNamed = (id: string) => ready().db.select().from(processed_webhook_event).where(eq(processed_webhook_event.event_id, id));
    // Bookings and grants touch available_classes first with their INSERT of the new credits (the purchase is already paid then).
    const lockCredits = (tx: postgres.ReservedSql) => tx`lock table available_classes in share mode`;

    it('a Stripe webhook dropped after marking the purchase paid: nothing paid, a non-2xx, and the redelivery grants once', async () => {
      const { app, sql, fake } = ready();
      const attempt = await call(app, 'POST', '/api/checkout/attempt', { token: buyer.token, body: { class_package_id: pkg['5 Clases'], payment_method: 1 } });
      expect(attempt.status).toBe(200);
      const pending = await purchaseRow(attempt.body.purchase_id);
      const intent = fake.objects.get(pending.provider_payment_id ?? '');
      if (!intent) throw new Error('sin PaymentIntent');
      const event = stripeEvent('payment_intent.succeeded', { ...intent, status: 'succeeded', amount_received: intent.amount });
      const before = await lastChange();

      const { result, killedIn } = await dropConnectionWhenBlocked(sql, lockCredits, () => deliver(app, event));
      expect(killedIn).toMatch(/^insert into "available_classes"/i);

      // Stripe delivers again on any non-2xx.
      expect(result).toEqual({ status: 503, body: unavailable });
      expect(JSON.stringify(result.body)).not.toMatch(/terminat|postgres|connection|sql|stack/i);
      expect((await purchaseRow(pending.purchase_id)).status).toBe('pending');
      expect(await creditsOf(pending.purchase_id)).toEqual([]);
      expect(await invoicesOf(pending.purchase_id)).toEqual([]);
      expect(await eventsNamed(event.id)).toEqual([]);
      expect(await lastChange()).toBe(before);
      expect(await invariantViolations(sql)).toEqual([]);

      const redelivered = await deliver(app, event);
      expect(redelivered).toEqual({ status: 200, body: { received: true, duplicate: false } });
      expect(await deliver(app, event)).toEqual({ status: 200, body: { received: true, duplicate: true } });
      expect((await purchaseRow(pending.purchase_id)).status).toBe('completed');
      expect((await creditsOf(pending.purchase_id)).map((c) => c.available_classes)).toEqual([5]);
      expect(await invoicesOf(pending.purchase_id)).toHaveLength(1);
      expect(await eventsNamed(event.id)).toHaveLength(1);
      expect(await invariantViolations(sql)).toEqual([]);
    });

    it('a card checkout dropped after the charge: a 503 that says the payment went through, the purchase left pending (never failed), and the webhook grants once', async () => {
      const { app, sql, fake } = ready();
      const { result, killedIn } = await dropConnectionWhenBlocked(sql, lockCredits, () =>
        call(app, 'POST', '/api/checkout/attempt', {
          token: buyer.token,
          body: { class_package_id: pkg['1 Clase'], payment_method: 1, payment_method_token: 'pm_card_visa' },
        }),
      );
      expect(killedIn).toMatch(/^insert into "available_classes"/i);
      // The card was charged: the customer is told not to pay again, and the purchase stays pending for the webhook.
      expect(result).toMatchObject({ status: 503, body: { code: 'payment/charged-pending', message: domainErrors['payment/charged-pending'].message } });

      const [charged] = await ready()
        .db.select()
        .from(purchase)
        .where(and(eq(purchase.customer_id, buyer.customer_id), eq(purchase.class_package_id, pkg['1 Clase'] ?? 0)));
      if (!charged) throw new Error('sin compra');
      expect(charged.status).toBe('pending');
      expect(await creditsOf(charged.purchase_id)).toEqual([]);
      expect(await invoicesOf(charged.purchase_id)).toEqual([]);
      expect(await invariantViolations(sql)).toEqual([]);

      // The card was charged: Stripe's payment_intent.succeeded grants the purchase, once.
      const intent = fake.objects.get(charged.provider_payment_id ?? '');
      expect(intent?.status).toBe('succeeded');
      const event = stripeEvent('payment_intent.succeeded', { ...intent });
      expect(await deliver(app, event)).toEqual({ status: 200, body: { received: true, duplicate: false } });
      expect(await deliver(app, stripeEvent('payment_intent.succeeded', { ...intent }))).toEqual({ status: 200, body: { received: true, duplicate: false } });
      expect((await purchaseRow(charged.purchase_id)).status).toBe('completed');
      expect((await creditsOf(charged.purchase_id)).map((c) => c.available_classes)).toEqual([1]);
      expect(await invoicesOf(charged.purchase_id)).toHaveLength(1);
      expect(await invariantViolations(sql)).toEqual([]);
    });
  });
});
