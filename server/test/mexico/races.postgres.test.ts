import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cfdi, cfdi_global_charge } from '@estudio/db/schema/cfdi';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { issueGlobalInvoices } from '../../src/services/cfdi/global-invoice.ts';
import { expireHoldsJob } from '../../src/services/clock/expire-holds.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { startRacingServer, type RacingServer } from '../support/helpers.ts';
import { stripeEnv } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';
import type { Config } from '../../src/config.ts';

/**
 * Races of Mexico's money on PostgreSQL with real parallel requests (PGlite
 * has one connection and cannot race: TEST_DATABASE_URL only): an OXXO
 * voucher paid while the clock expires it, two deliveries of its payment at
 * once, an invoice asked for twice at once, and against the global invoice.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('Mexico’s money under races', () => {
  let fake: StripeFake;
  let race: RacingServer & { config: Config };
  let token: string;
  const pkg: Record<string, number> = {};

  beforeAll(async () => {
    fake = await startStripeFake();
    race = await startRacingServer(stripeEnv(fake));
    fake.webhookUrl = `${race.base}/api/webhooks/stripe`;
    const res = await fetch(`${race.base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'cliente@estudio.demo', password: 'Demo1234!' }) });
    token = ((await res.json()) as { idToken: string }).idToken;
    for (const p of await race.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
  }, 120_000);
  afterAll(async () => {
    await race?.close();
    await fake?.close();
  });

  const voucher = async (title: string) => {
    const res = await race.post<{ purchase_id: number }>('/api/checkout/voucher', token, { class_package_id: pkg[title], channel: 'oxxo' });
    expect(res.status).toBe(200);
    return (await race.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id)))[0]!;
  };
  const clock = { db: null as never, config: null as never, messages: null as never, log: { info() {}, warn() {}, error() {} } };

  it('a voucher paid while its hold expires: each purchase is paid once, with one charge and one set of credits', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const p = await voucher('1 Clase');
      ids.push(p.purchase_id);
      // Paid at the store; the webhook and the clock's expiry (hold just over) meet.
      const paid = fake.payVoucher(p.provider_payment_id!);
      const at = new Date(p.hold_until!.getTime() + 1000);
      await Promise.all([fake.send(paid), fake.send(paid), expireHoldsJob.run({ ...clock, db: race.db, config: race.config, messages: messageContextOf(race.config) }, at)]);
    }
    const rows = await race.db.select().from(purchase).where(inArray(purchase.purchase_id, ids));
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'completed'));
    for (const id of ids) {
      expect(await race.db.select().from(invoice).where(eq(invoice.purchase_id, id))).toHaveLength(1);
      expect(await race.db.select().from(available_classes).where(eq(available_classes.purchase_id, id))).toHaveLength(1);
    }
  });

  it('two webhooks at once (the same event, and two events of one payment): one grant', async () => {
    const p = await voucher('5 Clases');
    const paid = fake.payVoucher(p.provider_payment_id!);
    const again = { ...paid, id: `${paid.id}_retry` };
    const statuses = await Promise.all([...Array.from({ length: 6 }, () => fake.send(paid)), ...Array.from({ length: 6 }, () => fake.send(again))]);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await race.db.select().from(invoice).where(eq(invoice.purchase_id, p.purchase_id))).toHaveLength(1);
    const credits = await race.db.select().from(available_classes).where(eq(available_classes.purchase_id, p.purchase_id));
    expect(credits.map((c) => c.available_classes)).toEqual([5]);
  });

  it('an invoice asked for ten times at once is one invoice; against the global invoice, a sale goes on one of them', async () => {
    await fetch(`${race.base}/api/customer/tax_profile`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rfc: 'GODE561231GR8', legal_name: 'Emilio González Díaz', tax_regime: '612', cfdi_use: 'G03', postcode: '06700' }),
    });
    const p = await voucher('1 Clase');
    await fake.send(fake.payVoucher(p.provider_payment_id!));
    const answers = await Promise.all(Array.from({ length: 10 }, () => race.post<{ cfdi?: { cfdi_id: number } }>(`/api/purchases/${p.purchase_id}/cfdi`, token, {})));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.cfdi?.cfdi_id)).size).toBe(1);
    expect(await race.db.select().from(cfdi).where(and(eq(cfdi.purchase_id, p.purchase_id), eq(cfdi.kind, 'invoice')))).toHaveLength(1);

    // Sales of last month, each asked for while the global invoice is made: every charge ends on exactly one.
    // The 10th of last month at noon on the studio's clock (Mexico City, UTC−6): on 31 December at 23:30
    // it is already January in UTC, and last month is still November.
    const studioNow = new Date(Date.now() - 6 * 3_600_000);
    const lastMonth = new Date(Date.UTC(studioNow.getUTCFullYear(), studioNow.getUTCMonth() - 1, 10, 18));
    const sold: number[] = [];
    for (let i = 0; i < 6; i++) {
      const v = await voucher('1 Clase');
      await fake.send(fake.payVoucher(v.provider_payment_id!));
      sold.push(v.purchase_id);
    }
    await race.db.update(invoice).set({ paidAt: lastMonth }).where(inArray(invoice.purchase_id, sold));
    // The window has closed, so requests are refused; they still take the charge's lock while the global invoice is made.
    const [asks] = await Promise.all([Promise.all(sold.map((id) => race.post(`/api/purchases/${id}/cfdi`, token, {}))), issueGlobalInvoices(race.db, new Date())]);
    expect(asks.every((a) => a.status === 409)).toBe(true);
    const charges = await race.db.select().from(invoice).where(inArray(invoice.purchase_id, sold));
    const lines = await race.db.select().from(cfdi_global_charge).where(inArray(cfdi_global_charge.charge_id, charges.map((c) => c.invoice_id)));
    expect(lines).toHaveLength(6);
    expect(await race.db.select().from(cfdi).where(and(inArray(cfdi.purchase_id, sold), eq(cfdi.kind, 'invoice')))).toHaveLength(0);
  });
});
