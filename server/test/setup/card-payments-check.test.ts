import { studioSetupTexts } from '@estudio/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { stripeEnv, stripeKey } from '../support/stripe-fake/helpers.ts';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/server.ts';

/**
 * The owner's test of card payments from Primeros pasos (decision 132): the real stripe-node client asks the loopback
 * Stripe what the server's key can do, and the answer names, in Spanish, each thing to fix before real money comes in.
 */
const c = studioSetupTexts.cardCheck;
type Check = { provider: string; ready: boolean; lines: { ok: boolean; text: string }[] };

let fake: StripeFake;
let server: TestServer;
let admin: string;

beforeAll(async () => {
  fake = await startStripeFake();
  server = await startTestServer(stripeEnv(fake));
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

const check = async (app = server.app, token = admin) => {
  const res = await call(app, 'POST', '/api/setup/payments/check', { token, body: {} });
  expect(res.status, res.raw).toBe(200);
  return res.body as Check;
};
const setPublishable = (value: string) => call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'stripe_public', value }] } });

describe('the card payments check', () => {
  it("asks Stripe about the server's key, changing nothing, and says a test key takes no real money", async () => {
    expect((await setPublishable('pk_test_estudio')).status).toBe(200);
    const before = fake.requests.length;
    const answer = await check();
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/account']);
    expect(answer).toEqual({
      provider: 'stripe',
      ready: false,
      lines: [
        { ok: true, text: c.connected('Estudio Demo', false) },
        { ok: false, text: c.testMode },
        { ok: true, text: c.publicKeyMatches },
      ],
    });
  });

  it('names what the account and the settings still lack: activation, pesos, the publishable key of the same mode', async () => {
    fake.account = { ...fake.account, charges_enabled: false, default_currency: 'usd' };
    expect((await setPublishable('pk_live_estudio')).status).toBe(200);
    const { lines } = await check();
    expect(lines.filter((l) => !l.ok).map((l) => l.text)).toEqual([c.testMode, c.chargesDisabled, c.currency('USD'), c.modeMismatch(false)]);
    fake.account = { ...fake.account, charges_enabled: true, default_currency: 'mxn' };
  });

  it('a live key with everything in place is ready; without the webhook secret, OXXO and SPEI would not confirm', async () => {
    const live = await server.withConfig({ ...stripeEnv(fake), STRIPE_SECRET_KEY: 'sk_live_estudio' });
    expect(await check(live)).toMatchObject({ provider: 'stripe', ready: true, lines: [{ ok: true, text: c.connected('Estudio Demo', true) }, { ok: true, text: c.publicKeyMatches }] });
    const noHook = await server.withConfig({ ...stripeEnv(fake), STRIPE_SECRET_KEY: 'sk_live_estudio', STRIPE_WEBHOOK_SECRET: '' });
    expect(await check(noHook)).toMatchObject({ ready: false, lines: expect.arrayContaining([{ ok: false, text: c.noWebhookSecret }]) });
  });

  it('a key Stripe refuses, or no key at all, is said plainly', async () => {
    fake.refusedKeys.add(stripeKey);
    expect(await check()).toEqual({ provider: 'stripe', ready: false, lines: [{ ok: false, text: c.keyRefused }] });
    fake.refusedKeys.clear();
    const sandbox = await server.withConfig({ STRIPE_SECRET_KEY: '' });
    expect(await check(sandbox)).toEqual({ provider: 'sandbox', ready: false, lines: [{ ok: false, text: c.noSecretKey }] });
  });

  it('is the owner’s: reception and customers are refused', async () => {
    const desk = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    expect((await call(server.app, 'POST', '/api/setup/payments/check', { token: desk, body: {} })).status).toBe(403);
  });
});
