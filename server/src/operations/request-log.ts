import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Query parameters that carry a secret: one-time codes, feeds' and stop links' tokens, keys. */
const secretParams = new Set(['token', 'oobcode', 'code', 'key', 'llave', 'password', 'secret', 'apikey', 'access_token']);
/** Keys of a tRPC `input` that carry one. */
const secretKey = /^(token|oobCode|code|password|password_confirm|current_password|idToken|refreshToken|secret|access_code|card|cvc)$/i;
/** Paths whose last part is a secret or a code: a calendar feed's token, a discount code being tried. */
const secretPaths: [RegExp, string][] = [
  [/^(\/api\/calendar\/)[^/?]+/, '$1[oculto]'],
  [/^(\/(?:api|trpc)\/discounts\/code\/)[^/?]+/, '$1[oculto]'],
];

function hideIn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideIn);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, secretKey.test(k) ? '[oculto]' : hideIn(v)]));
}

/**
 * A URL as it may be written to the log (decision 075): one-time codes and
 * tokens in the query string, in a tRPC call's JSON input or in the path are
 * replaced by [oculto]; the rest stays, so an operator can still read what
 * was asked.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  let pathPart = q === -1 ? url : url.slice(0, q);
  for (const [pattern, replacement] of secretPaths) pathPart = pathPart.replace(pattern, replacement);
  if (q === -1) return pathPart;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decodedName = name;
      try {
        decodedName = decodeURIComponent(name);
      } catch {
        // A name that does not decode is written as sent.
      }
      if (eq === -1) return pair;
      if (secretParams.has(decodedName.toLowerCase())) return `${name}=[oculto]`;
      if (decodedName === 'input') {
        try {
          return `${name}=${encodeURIComponent(JSON.stringify(hideIn(JSON.parse(decodeURIComponent(pair.slice(eq + 1))))))}`;
        } catch {
          // Not JSON: tRPC refuses it; nothing of it is worth keeping.
          return `${name}=[ilegible]`;
        }
      }
      return pair;
    });
  return `${pathPart}?${parts.join('&')}`;
}

/** The serializer of `req` in every log line: method, the loggable URL, the client's address. No headers (tokens, cookies). */
export function requestSerializer(req: { method: string; url: string; ip?: string }) {
  return { method: req.method, url: loggableUrl(req.url), remoteAddress: req.ip };
}

/** Probes and scrapes every few seconds would drown the studio's own requests: they log at debug. */
const quietPaths = new Set(['/health', '/ready', '/metrics']);

/**
 * Whether an error is the client going away mid-body (a closed tab, a cut network, a slow-body attack): not a fault of ours.
 * A request whose body was read to its end is destroyed too (Node frees it), and its refusal is still owed its message.
 */
export function isClientAbort(error: unknown, req: FastifyRequest): boolean {
  const e = error as { code?: string; message?: string } | null;
  const cutShort = req.raw.destroyed && !req.raw.complete;
  return req.raw.aborted || cutShort || (e?.code === 'ECONNRESET' && e.message === 'aborted') || e?.code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/**
 * One line per request (decision 075), written when the answer is sent:
 * method, URL without secrets, route, status, time in ms and the client's
 * address (req's serializer), at info; 5xx at warn (the error itself has its
 * own line with the stack). A request whose client went away before it was
 * answered is one debug line, never an error with a stack.
 */
export function registerRequestLog(app: FastifyInstance, options: { routeOf: (req: FastifyRequest) => string; observe?: (req: FastifyRequest, status: number, seconds: number) => void }): void {
  app.addHook('onResponse', async (req, reply) => {
    const ms = reply.elapsedTime;
    // The warm-up's own requests (before the process listens) are not the studio's traffic.
    if (app.server.listening) options.observe?.(req, reply.statusCode, ms / 1000);
    const line = { req, route: options.routeOf(req), status: reply.statusCode, ms: Math.round(ms * 10) / 10 };
    const path = req.url.split('?', 1)[0] ?? '';
    if (quietPaths.has(path)) req.log.debug(line, 'solicitud');
    else if (reply.statusCode >= 500) req.log.warn(line, 'solicitud');
    else req.log.info(line, 'solicitud');
  });
  app.addHook('onRequestAbort', async (req) => {
    req.log.debug({ req, route: options.routeOf(req) }, 'el cliente cortó la solicitud antes de la respuesta');
  });
}
