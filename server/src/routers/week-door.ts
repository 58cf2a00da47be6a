import { scheduleInput } from '@estudio/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { weekCacheFor } from '../services/schedule/week-cache.ts';
import { verifyCaller, type Context } from '../trpc.ts';

/** The spec's week read; its answer also carries the previous panel's days (legacy-admin.ts), which the cache keeps too. */
const weekPath = '/api/single_class';
const weekKeys = ['start_date', 'end_date', 'instructor_id', 'location_id', 'class_type_id'] as const;

/** The query of a week read, parsed by the procedure's own input schema; null when the procedure should answer (and explain) instead. */
function weekInputOf(search: string) {
  const params = new URLSearchParams(search);
  const raw: Record<string, string> = {};
  for (const key of weekKeys) {
    const values = params.getAll(key);
    if (values.length > 1) return null;
    if (values[0] !== undefined) raw[key] = values[0];
  }
  const parsed = scheduleInput.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Whether an If-None-Match header names `etag` (a list, weak or strong, or `*`). */
export function ifNoneMatchHas(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === bare;
  });
}

/**
 * GET /api/single_class answered before its route (issue 21, decision
 * 041): the week from the week cache, sent as the JSON text it keeps, with a
 * per-representation ETag and a 304 when the visitor already has it. Only a
 * request it can answer exactly as the procedure would (input valid for
 * scheduleInput, a token that verifies, a database that answers) is taken
 * here; anything else goes on to the procedure, which answers or refuses it
 * with its usual message.
 */
export function registerWeekDoor(app: FastifyInstance, createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Context): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET') return;
    const q = req.url.indexOf('?');
    if ((q === -1 ? req.url : req.url.slice(0, q)) !== weekPath) return;
    const input = weekInputOf(q === -1 ? '' : req.url.slice(q + 1));
    if (!input) return;
    const ctx = createContext({ req, res: reply });
    let customerId: number | null = null;
    let week;
    try {
      if (ctx.token) customerId = (await verifyCaller(ctx, ctx.token)).customer?.customer_id ?? null;
      week = await weekCacheFor(ctx.db).read(ctx.db, input, customerId);
    } catch {
      return;
    }
    const vary = reply.getHeader('vary');
    void reply
      .header('etag', week.etag)
      // Revalidated on every use; a signed-in answer is the customer's own and never stored by a shared cache.
      .header('cache-control', ctx.token ? 'private, no-cache' : 'no-cache')
      .header('vary', vary ? `${String(vary)}, authorization` : 'authorization');
    if (ifNoneMatchHas(req.headers['if-none-match'], week.etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(week.bytes());
  });
}
