import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { TRPCError } from '@trpc/server';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { DomainError, domainErrors, trpcMaxBatchSize, type ApiErrorBody } from '@estudio/core';
import { createPollingChangeFeed, type ChangeFeed } from '@estudio/sync';
import type { Config } from './config.ts';
import { registerCors } from './cors.ts';
import { registerPrivateAnswers, registerSecurityHeaders } from './security-headers.ts';
import type { Db } from './db.ts';
import { apiErrorBody, fastifyErrorBody, httpStatusOf } from './errors.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { stripeWebhookRoutes } from './http/stripe-webhook-route.ts';
import { facturapiWebhookRoutes } from './http/facturapi-webhook-route.ts';
import { appRouter, type AppRouter } from './router.ts';
import { createIdentityProvider, type IdentityProvider } from './services/auth/identity-provider.ts';
import { createLoginFailureStore } from './services/auth/login-failures.ts';
import { createCallLimits } from './services/rate-limit/call-limits.ts';
import { hashingSlotsFor } from './services/rate-limit/hashing-slots.ts';
import { readStudioFront } from './services/setup/studio-setup.ts';
import { registerFileRoutes } from './http/files-upload.ts';
import { registerDeskUpdates } from './http/desk-updates.ts';
import { registerMessageRoutes } from './routers/message-preferences.ts';
import { registerWebApp } from './http/web-app.ts';
import { registerReportExport } from './routers/reports.ts';
import { registerPersonalDataDownload } from './routers/privacy.ts';
import { registerWeekDoor } from './http/week-door.ts';
import { registerLegacyAdmin } from './legacy/legacy-admin.ts';
import { registerRestRoutes } from './rest-routes.ts';
import { createContextFactory } from './trpc.ts';
import { namesAFile } from './http/portal-shell/names-a-file.ts';
import { createPortalPages } from './http/portal-shell/portal-pages.ts';
import { registerOperations } from './operations/register.ts';
import type { ProcessState } from './operations/process-state.ts';
import { isClientAbort, requestSerializer } from './operations/request-log.ts';

/**
 * Content Security Policy of the portal, in one place. The portal's own
 * bundle is the only script today; Mantine injects <style> tags, hence
 * 'unsafe-inline' for styles only. Images come from anywhere over https
 * (S3, the studio's CDN) or data: URLs. The third parties the product will
 * load are listed now so adding them is not a security review each time:
 * Stripe (js.stripe.com, api.stripe.com, hooks.stripe.com), PayPal
 * (www.paypal.com, www.paypalobjects.com), Firebase Auth in the browser
 * (identitytoolkit/securetoken.googleapis.com, *.firebaseapp.com frames) and
 * video players embedded by url (YouTube, Vimeo). Tracking codes pasted into
 * the app configuration need their hosts added here.
 */
export const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  // Stripe serves Stripe.js chunks and frames from *.js.stripe.com; PayPal's SDK loads from *.paypal.com (www.sandbox.paypal.com for sandbox client ids).
  scriptSrc: ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://www.paypal.com', 'https://*.paypal.com', 'https://www.paypalobjects.com'],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:', 'https:'],
  mediaSrc: ["'self'", 'blob:', 'https:'],
  connectSrc: [
    "'self'",
    'https://api.stripe.com',
    'https://www.paypal.com',
    'https://*.paypal.com',
    'https://identitytoolkit.googleapis.com',
    'https://securetoken.googleapis.com',
  ],
  frameSrc: [
    "'self'",
    'https://js.stripe.com',
    'https://*.js.stripe.com',
    'https://hooks.stripe.com',
    'https://www.paypal.com',
    'https://*.paypal.com',
    'https://*.firebaseapp.com',
    'https://www.youtube.com',
    'https://www.youtube-nocookie.com',
    'https://player.vimeo.com',
  ],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
  // The server may run on plain http on a LAN (front desk); TLS is the proxy's job.
  upgradeInsecureRequests: null,
};

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** How many procedure calls a /trpc request names, read as tRPC reads it: a batch names them comma-separated in one decoded path segment. */
function trpcCallCount(req: FastifyRequest): number {
  const url = new URL(req.url, 'http://localhost');
  if (url.searchParams.get('batch') !== '1') return 1;
  const segment = url.pathname.slice('/trpc/'.length);
  try {
    return decodeURIComponent(segment).split(',').length;
  } catch {
    return segment.split(',').length;
  }
}

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
const isTrpcPath = (url: string) => url === '/trpc' || url.startsWith('/trpc/') || url.startsWith('/trpc?');

/** A tRPC-shaped error, for answers given before tRPC runs (a batch too large, a body too deep) so tRPC clients can read them. */
function trpcErrorPayload(req: FastifyRequest, body: ApiErrorBody, status: number) {
  const trpcCode = status === 429 ? 'TOO_MANY_REQUESTS' : status === 404 ? 'NOT_FOUND' : status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST';
  const jsonRpcCode = status === 429 ? -32029 : status === 404 ? -32004 : status >= 500 ? -32603 : -32600;
  const error = { error: { message: body.message, code: jsonRpcCode, data: { code: trpcCode, httpStatus: status, domainCode: body.code } } };
  const query = req.query as Record<string, unknown> | undefined;
  if (query?.batch === '1' || query?.batch === 'true') {
    const count = decodeURIComponent(pathOf(req.url).slice('/trpc/'.length)).split(',').length;
    return Array.from({ length: count }, () => error);
  }
  return error;
}

function sendError(req: FastifyRequest, reply: FastifyReply, body: ApiErrorBody) {
  const status = httpStatusOf(body);
  void reply.code(status).type('application/json; charset=utf-8');
  return reply.send(isTrpcPath(req.url) ? trpcErrorPayload(req, body, status) : body);
}

/** The deepest nesting a request body may have; the API's inputs need a handful of levels. */
const maxBodyDepth = 64;

/** Whether a parsed body nests objects or arrays more than `limit` levels deep (iterative: the body may be 500 000 levels deep). */
function nestedDeeperThan(body: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[body, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) continue;
    if (depth >= limit) return true;
    for (const item of Object.values(value)) stack.push([item, depth + 1]);
  }
  return false;
}

/** Runs a query procedure by its dotted path ('instructors.home'), for the portal's pre-render; anything else is refused. */
function callQuery(caller: ReturnType<typeof appRouter.createCaller>, procedure: string, input: unknown): Promise<unknown> {
  const def = (appRouter._def.procedures as unknown as Record<string, { _def: { type: string } } | undefined>)[procedure];
  if (def?._def.type !== 'query') return Promise.reject(new Error(`not a query: ${procedure}`));
  const fn = procedure.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
  return fn(input);
}

export interface BuildServerOptions {
  config: Config;
  db: Db;
  /** Replaces the provider chosen by AUTH_PROVIDER (tests). */
  identity?: IdentityProvider;
  /**
   * What wakes the desks' poke: LISTEN/NOTIFY on the database handle
   * (createChangeFeed). Without one, the log position is polled every second.
   * The caller owns a feed it passes in and closes it after the server.
   */
  changeFeed?: ChangeFeed;
  /** Committed changes of what the public pages show ('portal_content', migration 0020): the pre-rendered pages are forgotten on each. */
  contentFeed?: ChangeFeed;
  /** The process's state (closing, its loops' heartbeats) and its database's kind, for /ready and /metrics (main.ts). */
  operations?: { state: ProcessState; dbKind: 'pglite' | 'postgres' };
}

/** The HTTP server: tRPC at /trpc, the same procedures as REST at /api, the portal at /. */
export async function buildServer({ config, db, identity: identityOverride, changeFeed, contentFeed, operations: processOperations }: BuildServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // A batched tRPC call names every procedure in one path segment ('/trpc/a.list,b.list,...'); Fastify's default of 100 characters answers 404 to a page with many queries.
    routerOptions: { maxParamLength: 5000 },
    // A URL that does not decode (a lone surrogate's bytes, a stray %) is refused by the router itself; answer it in the API's error shape.
    frameworkErrors: (error, req, reply) => sendError(req, reply, fastifyErrorBody(error as { code?: string; statusCode?: number })),
    // One line per request, written by the operations' hook when it is answered (decision 075).
    logController: new LogController({ disableRequestLogging: true }),
    logger: {
      level: config.LOG_LEVEL,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          '*.password',
          '*.password_confirm',
          '*.idToken',
          '*.refreshToken',
          '*.token',
        ],
        censor: '[oculto]',
      },
      serializers: {
        // Reset links, feeds and stop links carry codes in the URL; they never reach the log.
        req: requestSerializer,
      },
    },
  });

  if (config.authSecretGenerated && config.AUTH_PROVIDER === 'local') {
    app.log.warn('AUTH_SECRET no está definido: se generó uno para este proceso; las sesiones no sobreviven a un reinicio.');
  }

  // First, so its cap on connections answers before any other hook and its log sees every request (decisions 075, 076).
  const operations = registerOperations(app, {
    config,
    db,
    state: processOperations?.state,
    dbKind: processOperations?.dbKind,
    isProcedure: (name) => Object.hasOwn(appRouter._def.procedures, name),
  });

  const portalIndex = existsSync(path.join(config.PORTAL_DIST, 'index.html'));
  const loginFailures = createLoginFailureStore(config.LOGIN_FAILURE_MAX, config.LOGIN_FAILURE_WINDOW_MS);
  const identity = identityOverride ?? createIdentityProvider(config, { loginFailures, hashing: hashingSlotsFor(config) });
  // Open pokes are SSE streams that never end on their own; they end at preClose so close() does not wait for the desks to hang up.
  const feed = operations.countDesks(changeFeed ?? createPollingChangeFeed(db));
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());
  if (!changeFeed) app.addHook('onClose', async () => feed.close());
  // Per-call limits over the shared store (the database, or Redis with REDIS_URL), and this process's hashing slots.
  const limits = createCallLimits(config, db);
  app.addHook('onClose', async () => limits.close());
  const createContext = createContextFactory({ db, config, identity, sync: { feed, closing: closing.signal }, limits });

  const csp = { ...contentSecurityPolicy };
  if (config.AUTH_PROVIDER === 'firebase' && config.FIREBASE_AUTH_EMULATOR_HOST) {
    csp.connectSrc = [...csp.connectSrc, `http://${config.FIREBASE_AUTH_EMULATOR_HOST}`];
  }
  registerSecurityHeaders(app, {
    contentSecurityPolicy: { useDefaults: false, directives: csp },
    // PayPal's checkout and Stripe's 3-D Secure may open a popup that must keep talking to this window; 'same-origin' would cut it off.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // Payment frames check which site embeds them from the referrer's origin; never send more than the origin to other sites (reset links carry codes).
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });

  // Upload routes keep @fastify/rate-limit per route; the credential and discount limits count procedure calls (trpc.ts, decision 012).
  await app.register(fastifyRateLimit, { global: false });

  // Browsers on the studio's other hosts (the previous admin panel on admin.): CORS_ORIGINS, decision 032. First, so refusals carry it too.
  registerCors(app, config.CORS_ORIGINS, (url) => isApiPath(url) || isTrpcPath(url));
  registerPrivateAnswers(app, (url) => isApiPath(url) || isTrpcPath(url));

  // A batch larger than any page of the portal sends is refused whole, before a single call of it runs.
  app.addHook('onRequest', async (req) => {
    if (isTrpcPath(req.url) && trpcCallCount(req) > trpcMaxBatchSize) throw new DomainError('batch-too-large');
  });

  // A JSON body nested deeper than any input of the API is refused before the adapters walk it recursively (they overflow the stack: a 500).
  app.addHook('preValidation', async (req) => {
    if (nestedDeeperThan(req.body, maxBodyDepth)) throw new DomainError('validation');
  });

  app.setErrorHandler((error, req, reply) => {
    // The client went away mid-body: nothing to answer and nothing of ours failed (its one debug line is the operations' log).
    if (isClientAbort(error, req)) return reply.code(400).send();
    const body = fastifyErrorBody(error as { code?: string; statusCode?: number });
    if (httpStatusOf(body) >= 500) req.log.error({ err: error }, 'request failed');
    return sendError(req, reply, body);
  });

  // The portal's pages: index.html with the studio's configuration, and the public pages pre-rendered (decision 026).
  const portalPages = portalIndex ? await createPortalPages(config.PORTAL_DIST, app.log) : null;
  const sendPage = async (req: FastifyRequest, reply: FastifyReply, pages: NonNullable<typeof portalPages>) => {
    // Anonymous whatever the request carries: a page is the same for every visitor.
    const caller = appRouter.createCaller({ ...createContext({ req, res: reply }), token: null });
    const page = await pages.page(req.url, {
      appconfig: () => caller.appconfig.get(),
      comingSoon: () => readStudioFront(db),
      query: (procedure, input) => callQuery(caller, procedure, input),
      userAgent: req.headers['user-agent'],
      log: req.log,
    });
    void reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding, user-agent').type('text/html; charset=utf-8');
    // The page carries its data (a pre-rendered landing is about 150 KB of HTML): compressed, as the build's assets are.
    const { body, encoding } = page.bodyFor(String(req.headers['accept-encoding'] ?? ''));
    if (encoding) void reply.header('content-encoding', encoding);
    return reply.send(body);
  };
  // A committed change of what the pages show (migration 0020's 'portal_content', from any server process) forgets the
  // pages rendered so far; nothing else does, so a stranger's POST costs no re-render. Without a feed (a test's second
  // server) a page is re-rendered once it is FRESH_MS old.
  if (portalPages && contentFeed) {
    const unsubscribe = contentFeed.subscribe(() => portalPages.forget());
    app.addHook('onClose', async () => unsubscribe());
  }
  app.setNotFoundHandler(async (req, reply) => {
    const notFound: ApiErrorBody = { code: 'route-not-found', message: domainErrors['route-not-found'].message };
    if (isApiPath(req.url) || isTrpcPath(req.url)) return sendError(req, reply, notFound);
    if ((req.method === 'GET' || req.method === 'HEAD') && portalPages && !namesAFile(req.url)) return sendPage(req, reply, portalPages);
    return sendError(req, reply, notFound);
  });
  // '/' is a page like the others, not the bare index.html @fastify/static would send for the folder.
  if (portalPages) app.get('/', (req, reply) => sendPage(req, reply, portalPages));

  const logProcedureError = ({ error, req, path: procedurePath }: { error: TRPCError; req: FastifyRequest; path?: string | undefined }) => {
    if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof DomainError)) {
      req.log.error({ err: error.cause ?? error, procedure: procedurePath }, 'procedure failed');
    }
  };

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext,
      // The hook above answers first, in Spanish; this is tRPC's own guard behind it.
      maxBatchSize: trpcMaxBatchSize,
      onError: logProcedureError,
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  // Payment provider webhooks: raw-body route in its own encapsulated plugin.
  await app.register(stripeWebhookRoutes, { config, db });
  // CFDI outcomes from the PAC (decision 084).
  await app.register(facturapiWebhookRoutes, { config, db });

  // The week schedule from memory, answered before its route (decision 041).
  registerWeekDoor(app, createContext);

  // The previous admin panel's calls, over the same procedures (decision 033); before /api so its hooks reach the spec's routes.
  registerLegacyAdmin(app, createContext);

  const openApiDocument = buildOpenApiDocument(config);

  await app.register(async (api) => {
    // An empty JSON body is an empty object (POST /api/auth/logout has nothing to send).
    const defaultJsonParser = api.getDefaultJsonParser('error', 'error');
    api.removeContentTypeParser('application/json');
    api.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, {});
      return defaultJsonParser(req, text, done);
    });
    api.get('/openapi.json', async () => openApiDocument);

    // The spec's routes over the procedures, by trpc-to-openapi's rules; refusals answer ApiErrorBody (decision 055).
    registerRestRoutes(api, { router: appRouter, createContext, errorBody: apiErrorBody, onError: logProcedureError });
  }, { prefix: '/api' });

  // Multipart uploads (POST /api/files, /api/files/s3) and local files at /files/*, multipart scoped to those routes.
  await registerFileRoutes(app, { db, config, identity });
  // The installed desks' updates (electron-updater's generic provider), from a folder of releases.
  await registerDeskUpdates(app, config.DESK_RELEASES_DIR ?? path.join(config.DATA_DIR, 'desk-releases'));
  // The customers' calendar feeds and the e-mails' one-click stop (RFC 8058).
  await registerMessageRoutes(app, { db, config, limits });
  // The owner's CSV exports as a download (decision 034).
  registerReportExport(app, createContext);
  // A customer's copy of her data as a download (Mexico's right of access).
  registerPersonalDataDownload(app, createContext);
  // The installable portal: its manifest and icons (decision 106).
  registerWebApp(app, { db, config });

  if (portalIndex) {
    await app.register(fastifyStatic, {
      root: config.PORTAL_DIST,
      // The portal's build writes .br/.gz beside each file (portal/vite.config.ts); without them the plain file is sent.
      preCompressed: true,
      wildcard: true,
      index: false,
      setHeaders(reply, filePath) {
        // Vite fingerprints everything under assets/; index.html must always be revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) void reply.header('cache-control', 'public, max-age=31536000, immutable');
        else void reply.header('cache-control', 'no-cache');
      },
    });
  } else {
    app.log.info({ portalDist: config.PORTAL_DIST }, 'portal no compilado: solo se sirven /api y /trpc');
  }

  return app;
}
