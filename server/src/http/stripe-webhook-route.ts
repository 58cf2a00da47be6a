import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { domainErrors, type ApiErrorBody } from '@estudio/core';
import type Stripe from 'stripe';
import { isConnectionLost } from '@estudio/db/errors';
import type { Config } from '../config.ts';
import type { Db } from '../db.ts';
import { processStripeEvent, type RefusedCharge } from '../services/checkout/stripe-webhook.ts';
import { messageContextOf } from '../services/messages/message-context.ts';
import { paymentProviders } from '../providers/payments/index.ts';

const body = (code: 'webhook/invalid-signature' | 'route-not-found' | 'internal' | 'db/unavailable'): ApiErrorBody => ({ code, message: domainErrors[code].message });

/** A charge that pays nothing (a cap refused it, or the order was cancelled before it arrived): the subscription ends and the payment is refunded; a failure is logged for a refund by hand. */
async function giveBack(config: Config, charge: RefusedCharge, log: FastifyBaseLogger): Promise<void> {
  const { card } = paymentProviders(config);
  try {
    if (charge.subscriptionId) await card.cancelSubscription(charge.subscriptionId, { now: true });
    else if (charge.paymentId) await card.refundPayment(charge.paymentId, `purchase-${charge.purchaseId}-refund`);
    log.warn({ purchaseId: charge.purchaseId }, 'a charge that pays nothing (cap refused, or order cancelled first) was given back');
  } catch (err) {
    log.error({ err, purchaseId: charge.purchaseId }, 'a charge that pays nothing could not be refunded: refund it by hand');
  }
}

/** Stripe's default: a signature is good for five minutes either side of now. */
const toleranceSeconds = 300;

/** The `t=` timestamp of a Stripe-Signature header (seconds). */
const signedAt = (header: string) => Number(/(?:^|,)t=(\d+)/.exec(header)?.[1] ?? 0);

/**
 * POST /api/webhooks/stripe, as an encapsulated plugin: its own
 * content-type parser keeps the raw bytes (the signature covers them
 * exactly) without touching the JSON parsing of the rest of /api. The event
 * is verified with stripe.webhooks.constructEvent (400 and nothing changes on
 * a bad signature) and applied exactly once.
 */
export async function stripeWebhookRoutes(app: FastifyInstance, opts: { config: Config; db: Db }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, raw, done) => done(null, raw));

  app.post('/api/webhooks/stripe', async (req, reply) => {
    const { stripe } = paymentProviders(opts.config);
    const secret = opts.config.STRIPE_WEBHOOK_SECRET;
    if (!stripe || !secret) return reply.code(404).send(body('route-not-found'));
    const signature = req.headers['stripe-signature'];
    const raw = req.body;
    if (typeof signature !== 'string' || !Buffer.isBuffer(raw)) return reply.code(400).send(body('webhook/invalid-signature'));
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(raw, signature, secret, toleranceSeconds);
    } catch {
      return reply.code(400).send(body('webhook/invalid-signature'));
    }
    // stripe-node refuses signatures older than the tolerance but not ones dated ahead of it, which could be replayed until then.
    if (signedAt(signature) > Date.now() / 1000 + toleranceSeconds) return reply.code(400).send(body('webhook/invalid-signature'));
    try {
      const refused: RefusedCharge[] = [];
      const applied = await processStripeEvent(opts.db, event, messageContextOf(opts.config), new Date(), refused);
      for (const charge of refused) await giveBack(opts.config, charge, req.log);
      return reply.send({ received: true, duplicate: !applied });
    } catch (err) {
      req.log.error({ err, eventId: event.id, type: event.type }, 'stripe webhook failed');
      // Any non-2xx makes Stripe deliver the event again later; a lost database connection says so honestly.
      if (isConnectionLost(err)) return reply.code(503).send(body('db/unavailable'));
      return reply.code(500).send(body('internal'));
    }
  });
}
