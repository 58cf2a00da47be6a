import Stripe from 'stripe';
import type { FastifyInstance } from 'fastify';
import type { StripeFake } from './server.ts';

export const stripeKey = 'sk_test_estudio_fake';
export const webhookSecret = 'whsec_estudio_prueba';

/** Server env that points stripe-node at the loopback fake. */
export function stripeEnv(fake: StripeFake): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: stripeKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_HOST: fake.host,
    STRIPE_API_PORT: String(fake.port),
    STRIPE_API_PROTOCOL: 'http',
  };
}

const signer = new Stripe(stripeKey);

let counter = 0;
/** A Stripe event envelope around `object`. */
export function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_test_${Date.now()}_${++counter}`) {
  return { id, object: 'event', type, api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), livemode: false, data: { object } };
}

/** Delivers an event to /api/webhooks/stripe signed as Stripe does (or with a wrong secret). */
export async function deliver(app: FastifyInstance, event: unknown, opts: { secret?: string } = {}) {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? webhookSecret });
  const res = await app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}
