import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer } from '@estudio/db/schema/customer';
import { payment_source } from '@estudio/db/schema/payments';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { customerId } from '../support/reservations-fixtures.ts';
import { stripeEnv } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

/** '+ Agregar' in Métodos de Pago with Stripe (the real stripe-node client against the loopback fake). */
let fake: StripeFake;
let server: TestServer;
let nuevo: string;
let nuevoId: number;

beforeAll(async () => {
  fake = await startStripeFake();
  server = await startTestServer(stripeEnv(fake));
  nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
  nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('a card added outside a purchase goes through a SetupIntent', () => {
  it('setup creates the Stripe customer once and a SetupIntent for it, each with its own idempotency key', async () => {
    const first = await call(server.app, 'POST', '/api/payment_sources/setup', { token: nuevo, body: {} });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ card_provider: 'stripe', clientSecret: expect.stringMatching(/^seti_[0-9a-f]+_secret_/) });
    const [row] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(row?.stripe_customer_id).toMatch(/^cus_/);
    const intents = () => fake.requests.filter((r) => r.path === '/v1/setup_intents');
    expect(intents()[0]?.form).toMatchObject({ customer: row?.stripe_customer_id, usage: 'off_session' });

    const second = await call(server.app, 'POST', '/api/payment_sources/setup', { token: nuevo, body: {} });
    expect(second.body.clientSecret).not.toBe(first.body.clientSecret);
    expect(new Set(intents().map((r) => r.idempotencyKey)).size).toBe(2);
    expect(fake.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(1);
  });

  it('the card the browser confirmed is already the customer’s: saved without attaching it again', async () => {
    const [row] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    // What stripe.confirmCardSetup leaves behind: a PaymentMethod attached to the customer.
    fake.objects.set('pm_confirmed_setup', {
      id: 'pm_confirmed_setup',
      object: 'payment_method',
      customer: row?.stripe_customer_id,
      card: { brand: 'visa', last4: '4242', exp_month: 8, exp_year: 2031 },
    });
    const attachesBefore = fake.requests.filter((r) => r.path.endsWith('/attach')).length;
    const saved = await call(server.app, 'POST', '/api/payment_sources', {
      token: nuevo,
      body: { payment_method_token: 'pm_confirmed_setup', card_type: 'visa', last_digits: '4242' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.payment_source).toMatchObject({ source_id: 'pm_confirmed_setup', card_type: 'visa', last_digits: '4242', exp_month: 8, exp_year: 2031 });
    expect(fake.requests.filter((r) => r.path.endsWith('/attach')).length).toBe(attachesBefore);
    const list = await call(server.app, 'GET', '/api/payment_sources', { token: nuevo });
    expect(list.body.payment_sources.map((s: { source_id: string }) => s.source_id)).toContain('pm_confirmed_setup');
  });

  it("another customer's card is refused, not taken over", async () => {
    fake.objects.set('pm_someone_else', { id: 'pm_someone_else', object: 'payment_method', customer: 'cus_otro', card: { brand: 'visa', last4: '1111' } });
    const res = await call(server.app, 'POST', '/api/payment_sources', {
      token: nuevo,
      body: { payment_method_token: 'pm_someone_else', card_type: 'visa', last_digits: '1111' },
    });
    expect(res.status).toBe(404);
    expect(await server.db.select().from(payment_source).where(eq(payment_source.source_id, 'pm_someone_else'))).toHaveLength(0);
  });
});
