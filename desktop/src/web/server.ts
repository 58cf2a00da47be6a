import { randomBytes, timingSafeEqual } from 'node:crypto';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { TRPCError } from '@trpc/server';
import Fastify, { type FastifyRequest } from 'fastify';
import { DomainError, domainErrors } from '@estudio/core';
import { loadDeskConfig, type DeskConfig } from '../service/config.ts';
import type { DeskService } from '../service/desk-service.ts';
import { startDeskService } from '../service/index.ts';
import { deskRouter, type DeskRouter } from '../service/router.ts';

export interface DeskWeb {
  port: number;
  desk: DeskService;
  /** This run's key: the page holds it as a cookie, every other caller is refused. */
  key: string;
  /** The cookie that carries the key (one per port: cookies ignore the port, two desks must not share one). */
  cookieName: string;
  /** The link to open the desk with (shown in the terminal); it sets the cookie and drops the key from the address bar. */
  url: string;
  /** Stops listening and closes the desk service (unless keepDesk: a desk passed in by the caller stays open). */
  close(options?: { keepDesk?: boolean }): Promise<void>;
}

/** `a === b` in a time that does not depend on where they differ. */
function sameKey(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

const keyRequiredPage = `<!doctype html><html lang="es"><meta charset="utf-8"><title>Recepción</title><p>${domainErrors['desk/key-required'].message}</p></html>`;

/**
 * Serves the built renderer and the desk router (tRPC at /trpc, subscriptions
 * over SSE) on 127.0.0.1 only: the desk holds every customer's data and acts
 * as the signed-in staff member, so it must never listen on the network, and
 * on this machine it answers only the page opened with this run's key
 * (any local process could read the sales report with curl).
 *
 * The key is random per run (or `key`, for tests) and travels once, in the
 * link the terminal shows (`/?llave=…`). Opening it sets an HttpOnly,
 * SameSite=Strict cookie and redirects to the same page without the key;
 * every request after that, the page's scripts and /trpc, must carry the
 * cookie, and anything else is a 401. Electron's window is a browser on this
 * same server, started in the desk's utility process (service-process.ts).
 */
export async function startDeskWeb(options: { port: number; distDir: string; config?: DeskConfig; desk?: DeskService; key?: string }): Promise<DeskWeb> {
  const key = options.key ?? randomBytes(32).toString('base64url');
  const desk = options.desk ?? (await startDeskService(options.config ?? loadDeskConfig()));
  // forceCloseConnections: open SSE subscriptions of a browser tab must not hold a shutdown.
  // maxParamLength: a batched GET names every procedure in its path; past Fastify's default 100 characters it was a
  // 404, so a refresh of an open card and its dialogs failed and remounted them (as the studio's server, app.ts).
  const app = Fastify({ logger: false, forceCloseConnections: true, routerOptions: { maxParamLength: 5000 } });
  // Named once the port is known (port 0 picks one); no request is served before listen.
  let cookieName = `recepcion_${options.port}`;
  // Another site open in the same browser could post to 127.0.0.1 (CSRF) or rebind a name to it (DNS rebinding):
  // only this origin, under a loopback host name, may call the router.
  app.addHook('onRequest', async (req, reply) => {
    const host = req.headers.host ?? '';
    const loopback = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host);
    const origin = req.headers.origin;
    if (!loopback || (origin !== undefined && origin !== `http://${host}`)) {
      return reply.code(403).send({ code: 'forbidden', message: 'Solo la recepción de este equipo puede usar esta dirección.' });
    }
    const [path = '/', query = ''] = req.url.split('?');
    // Whether the desk is up, for scripts that wait for it; it tells nothing else.
    if (path === '/health') return reply.send({ ok: true });
    const offered = new URLSearchParams(query).get('llave');
    if (offered !== null) {
      if (!sameKey(offered, key)) return reply.code(401).type('text/html; charset=utf-8').send(keyRequiredPage);
      return reply
        .code(303)
        .header('set-cookie', `${cookieName}=${key}; HttpOnly; SameSite=Strict; Path=/`)
        .header('location', path)
        .send();
    }
    // The router refuses in its own error shape (batches included), from createContext below.
    const routerCall = req.routeOptions.url?.startsWith('/trpc/') ?? false;
    if (!routerCall && !hasKey(req)) return reply.code(401).type('text/html; charset=utf-8').send(keyRequiredPage);
  });
  const hasKey = (req: FastifyRequest) => sameKey(cookieValue(req.headers.cookie, cookieName), key);
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: deskRouter,
      createContext: ({ req }) => {
        if (!hasKey(req)) throw new TRPCError({ code: 'UNAUTHORIZED', message: domainErrors['desk/key-required'].message, cause: new DomainError('desk/key-required') });
        return { desk };
      },
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') console.error(`desk ${path ?? ''}:`, error.cause ?? error);
      },
    } satisfies FastifyTRPCPluginOptions<DeskRouter>['trpcOptions'],
  });
  // A video file of the console (decision 046): the page posts the file itself (not multipart, not base64) and the
  // desk streams it on to the studio's server as it arrives. The key's cookie is required (the onRequest hook above).
  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    uploads.post('/upload/video', async (req, reply) => {
      const cancel = new AbortController();
      // The page cancelled (or closed): stop sending to the server too.
      req.raw.on('close', () => {
        if (!req.raw.complete) cancel.abort();
      });
      const rawName = req.headers['x-file-name'];
      let name = 'video';
      try {
        if (typeof rawName === 'string') name = decodeURIComponent(rawName);
      } catch {
        // A name that is not URI-encoded: the server names it.
      }
      try {
        return await desk.uploadVideo({
          body: req.raw,
          name,
          type: String(req.headers['content-type'] ?? ''),
          size: Number(req.headers['content-length'] ?? '') || undefined,
          signal: cancel.signal,
        });
      } catch (error) {
        // The server's Spanish refusal as it came (ServerAnswerError is a DomainError); anything else (the server unreachable) is a 502.
        if (error instanceof DomainError) return reply.code(domainErrors[error.code]?.status ?? 502).send({ code: error.code, message: error.message });
        if (cancel.signal.aborted) return reply.code(499).send({ code: 'file/missing', message: domainErrors['file/missing'].message });
        return reply.code(502).send({ code: 'file/storage-unavailable', message: domainErrors['file/storage-unavailable'].message });
      }
    });
  });
  await app.register(fastifyStatic, { root: options.distDir, index: 'index.html' });
  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  cookieName = `recepcion_${port}`;
  return {
    port,
    desk,
    key,
    cookieName,
    url: `http://127.0.0.1:${port}/?llave=${key}`,
    close: async ({ keepDesk = false } = {}) => {
      await app.close();
      if (!keepDesk) await desk.close();
    },
  };
}
