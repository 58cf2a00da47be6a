import { TRPCError, type AnyProcedure, type AnyRouter } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptsRequestBody,
  forEachOpenApiProcedure,
  getErrorFromUnknown,
  getInputOutputParsers,
  getPathRegExp,
  instanceofZodTypeCoercible,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  TRPC_ERROR_CODE_HTTP_STATUS,
  unwrapZodType,
  zodSupportsCoerce,
  type OpenApiMethod,
} from 'trpc-to-openapi';
import { ZodArray, ZodBoolean, type ZodObject, type ZodType } from 'zod/v4';
import type { ApiErrorBody } from '@estudio/core';
import type { Context } from './trpc.ts';
import { nameProcedure } from './operations/route-label.ts';

/**
 * The spec's REST routes (/api) over the tRPC procedures, with trpc-to-openapi's
 * rules (decision 055): the route is the procedure's `meta.openapi` method and
 * path, the input is the JSON body (POST, PATCH, PUT) or the query string (GET,
 * DELETE) plus the path's parameters, a query value that is empty is absent, a
 * repeated one is an array and a single one given to an array field is wrapped,
 * the input schema's numbers, booleans and dates are coerced from text from the
 * procedure's first REST call on, and a refusal has the status of its tRPC code.
 *
 * What the library's adapter did on every call and this does once: find the
 * procedure (a map of the fixed paths; the library tried every route's
 * regular expression in turn), unwrap its input schema, coerce it. What it did
 * and this does not do at all: copy a dozen Node methods onto Fastify's
 * request and reply, build a whole Fetch Request for an AbortSignal no REST
 * procedure reads, make a tRPC caller (a proxy per call, and one per path
 * segment), and shape an error body that /api replaces with ApiErrorBody.
 */
export interface RestRoutesOptions {
  router: AnyRouter;
  createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Context;
  /** The REST answer of a refusal, its status being its tRPC code's. */
  errorBody: (error: TRPCError) => ApiErrorBody;
  onError: (opts: { error: TRPCError; req: FastifyRequest; path?: string | undefined }) => void;
}

interface RestRoute {
  /** The procedure's path in the router (`reservations.create`). */
  path: string;
  procedure: AnyProcedure;
  /** How its input is read, worked out on its first REST call (below). */
  input?: RouteInput;
}

interface RouteInput {
  /** z.void() and the like: the procedure takes no input. */
  none: boolean;
  /** Fields of the query that are arrays: one value given for them becomes a one-element array. */
  arrayFields: string[];
  /** Fields that are true or false: a query's "true" and "false" are read as such. */
  booleanFields?: string[];
}

interface PatternRoute extends RestRoute {
  pattern: RegExp;
}

/** A path's text is its own pattern when it has no parameter and nothing a regular expression reads as a sign. */
const literalPath = /^[\w/-]*$/;

/** Methods of the library's route: a HEAD, which Fastify adds for every GET, finds no procedure and is a 204. */
const routeMethods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

export function registerRestRoutes(api: FastifyInstance, options: RestRoutesOptions): void {
  const find = restRouteTable(options.router);

  api.route({
    method: [...routeMethods],
    // One wildcard, as the library's: the legacy panel's hooks recognise the spec's routes by it (legacy-admin.ts).
    url: '/*',
    handler: async (req, reply) => {
      const path = requestPath(req.url, api.prefix);
      const method = req.method;
      const found = find(method, path);
      let route: RestRoute | undefined;
      try {
        if (!found) {
          // The library's warm-up answer; Fastify routes HEAD to this GET handler.
          if (method === 'HEAD') return reply.code(204).send();
          throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
        }
        route = found.route;
        nameProcedure(req, route.path);
        const usesBody = acceptsRequestBody(method as OpenApiMethod);
        const contentType = req.headers['content-type'];
        // A write with nothing to send needs no content type (POST /api/auth/logout); one with a body must be JSON.
        if (usesBody && contentType !== undefined && !contentType.startsWith('application/json')) {
          throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: `Unsupported content-type "${contentType}"` });
        }
        const input = readInput(route, req, usesBody, found.pathInput);
        const ctx = options.createContext({ req, res: reply });
        const data: unknown = await route.procedure({
          path: route.path,
          type: route.procedure._def.type,
          ctx,
          getRawInput: async () => input,
          signal: undefined,
          batchIndex: 0,
        });
        void reply.code(200).header('content-type', 'application/json');
        return reply.send(data === undefined ? undefined : JSON.stringify(data));
      } catch (cause) {
        const error = getErrorFromUnknown(cause);
        options.onError({ error, req, path: route?.path });
        return reply
          .code(TRPC_ERROR_CODE_HTTP_STATUS[error.code] ?? 500)
          .type('application/json; charset=utf-8')
          .send(JSON.stringify(options.errorBody(error)));
      }
    },
  });
}

/** The path after /api, as the WHATWG URL parser would give it (the library's reading), without its trailing slash. */
function requestPath(url: string, prefix: string): string {
  const q = url.indexOf('?');
  const pathAndMaybePrefix = q === -1 ? url : url.slice(0, q);
  const raw = pathAndMaybePrefix.startsWith(prefix) ? pathAndMaybePrefix.slice(prefix.length) : pathAndMaybePrefix;
  // Dot segments, backslashes and characters the URL parser escapes are rare: that parser reads those.
  const plain = /^[\w/~!$&'()*+,;=:@-]*$/.test(raw) && !raw.includes('//');
  return normalizePath(plain ? raw : new URL(`http://127.0.0.1${raw.startsWith('/') ? raw : `/${raw}`}`).pathname);
}

/**
 * Procedures by method, in the router's order. A request's path is looked up
 * among the literal paths, then tried against the paths with parameters; the
 * first route in the router's order wins, as in the library (which matched
 * case-insensitively: so does this).
 */
export function restRouteTable(router: AnyRouter) {
  const literal = new Map<string, Map<string, { route: RestRoute; before: PatternRoute[] }>>();
  const patterns = new Map<string, PatternRoute[]>();
  forEachOpenApiProcedure(router._def.procedures, ({ path, procedure, meta: { openapi } }) => {
    if (procedure._def.type === 'subscription') return;
    const routePath = normalizePath(openapi.path);
    const byMethod = patterns.get(openapi.method) ?? [];
    patterns.set(openapi.method, byMethod);
    // The library types its record loosely; each entry is a procedure of the router.
    const route: RestRoute = { path, procedure: procedure as AnyProcedure };
    if (literalPath.test(routePath)) {
      const literals = literal.get(openapi.method) ?? new Map();
      literal.set(openapi.method, literals);
      const key = routePath.toLowerCase();
      // A pattern declared earlier that also matches this path answers it (in the library's order).
      if (!literals.has(key)) literals.set(key, { route, before: [...byMethod] });
    } else {
      byMethod.push({ ...route, pattern: getPathRegExp(routePath) });
    }
  });
  return (method: string, path: string): { route: RestRoute; pathInput: Record<string, string> } | undefined => {
    const exact = literal.get(method)?.get(path.toLowerCase());
    for (const candidate of exact ? exact.before : (patterns.get(method) ?? [])) {
      const match = candidate.pattern.exec(path);
      if (match) return { route: candidate, pathInput: { ...match.groups } };
    }
    return exact ? { route: exact.route, pathInput: {} } : undefined;
  };
}

function readInput(route: RestRoute, req: FastifyRequest, usesBody: boolean, pathInput: Record<string, string>): unknown {
  const shape = (route.input ??= routeInput(route.procedure));
  if (shape.none) return undefined;
  if (usesBody) return { ...(req.body as object | undefined), ...pathInput };
  const input: Record<string, unknown> = {};
  // Fastify's parsed query (after the legacy panel's hook has dropped its `undefined`s): empty values are absent.
  for (const [key, value] of Object.entries((req.query ?? {}) as Record<string, string | string[] | undefined>)) {
    if (value) input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  Object.assign(input, pathInput);
  for (const key of shape.booleanFields ?? []) {
    if (input[key] === 'true') input[key] = true;
    else if (input[key] === 'false') input[key] = false;
  }
  for (const key of shape.arrayFields) {
    if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
  }
  return input;
}

/**
 * How a procedure's input is read over REST. Coercing its schema changes the
 * schema itself, for /trpc too: that happens here, on the procedure's first
 * REST call, the moment the library did it.
 */
function routeInput(procedure: AnyProcedure): RouteInput {
  const schema = unwrapZodType(getInputOutputParsers(procedure).inputParser as ZodType, true);
  if (instanceofZodTypeLikeVoid(schema)) return { none: true, arrayFields: [] };
  if (!zodSupportsCoerce || !instanceofZodTypeObject(schema)) return { none: false, arrayFields: [] };
  const object = schema as ZodObject;
  const booleanFields = coerceKeepingBooleans(object);
  const arrayFields = Object.entries(object.shape)
    .filter(([, field]) => field instanceof ZodArray || (instanceofZodTypeOptional(field) && (field as { unwrap(): unknown }).unwrap() instanceof ZodArray))
    .map(([key]) => key);
  return { none: false, arrayFields, booleanFields };
}

/**
 * The library's coercion (numbers, dates) but for booleans: z.coerce.boolean reads any text but '' as true, so
 * "false" or "no" would read as a yes (a consent, a filter). Booleans stay strict, and a wrong one is refused
 * naming its field; a query's "true" and "false", the only way a query string says them, are read in readInput.
 * Answers the object's boolean fields.
 */
function coerceKeepingBooleans(object: ZodObject): string[] {
  const booleans: string[] = [];
  for (const [key, field] of Object.entries(object.shape)) {
    const inner = unwrapZodType(field as ZodType, false);
    if (inner instanceof ZodBoolean) booleans.push(key);
    else if (instanceofZodTypeObject(inner)) coerceKeepingBooleans(inner as unknown as ZodObject);
    else if (instanceofZodTypeCoercible(inner)) (inner as unknown as { _def: { coerce: boolean } })._def.coerce = true;
  }
  return booleans;
}
