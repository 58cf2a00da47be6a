import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@estudio/db';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { outbox_message } from '@estudio/db/schema/outbox';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import { renewDueSubscriptions } from '../../src/services/billing/renewals.ts';
import { testConfig } from '../support/helpers.ts';
import { buy, dailySubscription, minutes, newCustomer, renewalDeps, saveCard } from '../support/billing-fixtures.ts';

/**
 * Two server processes renew at once on one PostgreSQL (decision
 * 024): two connection pools, each running the renewal job twice at the same
 * instant over the same due subscriptions. Every subscription is charged once
 * for its period, every declined one records one failed attempt, and each
 * customer is told once. PGlite has one connection and cannot race.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('subscription renewals with two runners on PostgreSQL', () => {
  let testDb: TestDb;
  let one: DbHandle;
  let two: DbHandle;
  const config = testConfig();

  beforeAll(async () => {
    testDb = await createTestDb();
    one = await createDb(testDb.url, { max: 6 });
    two = await createDb(testDb.url, { max: 6 });
  }, 120_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await testDb?.close();
  });

  it('24 due subscriptions, 4 runners at once: each charged or declined exactly once, each customer told once', async () => {
    const db = one.db;
    const pkgId = await dailySubscription(db);
    const subs: { id: number; pays: boolean; due: Date }[] = [];
    for (let i = 0; i < 24; i += 1) {
      const who = await newCustomer(db);
      const card = await saveCard(db, who, 'pm_card_visa', String(1000 + i));
      const bought = await buy(db, config, who, pkgId, { sourceId: card });
      const pays = i % 3 !== 0;
      if (!pays) await saveCard(db, who, 'pm_card_visa_chargeDeclinedInsufficientFunds', String(2000 + i));
      subs.push({ id: bought.purchase_id, pays, due: bought.expiration_date! });
    }
    const at = minutes(new Date(Math.max(...subs.map((s) => s.due.getTime()))), 1);
    // Every sandbox subscription due at that instant (ours, and any of the demo seed's).
    const dueNow = await db
      .select({ id: purchase.purchase_id })
      .from(purchase)
      .where(and(eq(purchase.provider, 'sandbox'), eq(purchase.status, 'active'), isNotNull(purchase.subscription_period), lte(purchase.expiration_date, at)));
    const runners = [one, two, one, two].map((h) => renewDueSubscriptions(renewalDeps(h.db, config), at, 500));
    const done = await Promise.all(runners);
    // Every due subscription was handled by exactly one of the runners: the others found it renewed, or its attempt recorded.
    expect(done.reduce((a, b) => a + b, 0)).toBe(dueNow.length);

    const ids = subs.map((s) => s.id);
    const bills = await db.select().from(invoice).where(inArray(invoice.purchase_id, ids));
    for (const s of subs) {
      const mine = bills.filter((b) => b.purchase_id === s.id);
      expect(mine.filter((b) => b.status === 'completed')).toHaveLength(s.pays ? 2 : 1);
      expect(mine.filter((b) => b.status === 'failed')).toHaveLength(s.pays ? 0 : 1);
    }
    const rows = await db.select().from(purchase).where(inArray(purchase.purchase_id, ids));
    expect(rows.every((r) => r.status === 'active')).toBe(true);
    const customers = rows.map((r) => r.customer_id);
    const mails = await db.select().from(outbox_message).where(inArray(outbox_message.customer_id, customers));
    for (const s of subs) {
      const who = rows.find((r) => r.purchase_id === s.id)!.customer_id;
      const kinds = mails.filter((m) => m.customer_id === who && m.channel === 'email').map((m) => m.kind).sort();
      expect(kinds).toEqual(s.pays ? ['purchase-receipt', 'subscription-renewed'] : ['payment-failed', 'purchase-receipt']);
    }
    // And a second round at the same instant does nothing more.
    expect(await Promise.all([one, two].map((h) => renewDueSubscriptions(renewalDeps(h.db, config), at, 500)))).toEqual([0, 0]);
    const after = await db.select({ n: invoice.invoice_id }).from(invoice).where(inArray(invoice.purchase_id, ids));
    expect(after).toHaveLength(bills.length);
  }, 60_000);
});
