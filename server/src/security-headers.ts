import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every answer, from one middleware built at
 * start. @fastify/helmet 13 built it again on every request (`helmet(options)`
 * in its onRequest hook), parsing the Content-Security-Policy each time: 2.4 %
 * of the server's CPU in a rush for a class. The headers are the
 * same; no route of ours had options of its own or used its nonces.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const setHeaders = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}

/**
 * An answer to a signed-in caller is theirs alone (their profile, purchases,
 * bookings): `Cache-Control: private, no-store`, so neither a shared cache nor
 * the browser's disk keeps it. A route that says how its own answer may be
 * kept (the week's ETag, a calendar feed) keeps its word.
 */
export function registerPrivateAnswers(app: FastifyInstance, isPrivatePath: (url: string) => boolean): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.headers.authorization && !reply.hasHeader('cache-control') && isPrivatePath(request.url)) void reply.header('cache-control', 'private, no-store');
    done(null, payload);
  });
}
