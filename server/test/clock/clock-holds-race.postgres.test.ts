import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discount, discount_use } from '@estudio/db/schema/discounts';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { markPurchasePaid } from '../../src/services/checkout/grant-purchase.ts';
import { expireHoldsJob } from '../../src/services/clock/expire-holds.ts';
import type { ClockContext } from '../../src/services/clock/job.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { newDiscount, outboxOf, pendingPurchase, plainPackage, silentLog } from '../support/clock-fixtures.ts';
import { testConfig, testSecret } from '../support/helpers.ts';
import { createBookers } from '../support/reservations-fixtures.ts';

/**
 * A lapsed hold paid at the moment the clock expires it (PostgreSQL, real
 * concurrent transactions). Both take the customer's row lock first
 * (decision 006), so they run one after the other: a payment in flight
 * finishes and the expiry then finds nothing to do (no 'failed', no message,
 * the discount use kept); an expiry that went first is followed by the
 * payment of a lapsed hold, which decision 015 allows and which takes the
 * use again. Whatever the order, each purchase ends paid once: one invoice,
 * one grant of credits, one discount use. The burst pays the purchases in the
 * opposite order to the expiry's, so both orders happen in one run (1 to 6 of
 * 24 expired first, measured), and before the expiry took the discount's lock
 * in the payments' order it deadlocked with them about one run in four.
 */
const adminUrl = process.env.TEST_DATABASE_URL;

let testDb: TestDb;
let ctx: ClockContext;
beforeAll(async () => {
  testDb = await createTestDb();
  const config = testConfig();
  ctx = { db: testDb.db, config, log: silentLog, messages: messageContextOf(config) };
}, 60_000);
afterAll(async () => {
  await testDb?.close();
});

async function lapsedHolds(count: number, prefix: string) {
  const pkg = await plainPackage(testDb.db);
  const code = await newDiscount(testDb.db, `${prefix}${Date.now()}`);
  const people = await createBookers(testDb.db, testSecret, count, { prefix: `${prefix.toLowerCase()}-${Date.now()}` });
  const holds = [];
  for (const p of people) {
    holds.push(
      await pendingPurchase(testDb.db, { customerId: p.customer_id, packageId: pkg.class_package_id, title: pkg.title, provider: 'cash', minutesAgo: 25 * 60, discountId: code.discount_id }),
    );
  }
  return { code, holds };
}

async function usesOf(discountId: number) {
  const [row] = await testDb.db.select({ uses: discount.uses }).from(discount).where(eq(discount.discount_id, discountId));
  return row?.uses;
}

describe.skipIf(!adminUrl)('paying a lapsed hold while the clock expires it (PostgreSQL)', () => {
  it('a payment in flight wins: the expiry waits for it, then finds the purchase paid and does nothing', async () => {
    const { code, holds } = await lapsedHolds(1, 'ENVUELO');
    const hold = holds[0];
    if (!hold) throw new Error('hold');
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let paidInside = false;
    const paying = testDb.db.transaction(async (tx) => {
      const result = await markPurchasePaid(tx, hold.purchase_id, { messages: ctx.messages });
      paidInside = result.paidNow;
      await gate;
    });
    while (!paidInside) await new Promise((resolve) => setTimeout(resolve, 10));
    const expiring = expireHoldsJob.run(ctx, new Date());
    // The expiry is waiting on the customer's row lock that the payment holds.
    let waiting = false;
    for (let i = 0; i < 200 && !waiting; i++) {
      // PostgreSQL only: postgres.js answers the rows as an array.
      const rows = (await testDb.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%for update%'`,
      )) as unknown as { n: number }[];
      waiting = Number(rows[0]?.n ?? 0) > 0;
      if (!waiting) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(waiting).toBe(true);
    release();
    await paying;
    expect(await expiring).toBe(0);
    const [row] = await testDb.db.select().from(purchase).where(eq(purchase.purchase_id, hold.purchase_id));
    expect(row?.status).toBe('completed');
    expect(await outboxOf(testDb.db, `hold-expired:${hold.purchase_id}`)).toEqual([]);
    expect(await testDb.db.select().from(discount_use).where(eq(discount_use.purchase_id, hold.purchase_id))).toHaveLength(1);
    expect(await usesOf(code.discount_id)).toBe(1);
  });

  it('a burst of payments and two overlapping expiry runs: every purchase paid once, one invoice, one grant, one discount use each', async () => {
    const { code, holds } = await lapsedHolds(24, 'RAFAGA');
    const ids = holds.map((h) => h.purchase_id);
    const now = new Date();
    // The expiry runs go through the purchases in id order; the payments come in the opposite order, spread
    // over the same time, so some purchases are paid before their expiry and others after it.
    const outcomes = await Promise.allSettled([
      expireHoldsJob.run(ctx, now),
      new Promise((resolve) => setTimeout(resolve, 5)).then(() => expireHoldsJob.run(ctx, now)),
      ...holds.map((h, i) =>
        new Promise((resolve) => setTimeout(resolve, (holds.length - 1 - i) * 12)).then(() => testDb.db.transaction((tx) => markPurchasePaid(tx, h.purchase_id, { messages: ctx.messages }))),
      ),
    ]);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => { const r = (o as PromiseRejectedResult).reason as Error; return `${String(r)} ${String(r.cause ?? '')}`; })).toEqual([]);

    const rows = await testDb.db.select().from(purchase).where(inArray(purchase.purchase_id, ids));
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'completed'));
    const invoices = await testDb.db.select({ id: invoice.purchase_id }).from(invoice).where(inArray(invoice.purchase_id, ids));
    expect(invoices.map((i) => i.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    const grants = await testDb.db.select({ id: available_classes.purchase_id }).from(available_classes).where(inArray(available_classes.purchase_id, ids));
    expect(grants.map((g) => g.id).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([...ids].sort((a, b) => a - b));
    const useRows = await testDb.db.select().from(discount_use).where(and(eq(discount_use.discount_id, code.discount_id), inArray(discount_use.purchase_id, ids)));
    expect(useRows).toHaveLength(ids.length);
    expect(await usesOf(code.discount_id)).toBe(ids.length);
    // A customer told that the hold lapsed was told so before paying (the expiry ran first); never twice.
    for (const id of ids) expect((await outboxOf(testDb.db, `hold-expired:${id}`)).length).toBeLessThanOrEqual(1);
  });
});
