import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { expireHoldsJob } from '../../src/services/clock/expire-holds.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { deliver, stripeEnv } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

/**
 * Decision 080: OXXO vouchers and SPEI transfers to the customer's own CLABE,
 * through stripe-node against the loopback Stripe fake; Stripe's events
 * delivered signed to the real webhook route.
 */
let fake: StripeFake;
let server: TestServer;
let mariana: { token: string; id: number };
let admin: string;
const pkg: Record<string, number> = {};
const today = () => new Date().toLocaleDateString('en-CA', { timeZone: 'America/Mexico_City' });

beforeAll(async () => {
  fake = await startStripeFake();
  server = await startTestServer(stripeEnv(fake));
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
  mariana = { token: (await login(server.app, 'cliente@estudio.demo')).idToken, id: (await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo')))[0]!.customer_id };
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const buyWith = (channel: 'oxxo' | 'spei', title: string, token = mariana.token) =>
  call(server.app, 'POST', '/api/checkout/voucher', { token, body: { class_package_id: pkg[title], channel } });
const order = async (id: number, token = mariana.token) => (await call(server.app, 'GET', `/api/purchases/${id}`, { token })).body.purchase;
const rowOf = async (id: number) => (await server.db.select().from(purchase).where(eq(purchase.purchase_id, id)))[0]!;
const sales = async () => (await call(server.app, 'GET', `/api/reports/sales?start_date=${today()}&end_date=${today()}`, { token: admin })).body;
const cashUp = async () => (await call(server.app, 'GET', `/api/reports/cash_up?date=${today()}`, { token: admin })).body;
const messages = (customerId: number, kind: string) =>
  server.db.select().from(outbox_message).where(and(eq(outbox_message.customer_id, customerId), eq(outbox_message.kind, kind)));
const clockCtx = () => ({ db: server.db, config: server.config, messages: messageContextOf(server.config), log: { info() {}, warn() {}, error() {} } });

describe('OXXO', () => {
  it('a voucher with reference and expiry holds the purchase; Stripe’s webhook pays it once; till then it is no sale and no drawer cash', async () => {
    const before = await sales();
    const drawer = (await cashUp()).expected_cash;
    const res = await buyWith('oxxo', '5 Clases');
    expect(res.status).toBe(200);
    const id = res.body.purchase_id as number;
    const p = await order(id);
    expect(p.status).toBe('pending');
    expect(p.payment_channel).toBe('oxxo');
    expect(p.payment_instructions).toMatchObject({ channel: 'oxxo', amount: '800.00', remaining: '800.00' });
    expect(p.payment_instructions.reference).toMatch(/^\d{18}$/);
    expect(p.payment_instructions.hosted_url).toMatch(/^https:/);
    const row = await rowOf(id);
    // The hold is the voucher's expiry, not the card's 30 minutes.
    expect(row.hold_until?.toISOString()).toBe(p.payment_instructions.expires_at);
    expect(row.hold_until!.getTime()).toBeGreaterThan(Date.now() + 86_400_000);
    const sent = await messages(mariana.id, 'payment-instructions');
    expect(sent.some((m) => m.channel === 'email' && m.body.includes(p.payment_instructions.reference))).toBe(true);
    // Money not received: not a sale, not in the drawer.
    expect((await sales()).count).toBe(before.count);
    expect((await cashUp()).expected_cash).toBe(drawer);

    const intent = fake.objects.get(row.provider_payment_id!)!;
    expect(intent.status).toBe('requires_action');
    const paid = fake.payVoucher(intent.id as string);
    expect((await deliver(server.app, paid)).status).toBe(200);
    expect((await deliver(server.app, paid)).body.duplicate).toBe(true);
    const done = await rowOf(id);
    expect(done.status).toBe('completed');
    expect(done.hold_until).toBeNull();
    expect(await server.db.select().from(invoice).where(eq(invoice.purchase_id, id))).toHaveLength(1);
    const credits = await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id));
    expect(credits.map((c) => c.available_classes)).toEqual([5]);
    const receipt = (await messages(mariana.id, 'purchase-receipt')).find((m) => m.body.includes(`Orden #00${id}`));
    expect(receipt?.body).toContain('Efectivo en OXXO');
    const after = await sales();
    expect(after.count).toBe(before.count + 1);
    expect(after.by_method.find((m: { method: string }) => m.method === 'oxxo')?.total).toBe('800.00');
    // Cash at an OXXO store is not cash in the studio's drawer.
    expect((await cashUp()).expected_cash).toBe(drawer);
  });

  it('holds the last place until the voucher expires, then frees it and tells the customer', async () => {
    const [event] = await server.db
      .insert(class_package)
      .values({ title: 'Taller OXXO', price: '300.00', class_amount: 1, expiration_days: 30, people_limit: 1, is_special_event: true })
      .returning();
    pkg['Taller OXXO'] = event!.class_package_id;
    const first = await buyWith('oxxo', 'Taller OXXO');
    expect(first.status).toBe(200);
    const other = (await login(server.app, 'nuevo@estudio.demo')).idToken;
    // Another customer is refused while the voucher lives, also after the card hold's 30 minutes would have lapsed.
    expect((await buyWith('oxxo', 'Taller OXXO', other)).status).toBe(412);
    const row = await rowOf(first.body.purchase_id);
    const laterThanCards = new Date(Date.now() + 2 * 3_600_000);
    expect(await expireHoldsJob.run(clockCtx(), laterThanCards)).toBe(0);
    expect((await rowOf(row.purchase_id)).status).toBe('pending');

    // Stripe closes the voucher unpaid: the place frees and the customer reads why.
    const expired = fake.expireVoucher(row.provider_payment_id!);
    expect((await deliver(server.app, expired)).status).toBe(200);
    expect((await rowOf(row.purchase_id)).status).toBe('failed');
    const told = await messages(mariana.id, 'voucher-expired');
    expect(told.some((m) => m.subject?.includes('venció'))).toBe(true);
    expect((await buyWith('oxxo', 'Taller OXXO', other)).status).toBe(200);
  });

  it('at the voucher’s expiry the clock asks Stripe: still open keeps the hold, paid pays it, closed frees it', async () => {
    const res = await buyWith('oxxo', '1 Clase');
    const id = res.body.purchase_id as number;
    const row = await rowOf(id);
    const afterExpiry = new Date(row.hold_until!.getTime() + 60_000);
    // Stripe has not closed it (OXXO reports up to a business day late): the hold goes on, an hour at a time.
    expect(await expireHoldsJob.run(clockCtx(), afterExpiry)).toBe(0);
    const extended = await rowOf(id);
    expect(extended.status).toBe('pending');
    expect(extended.hold_until!.getTime()).toBe(afterExpiry.getTime() + 3_600_000);
    // Paid with no webhook: the clock pays it.
    fake.payVoucher(row.provider_payment_id!);
    await expireHoldsJob.run(clockCtx(), new Date(extended.hold_until!.getTime() + 1000));
    expect((await rowOf(id)).status).toBe('completed');
  });

  it('refuses an amount OXXO does not take, and is not offered without Stripe', async () => {
    const [big] = await server.db.insert(class_package).values({ title: 'Anual', price: '12000.00', class_amount: -1, expiration_days: 365 }).returning();
    const res = await call(server.app, 'POST', '/api/checkout/voucher', { token: mariana.token, body: { class_package_id: big!.class_package_id, channel: 'oxxo' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('$10,000.00');
    expect((await call(server.app, 'GET', '/api/checkout/options')).body).toEqual({ oxxo: true, spei: true, installments_min_amount: '1000.00' });
    const sandbox = await server.withConfig({ STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' });
    expect((await call(sandbox, 'GET', '/api/checkout/options')).body).toMatchObject({ oxxo: false, spei: false });
    const refused = await call(sandbox, 'POST', '/api/checkout/voucher', { token: mariana.token, body: { class_package_id: pkg['1 Clase'], channel: 'spei' } });
    expect(refused.status).toBe(400);
  });

  it('staff cannot mark a voucher paid by hand', async () => {
    const res = await buyWith('oxxo', '1 Clase');
    const marked = await call(server.app, 'PUT', `/api/purchases/${res.body.purchase_id}/paid`, { token: admin });
    expect(marked.status).toBe(409);
    expect(marked.body.message).toContain('ficha OXXO');
  });
});

describe('SPEI', () => {
  it('a CLABE of the customer’s own; a short transfer is explained and pays nothing; the rest pays it; money over is hers and explained', async () => {
    const res = await buyWith('spei', '10 Clases');
    expect(res.status).toBe(200);
    const id = res.body.purchase_id as number;
    const p = await order(id);
    expect(p.payment_instructions).toMatchObject({ channel: 'spei', amount: '1350.00', bank_name: 'Banco Citi México' });
    expect(p.payment_instructions.clabe).toMatch(/^\d{18}$/);
    const stripeCustomer = (await server.db.select().from(customer).where(eq(customer.customer_id, mariana.id)))[0]!.stripe_customer_id!;

    for (const ev of fake.fundBankTransfer(stripeCustomer, 50_000)) expect((await deliver(server.app, ev)).status).toBe(200);
    const short = await order(id);
    expect(short.status).toBe('pending');
    expect(short.payment_instructions).toMatchObject({ received: '500.00', remaining: '850.00' });
    expect((await messages(mariana.id, 'transfer-received')).some((m) => m.body.includes('Faltan $850.00'))).toBe(true);

    for (const ev of fake.fundBankTransfer(stripeCustomer, 100_000)) expect((await deliver(server.app, ev)).status).toBe(200);
    const paid = await order(id);
    expect(paid.status).toBe('completed');
    // $1,000 sent for the $850 missing: $150 stay in her balance, shown on the order and told.
    expect(paid.payment_instructions).toMatchObject({ overpaid: '150.00' });
    expect((await messages(mariana.id, 'transfer-received')).some((m) => m.body.includes('$150.00 MXN de más'))).toBe(true);
    const bySpei = (await sales()).by_method.find((m: { method: string }) => m.method === 'spei');
    expect(bySpei?.total).toBe('1350.00');
  });

  it('a transfer never finished lapses with the cash hold, its intent is cancelled at Stripe and the customer told', async () => {
    const res = await buyWith('spei', '1 Clase');
    const id = res.body.purchase_id as number;
    const row = await rowOf(id);
    await expireHoldsJob.run(clockCtx(), new Date(Date.now() + 25 * 3_600_000));
    expect((await rowOf(id)).status).toBe('failed');
    expect(fake.objects.get(row.provider_payment_id!)?.status).toBe('canceled');
    expect((await messages(mariana.id, 'voucher-expired')).some((m) => m.subject?.includes('transferencia'))).toBe(true);
  });
});
