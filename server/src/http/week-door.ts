import { scheduleInput } from '@estudio/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { weekCacheFor, weekCodings, type WeekCoding } from './week-cache.ts';
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

/** Answers smaller than this go as they are: compressing them saves less than the coding costs. */
const compressAbove = 1024;

/** The coding to send, from Accept-Encoding: the first of ours (br, then gzip) the client takes with q > 0, or none. */
export function chooseCoding(header: string | string[] | undefined): WeekCoding | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return null;
  const q = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = weight ? Number(weight.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  return weekCodings.find((coding) => (q.get(coding) ?? q.get('*') ?? 0) > 0) ?? null;
}

/** The ETag of a coded representation: the identity one's with the coding inside the quotes ('"w-…"' → '"w-…-br"'). */
const codedTag = (etag: string, coding: WeekCoding | null) => (coding ? `${etag.slice(0, -1)}-${coding}"` : etag);

/**
 * GET /api/single_class answered before its route (decision
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
    const bytes = week.bytes();
    // Compressed when the client takes br or gzip (decision 047); each coding is its own representation, with its own ETag.
    const coding = bytes.length >= compressAbove ? chooseCoding(req.headers['accept-encoding']) : null;
    const etag = codedTag(week.etag, coding);
    const vary = reply.getHeader('vary');
    void reply
      .header('etag', etag)
      // Revalidated on every use; a signed-in answer is the customer's own and never stored by a shared cache.
      .header('cache-control', ctx.token ? 'private, no-cache' : 'no-cache')
      .header('vary', vary ? `${String(vary)}, authorization, accept-encoding` : 'authorization, accept-encoding');
    // The codings carry the same JSON: a visitor holding any of them has this week.
    const held = req.headers['if-none-match'];
    if ([week.etag, ...weekCodings.map((c) => codedTag(week.etag, c))].some((tag) => ifNoneMatchHas(held, tag))) return reply.code(304).send();
    void reply.type('application/json; charset=utf-8');
    if (!coding) return reply.send(bytes);
    let body: Buffer;
    try {
      body = await week.encoded(coding);
    } catch {
      return reply.header('etag', week.etag).send(bytes);
    }
    return reply.header('content-encoding', coding).send(body);
  });
}
