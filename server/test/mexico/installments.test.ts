import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox_message } from '@estudio/db/schema/outbox';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { stripeEnv } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

/**
 * Decision 082: meses sin intereses. The card's bank says which plans it has
 * (Stripe's available_plans; the sandbox mirrors Stripe's test mode: the
 * Mexican test card 4000 0048 4000 8001 has them, 4242 does not), the studio
 * offers them from its amount, the customer chooses, the plan is on the
 * purchase, the receipt and the sales report.
 */
let sandbox: TestServer;
let fake: StripeFake;
let stripe: TestServer;
const pkg: Record<string, number> = {};

beforeAll(async () => {
  sandbox = await startTestServer();
  fake = await startStripeFake();
  stripe = await startTestServer(stripeEnv(fake));
  for (const p of await sandbox.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
}, 180_000);
afterAll(async () => {
  await sandbox?.close();
  await stripe?.close();
  await fake?.close();
});

const attempt = (server: TestServer, token: string, title: string, card: string) =>
  call(server.app, 'POST', '/api/checkout/attempt', { token, body: { class_package_id: pkg[title], payment_method: 1, payment_method_token: card, ask_installments: true } });

describe.each([
  ['the sandbox', () => sandbox],
  ['Stripe', () => stripe],
])('meses sin intereses with %s', (_name, serverOf) => {
  it('offers the plans of a Mexican card for $1,350, charges the plan chosen and says it everywhere', async () => {
    const server = serverOf();
    const token = (await login(server.app, 'cliente@estudio.demo')).idToken;
    const asked = await attempt(server, token, '10 Clases', 'pm_card_mx');
    expect(asked.status).toBe(200);
    expect(asked.body.installment_plans).toEqual([
      { count: 3, monthly: '450.00' },
      { count: 6, monthly: '225.00' },
      { count: 9, monthly: '150.00' },
      { count: 12, monthly: '112.50' },
    ]);
    // Nothing is charged before the choice.
    const id = asked.body.purchase_id as number;
    expect((await server.db.select().from(purchase).where(eq(purchase.purchase_id, id)))[0]!.status).toBe('pending');
    const paid = await call(server.app, 'POST', '/api/checkout/confirm', { token, body: { clientSecret: asked.body.clientSecret, payment_method_token: 'pm_card_mx', installments: 6 } });
    expect(paid.status).toBe(200);
    const order = (await call(server.app, 'GET', `/api/purchases/${id}`, { token })).body.purchase;
    expect(order.status).toBe('completed');
    expect(order.installments).toEqual({ count: 6, monthly: '225.00' });
    const receipt = await server.db.select().from(outbox_message).where(eq(outbox_message.kind, 'purchase-receipt'));
    expect(receipt.some((m) => m.body.includes(`Orden #00${id}`) && m.body.includes('6 meses sin intereses de $225.00'))).toBe(true);
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    const day = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Mexico_City' });
    const report = (await call(server.app, 'GET', `/api/reports/sales?start_date=${day}&end_date=${day}`, { token: admin })).body;
    expect(report.installments).toEqual([{ count: 6, sales: 1, total: '1350.00' }]);
  });

  it('a card without plans pays at once; below the studio’s amount none are asked', async () => {
    const server = serverOf();
    const token = (await login(server.app, 'cliente@estudio.demo')).idToken;
    const us = await attempt(server, token, '10 Clases', 'pm_card_visa');
    expect(us.status).toBe(200);
    expect(us.body.installment_plans).toBeUndefined();
    expect((await call(server.app, 'GET', `/api/purchases/${us.body.purchase_id}`, { token })).body.purchase.status).toBe('completed');
    const small = await attempt(server, token, '5 Clases', 'pm_card_mx');
    expect(small.body.installment_plans).toBeUndefined();
  });

  it('refuses a plan the amount or the studio does not allow, and the purchase waits for another choice', async () => {
    const server = serverOf();
    const token = (await login(server.app, 'cliente@estudio.demo')).idToken;
    const [pkgRow] = await server.db.insert(class_package).values({ title: `Paquete 1100 ${Math.random()}`, price: '1100.00', class_amount: 8, expiration_days: 60 }).returning();
    const asked = await call(server.app, 'POST', '/api/checkout/attempt', {
      token,
      body: { class_package_id: pkgRow!.class_package_id, payment_method: 1, payment_method_token: 'pm_card_mx', ask_installments: true },
    });
    expect(asked.body.installment_plans.map((p: { count: number }) => p.count)).toEqual([3, 6, 9]);
    const twelve = await call(server.app, 'POST', '/api/checkout/confirm', { token, body: { clientSecret: asked.body.clientSecret, payment_method_token: 'pm_card_mx', installments: 12 } });
    expect(twelve.status).toBe(400);
    expect(twelve.body.code).toBe('checkout/installments-plan');
    const three = await call(server.app, 'POST', '/api/checkout/confirm', { token, body: { clientSecret: asked.body.clientSecret, payment_method_token: 'pm_card_mx', installments: 3 } });
    expect(three.status).toBe(200);
  });
});
