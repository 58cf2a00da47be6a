import type { FastifyInstance, FastifyReply } from 'fastify';
import { DomainError } from '@estudio/core';

/** What the routes of /api and /trpc use: every write method, the token and JSON (tRPC's stream link also sends trpc-accept). */
const allowMethods = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const allowHeaders = 'Authorization, Content-Type, trpc-accept';
/** A limited call answers 429 with Retry-After (decision 012); a page on another origin may read it. */
const exposeHeaders = 'Retry-After';
/** How long a browser may keep a preflight's yes. */
const maxAgeSeconds = '600';

function addVaryOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (/(^|,)\s*origin\s*(,|$)/i.test(current)) return;
  void reply.header('vary', current ? `${current}, Origin` : 'Origin');
}

/**
 * CORS for the API (decision 032): the previous admin panel lives on
 * the studio's `admin.` host and calls /api from there. An allowed origin gets
 * its own name back in Access-Control-Allow-Origin (never `*`) and no
 * Allow-Credentials: the clients send a bearer header, not cookies. A preflight
 * is answered here, before the catch-all routes of /trpc and /api
 * (which would answer OPTIONS as an unknown method). Any other origin gets no
 * CORS header, so the browser keeps the answer from its page; its preflight is
 * a 403 in Spanish saying why. Every answer varies by Origin.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[], applies: (url: string) => boolean): void {
  const allowed = new Set(origins);
  app.addHook('onRequest', async (req, reply) => {
    if (!applies(req.url)) return;
    addVaryOrigin(reply);
    const origin = req.headers.origin;
    if (!origin) return;
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (!allowed.has(origin)) {
      if (preflight) throw new DomainError('cors/origin-not-allowed');
      return;
    }
    void reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', exposeHeaders);
    if (!preflight) return;
    return reply
      .header('access-control-allow-methods', allowMethods)
      .header('access-control-allow-headers', allowHeaders)
      .header('access-control-max-age', maxAgeSeconds)
      .code(204)
      .send();
  });
}
