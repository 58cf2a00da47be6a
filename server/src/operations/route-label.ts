import type { FastifyRequest } from 'fastify';

/** Procedures named by the REST routes' one wildcard handler (rest-routes.ts), per request. */
const procedures = new WeakMap<FastifyRequest, string>();

/** The REST handler names the procedure it ran, so the request's route label is the procedure, not '/api/*'. */
export function nameProcedure(req: FastifyRequest, procedure: string): void {
  procedures.set(req, procedure);
}

/**
 * A request's route for the log and the metrics (decision 075): a bounded set
 * of names, never the raw URL (a client chooses URLs, and with them the
 * metrics' cardinality). REST calls are `api:<procedure>`, tRPC calls
 * `trpc:<procedure>` (a batch `trpc:batch`), other routes their pattern, the
 * portal's pages `page`, anything else `not-found`.
 */
export function createRouteLabel(isProcedure: (name: string) => boolean) {
  return (req: FastifyRequest): string => {
    const named = procedures.get(req);
    if (named) return `api:${named}`;
    const pattern = req.routeOptions?.url;
    if (pattern === '/trpc/:path') {
      const path = (req.params as { path?: string } | undefined)?.path ?? '';
      if (path.includes(',')) return 'trpc:batch';
      return isProcedure(path) ? `trpc:${path}` : 'trpc:unknown';
    }
    if (pattern === '/api/*') return 'api:unknown';
    if (pattern) return pattern;
    const path = req.url.split('?', 1)[0] ?? '';
    const api = path === '/api' || path.startsWith('/api/') || path === '/trpc' || path.startsWith('/trpc/');
    return !api && (req.method === 'GET' || req.method === 'HEAD') ? 'page' : 'not-found';
  };
}
