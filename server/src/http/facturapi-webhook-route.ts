import type { FastifyInstance } from 'fastify';
import { domainErrors, type ApiErrorBody } from '@estudio/core';
import { isConnectionLost } from '@estudio/db/errors';
import type { Config } from '../config.ts';
import type { Db } from '../db.ts';
import { applyFacturapiEvent } from '../services/cfdi/facturapi-events.ts';
import { resolvePac } from '../services/cfdi/pac-settings.ts';

const body = (code: 'webhook/invalid-signature' | 'route-not-found' | 'internal' | 'db/unavailable'): ApiErrorBody => ({ code, message: domainErrors[code].message });

/**
 * POST /api/webhooks/facturapi (decision 084): facturapi tells a
 * cancellation's outcome (the receiver accepted or rejected it, the SAT
 * answered) and an asynchronous stamp. The Facturapi-Signature header is the
 * HMAC-SHA256 of the raw body with the webhook's secret, checked by the SDK's
 * own validateSignature; a bad or missing one is 400 and changes nothing.
 */
export async function facturapiWebhookRoutes(app: FastifyInstance, opts: { config: Config; db: Db }): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, raw, done) => done(null, raw));

  app.post('/api/webhooks/facturapi', async (req, reply) => {
    const pac = await resolvePac(opts.db, opts.config);
    if (!pac?.webhookSecret) return reply.code(404).send(body('route-not-found'));
    const signature = req.headers['facturapi-signature'];
    const raw = req.body;
    if (typeof signature !== 'string' || !Buffer.isBuffer(raw)) return reply.code(400).send(body('webhook/invalid-signature'));
    let event;
    try {
      event = await pac.client.validateWebhook(pac.webhookSecret, signature, raw.toString('utf8'));
    } catch {
      return reply.code(400).send(body('webhook/invalid-signature'));
    }
    try {
      const applied = await applyFacturapiEvent(opts.db, event, new Date());
      return reply.send({ received: true, duplicate: !applied });
    } catch (err) {
      req.log.error({ err, type: event.type }, 'facturapi webhook failed');
      if (isConnectionLost(err)) return reply.code(503).send(body('db/unavailable'));
      return reply.code(500).send(body('internal'));
    }
  });
}
