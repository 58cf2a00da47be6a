import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { payment_source } from '@estudio/db/schema/payments';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { chargeDate, cycleAt, nextCycleAfter, retryDays } from '../../src/services/billing/renewal-dates.ts';
import { renewDueSubscriptions, renewSubscription } from '../../src/services/billing/renewals.ts';
import { subscriptionRenewalsJob } from '../../src/services/clock/subscription-renewals.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { buy, dailySubscription, days, emailsOf, messagesOf, minutes, newCustomer, renewalDeps, saveCard } from '../support/billing-fixtures.ts';

/**
 * Sandbox subscriptions renew on their own (decision 024): the
 * clock's job charges the saved card on the charge date, retries on the days
 * of subscription_retry_days and cancels after the last one, telling the
 * customer each time. Dates are simulated by passing `now`; fixtures are
 * made relative to the real (or fake) clock.
 */
let server: TestServer;
let pkgId: number;

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  pkgId = await dailySubscription(server.db);
}, 120_000);

const deps = () => renewalDeps(server.db, server.config);
/** The demo studio's zone: charge dates keep its day of the month. */
const tz = 'America/Mexico_City';
const invoicesOf = (purchaseId: number) => server.db.select().from(invoice).where(eq(invoice.purchase_id, purchaseId)).orderBy(invoice.invoice_id);
const purchaseRow = async (id: number) => (await server.db.select().from(purchase).where(eq(purchase.purchase_id, id)))[0]!;
const creditsOf = (purchaseId: number) => server.db.select().from(available_classes).where(eq(available_classes.purchase_id, purchaseId)).orderBy(available_classes.available_class_id);

describe('charge dates (the spec rule, month and year boundaries)', () => {
  const monthly = (createdAt: string, trial: number | null = null) => ({
    createdAt,
    free_trial_length: trial,
    free_trial_period: trial ? 'day' : null,
    subscription_interval: 1,
    subscription_period: 'month',
  });

  it('counts each charge from the start: 31 Jan → 28 Feb → 31 Mar, and across New Year', () => {
    const s = monthly('2026-01-31T18:00:00.000Z');
    expect([1, 2, 3].map((k) => chargeDate(s, k, tz).toISOString())).toEqual(['2026-02-28T18:00:00.000Z', '2026-03-31T18:00:00.000Z', '2026-04-30T18:00:00.000Z']);
    // New Year's Eve 23:30 in Mexico City is 05:30 UTC on 1 January.
    const nye = monthly('2027-01-01T05:30:00.000Z');
    expect(chargeDate(nye, 1, tz).toISOString()).toBe('2027-02-01T05:30:00.000Z');
    const dec = monthly('2026-12-31T12:00:00.000Z');
    expect([1, 2, 12].map((k) => chargeDate(dec, k, tz).toISOString())).toEqual(['2027-01-31T12:00:00.000Z', '2027-02-28T12:00:00.000Z', '2027-12-31T12:00:00.000Z']);
  });

  it('a free trial: the first charge at its end, then every period after it', () => {
    const s = monthly('2026-12-25T12:00:00.000Z', 7);
    expect([1, 2].map((k) => chargeDate(s, k, tz).toISOString())).toEqual(['2027-01-01T12:00:00.000Z', '2027-02-01T12:00:00.000Z']);
  });

  it('the cycle of a paid-through date, and where a late payment lasts until', () => {
    const s = monthly('2026-01-31T18:00:00.000Z');
    expect(cycleAt(s, new Date('2026-02-28T18:00:03.000Z'), tz)).toBe(1);
    expect(cycleAt(s, new Date('2026-03-31T18:00:00.000Z'), tz)).toBe(2);
    expect(nextCycleAfter(s, 1, new Date('2026-03-01T00:00:00.000Z'), tz)).toBe(2);
    expect(nextCycleAfter(s, 1, new Date('2026-04-02T00:00:00.000Z'), tz)).toBe(3);
  });

  it('retry days: the setting, empty for none, the default when unreadable', () => {
    expect(retryDays('1,3,5')).toEqual([1, 3, 5]);
    expect(retryDays('')).toEqual([]);
    expect(retryDays(undefined)).toEqual([1, 3, 5]);
    expect(retryDays('x')).toEqual([1, 3, 5]);
  });
});

describe('a sandbox subscription renews on its date', () => {
  it('charged once with the saved card: a new invoice, the credits of the new period and its receipt', async () => {
    const who = await newCustomer(server.db, 'Renata');
    const card = await saveCard(server.db, who, 'pm_card_visa', '4242');
    const bought = await buy(server.db, server.config, who, pkgId, { sourceId: card });
    expect(bought.status).toBe('active');
    const due = bought.expiration_date!;
    expect(Math.abs(due.getTime() - chargeDate(bought, 1, tz).getTime())).toBeLessThan(60_000);

    expect(await renewSubscription(deps(), bought.purchase_id, minutes(due, -1))).toBe('not-due');
    const at = minutes(due, 2);
    expect(await renewSubscription(deps(), bought.purchase_id, at)).toBe('renewed');
    // Run again, and through the job: already renewed for that period.
    expect(await renewSubscription(deps(), bought.purchase_id, at)).toBe('not-due');
    // The job renews the demo studio's own subscriptions due by then too (some days of the month bring one within the day); never this one again.
    const othersDue = (await server.db.select().from(purchase).where(and(eq(purchase.provider, 'sandbox'), eq(purchase.status, 'active')))).filter(
      (p) => p.purchase_id !== bought.purchase_id && p.subscription_id !== null && p.expiration_date !== null && p.expiration_date <= at,
    ).length;
    expect(await subscriptionRenewalsJob.run({ db: server.db, config: server.config, messages: messageContextOf(server.config), log: console }, at)).toBe(othersDue);

    const bills = await invoicesOf(bought.purchase_id);
    expect(bills.map((b) => [b.status, b.total_payment])).toEqual([
      ['completed', '100.00'],
      ['completed', '100.00'],
    ]);
    const renewal = bills[1]!;
    expect(renewal.provider_invoice_id).toBe(`sandbox_in_${bought.purchase_id}_1_0`);
    expect(renewal.period_start?.toISOString()).toBe(chargeDate(bought, 1, tz).toISOString());
    expect(renewal.period_end?.toISOString()).toBe(chargeDate(bought, 2, tz).toISOString());
    expect((await purchaseRow(bought.purchase_id)).expiration_date?.toISOString()).toBe(chargeDate(bought, 2, tz).toISOString());
    const credits = await creditsOf(bought.purchase_id);
    expect(credits.map((c) => c.available_classes)).toEqual([4, 4]);
    expect(credits[1]!.expiration_date?.toISOString()).toBe(chargeDate(bought, 2, tz).toISOString());

    const renewed = await emailsOf(server.db, who, 'subscription-renewed');
    expect(renewed).toHaveLength(1);
    expect(renewed[0]!.dedupe_key).toBe(`receipt:invoice-${renewal.invoice_id}:email`);
    expect(renewed[0]!.body).toContain(`Orden #00${bought.purchase_id}`);
    expect(renewed[0]!.body).toContain('Tarjeta Visa terminación 4242');
    expect(renewed[0]!.body).toContain('Siguiente cargo');
    expect(renewed[0]!.body).toContain(`http://estudio.test/gracias/${bought.purchase_id}`);

    // The next period renews on its own date.
    expect(await renewSubscription(deps(), bought.purchase_id, minutes(chargeDate(bought, 2, tz), 1))).toBe('renewed');
    expect((await invoicesOf(bought.purchase_id)).at(-1)?.provider_invoice_id).toBe(`sandbox_in_${bought.purchase_id}_2_0`);
  });

  it('a server that was off for days charges one period, lasting to the next date ahead (no catch-up charges)', async () => {
    const who = await newCustomer(server.db);
    const card = await saveCard(server.db, who, 'pm_card_visa', '1111');
    const bought = await buy(server.db, server.config, who, pkgId, { sourceId: card });
    const late = days(bought.expiration_date!, 3.5);
    expect(await renewSubscription(deps(), bought.purchase_id, late)).toBe('renewed');
    expect(await renewSubscription(deps(), bought.purchase_id, late)).toBe('not-due');
    const p = await purchaseRow(bought.purchase_id);
    expect(p.expiration_date!.getTime()).toBeGreaterThan(late.getTime());
    expect(p.expiration_date!.toISOString()).toBe(chargeDate(bought, 5, tz).toISOString());
    expect((await invoicesOf(bought.purchase_id)).filter((b) => b.status === 'completed')).toHaveLength(2);
  });
});

describe('dunning: a declined renewal is retried, and the customer is told each time', () => {
  it('declined, retried on day 1 and 3; a card changed in between pays the next retry', async () => {
    const who = await newCustomer(server.db, 'Daniela');
    const good = await saveCard(server.db, who, 'pm_card_visa', '4242');
    const bought = await buy(server.db, server.config, who, pkgId, { sourceId: good });
    // The card is replaced by one without funds before the charge date.
    await server.db.update(payment_source).set({ deletedAt: new Date() }).where(eq(payment_source.payment_source_id, good));
    const declining = await saveCard(server.db, who, 'pm_card_visa_chargeDeclinedInsufficientFunds', '9995');
    // Marked default as the demo seed marks its cards: a card added later still wins (nothing in the product sets a default).
    await server.db.update(payment_source).set({ is_default: true }).where(eq(payment_source.payment_source_id, declining));
    const t0 = minutes(bought.expiration_date!, 1);

    expect(await renewSubscription(deps(), bought.purchase_id, t0)).toBe('declined');
    expect(await renewSubscription(deps(), bought.purchase_id, t0)).toBe('not-due');
    expect(await renewSubscription(deps(), bought.purchase_id, days(t0, 0.9))).toBe('not-due');
    let failed = await emailsOf(server.db, who, 'payment-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.body).toContain('fondos insuficientes');
    expect(failed[0]!.body).toContain('terminación 9995');
    expect(failed[0]!.body).toContain('Cambiar mi tarjeta: http://estudio.test/mystudio/metodos');
    expect(failed[0]!.body).toContain('Lo intentaremos de nuevo el');
    expect(failed[0]!.dedupe_key).toBe(`payment-failed:sandbox_in_${bought.purchase_id}_1_0:email`);
    const whatsapp = (await messagesOf(server.db, who, 'payment-failed')).filter((m) => m.channel === 'whatsapp');
    expect(whatsapp[0]?.whatsapp_template).toMatchObject({ name: 'estudio_pago_rechazado' });

    expect(await renewSubscription(deps(), bought.purchase_id, days(t0, 1))).toBe('declined');
    expect(await renewSubscription(deps(), bought.purchase_id, days(t0, 2))).toBe('not-due');
    failed = await emailsOf(server.db, who, 'payment-failed');
    expect(failed).toHaveLength(2);

    // The customer adds a card that pays: the retry on day 3 uses it.
    await saveCard(server.db, who, 'pm_card_visa', '4444');
    expect(await renewSubscription(deps(), bought.purchase_id, days(t0, 3))).toBe('renewed');
    const bills = await invoicesOf(bought.purchase_id);
    expect(bills.map((b) => `${b.provider_invoice_id ?? 'first'} ${b.status}`)).toEqual([
      'first completed',
      `sandbox_in_${bought.purchase_id}_1_0 failed`,
      `sandbox_in_${bought.purchase_id}_1_1 failed`,
      `sandbox_in_${bought.purchase_id}_1_2 completed`,
    ]);
    const p = await purchaseRow(bought.purchase_id);
    expect(p.status).toBe('active');
    expect(p.expiration_date!.getTime()).toBeGreaterThan(days(t0, 3).getTime());
    const renewed = await emailsOf(server.db, who, 'subscription-renewed');
    expect(renewed).toHaveLength(1);
    expect(renewed[0]!.body).toContain('terminación 4444');
  });

  it('every retry declined: cancelled after the last, told once, and never charged again', async () => {
    const who = await newCustomer(server.db, 'Bruno');
    const card = await saveCard(server.db, who, 'pm_card_visa', '4242');
    const bought = await buy(server.db, server.config, who, pkgId, { sourceId: card });
    await server.db.update(payment_source).set({ source_id: `pm_card_chargeDeclinedExpiredCard.${bought.purchase_id}` }).where(eq(payment_source.payment_source_id, card));
    const t0 = minutes(bought.expiration_date!, 1);
    const outcomes = [];
    for (const d of [0, 1, 3, 5]) outcomes.push(await renewSubscription(deps(), bought.purchase_id, days(t0, d)));
    expect(outcomes).toEqual(['declined', 'declined', 'declined', 'cancelled']);
    expect(await renewSubscription(deps(), bought.purchase_id, days(t0, 9))).toBe('not-due');

    const p = await purchaseRow(bought.purchase_id);
    expect(p).toMatchObject({ status: 'cancelled', cancel_reason: 'Pago rechazado' });
    const live = (await creditsOf(bought.purchase_id)).filter((c) => !c.expiration_date || c.expiration_date.getTime() > days(t0, 5).getTime());
    expect(live).toHaveLength(0);
    const failed = await emailsOf(server.db, who, 'payment-failed');
    expect(failed).toHaveLength(3);
    expect(failed[0]!.body).toContain('Tu tarjeta ha expirado');
    const cancelled = await emailsOf(server.db, who, 'subscription-cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.body).toContain('no pudimos cobrarla después de varios intentos');
    expect((await invoicesOf(bought.purchase_id)).filter((b) => b.status === 'failed')).toHaveLength(4);
  });

  it('no saved card: told to add one; with subscription_retry_days empty the first failure cancels', async () => {
    await server.db.insert(app_config).values({ key: 'subscription_retry_days', value: '' }).onConflictDoUpdate({ target: app_config.key, set: { value: '' } });
    try {
      const who = await newCustomer(server.db, 'Iván');
      const bought = await buy(server.db, server.config, who, pkgId, { token: 'pm_card_visa' });
      expect(await renewSubscription(deps(), bought.purchase_id, minutes(bought.expiration_date!, 1))).toBe('cancelled');
      expect(await emailsOf(server.db, who, 'payment-failed')).toHaveLength(0);
      expect(await emailsOf(server.db, who, 'subscription-cancelled')).toHaveLength(1);
    } finally {
      await server.db.update(app_config).set({ value: '1,3,5' }).where(eq(app_config.key, 'subscription_retry_days'));
    }
    const who = await newCustomer(server.db, 'Paola');
    const bought = await buy(server.db, server.config, who, pkgId, { token: 'pm_card_visa' });
    expect(await renewSubscription(deps(), bought.purchase_id, minutes(bought.expiration_date!, 1))).toBe('declined');
    const [failed] = await emailsOf(server.db, who, 'payment-failed');
    expect(failed!.body).toContain('No tienes una tarjeta guardada');
  });

  it('the job renews every due subscription and leaves the others', async () => {
    const a = await newCustomer(server.db);
    const b = await newCustomer(server.db);
    const first = await buy(server.db, server.config, a, pkgId, { sourceId: await saveCard(server.db, a, 'pm_card_visa', '0001') });
    const later = await buy(server.db, server.config, b, pkgId, { sourceId: await saveCard(server.db, b, 'pm_card_visa', '0002') });
    await server.db.update(purchase).set({ expiration_date: days(later.expiration_date!, 0.5) }).where(eq(purchase.purchase_id, later.purchase_id));
    const at = minutes(first.expiration_date!, 5);
    await renewDueSubscriptions(deps(), at);
    const bills = await server.db.select().from(invoice).where(and(eq(invoice.status, 'completed')));
    expect(bills.filter((x) => x.purchase_id === first.purchase_id)).toHaveLength(2);
    expect(bills.filter((x) => x.purchase_id === later.purchase_id)).toHaveLength(1);
  });
});
