import { randomUUID } from 'node:crypto';
import type { AnyProcedure } from '@trpc/server';
import type { InjectOptions } from 'fastify';
import type { z } from '@estudio/core';
import { legacyRouter } from '../../src/legacy/legacy-procedures.ts';
import { appRouter } from '../../src/router.ts';
import { adminProcedure, authedProcedure, bookingProcedure, coachProcedure, customerProcedure, optionalAuthProcedure, staffProcedure } from '../../src/trpc.ts';
import { procedureAccess } from './access-table.ts';
import { demoPassword, type call } from './helpers.ts';

/**
 * Walks the whole router for the authorization tests (admin-authz, authz-matrix):
 * each procedure with its guard, an input its own zod schema accepts, and the
 * request over its own transport (the REST path of its OpenAPI meta, /trpc otherwise).
 */

// Internals of tRPC's built procedures: the middleware chain and the input parsers.
export interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  middlewares: unknown[];
  inputs: z.ZodType[];
  meta?: { openapi?: { method: string; path: string; enabled?: boolean } };
}
const defOf = (p: unknown) => (p as { _def: ProcedureDef })._def;
const guardOf = (p: unknown) => defOf(p).middlewares.at(-1);

export interface RouteInfo {
  path: string;
  def: ProcedureDef;
}

// At run time `_def.procedures` is flat, keyed by the dotted path (its type is the nested record).
export const procedures: RouteInfo[] = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).map(([path, p]) => ({
  path,
  def: defOf(p),
}));
/** The app router's procedures and the previous panel's own (legacy.*), which its adapter calls behind /api. */
export const allProcedures: RouteInfo[] = [
  ...procedures,
  ...Object.entries(legacyRouter._def.procedures as unknown as Record<string, AnyProcedure>).map(([path, p]) => ({ path, def: defOf(p) })),
];

/** Who may call a procedure, read from the guards in its middleware chain (most demanding first). */
export type Access = 'admin' | 'staff' | 'coach' | 'customer' | 'identity' | 'optional' | 'public';
const accessGuards: [Access, unknown][] = [
  ['admin', guardOf(adminProcedure)],
  ['staff', guardOf(staffProcedure)],
  // A coach's own classes and rosters (decision 045): the coach role only.
  ['coach', guardOf(coachProcedure)],
  ['customer', guardOf(customerProcedure)],
  // A customer's booking: the customer guard, whose token check also reads the booking's first look (decision 060).
  ['customer', guardOf(bookingProcedure)],
  // Signed in, with or without a customer row (sign-up, password, sign out): acts on the caller's own identity.
  ['identity', guardOf(authedProcedure)],
  ['optional', guardOf(optionalAuthProcedure)],
];
export function accessOf(def: ProcedureDef): Access {
  return accessGuards.find(([, guard]) => def.middlewares.includes(guard))?.[0] ?? 'public';
}

/**
 * Who must be let through a procedure: the committed access table's role
 * (access-table.ts), not the router's guard, so a guard changed by mistake
 * is caught by the calls made as each role. A procedure the table does not
 * name fails its row (access-table.test.ts says what to add).
 */
export function expectedAccess(path: string): Access {
  const entry = procedureAccess[path];
  if (!entry) throw new Error(`${path} is not in server/test/support/access-table.ts: add it with the role it must have`);
  return entry.role;
}

/** Procedures the table says are the owner's alone. */
export const adminRoutes = procedures.filter((p) => procedureAccess[p.path]?.role === 'admin');
// Staff routes (front desk and admins) are closed to customers too.
export const staffRoutes = procedures.filter((p) => procedureAccess[p.path]?.role === 'staff');

// ---------- A valid input from the procedure's own zod schema ----------

interface ZodInternals {
  _zod: { def: Record<string, unknown> & { type: string }; optin?: string };
}
/** The internal definition of a zod 4 schema (its type name and parts). */
export const defs = (s: unknown) => (s as ZodInternals)._zod.def;
/** Whether an object field may be left out. */
export const omittable = (s: unknown) => (s as ZodInternals)._zod.optin !== undefined;
export const valid = (s: z.ZodType, v: unknown) => s.safeParse(v).success;

const stringCandidates = () => [
  'Prueba',
  'cliente@estudio.demo',
  '2030-01-15T10:00:00.000Z',
  '2030-01-15',
  // A class date is kept within a few years of the clock (core's classDate): a date a month ahead.
  new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
  '10:00',
  'https://estudio.demo/prueba',
  // A video's player (core's videoUrl: https and a known player or a video file).
  'https://www.youtube.com/watch?v=prueba',
  '5512345678',
  'PRUEBA10',
  'prueba',
  '1',
  randomUUID(),
  // Last four digits of a card.
  '4242',
  'Prueba de texto suficientemente larga para los campos con mínimo',
];
const numberCandidates = [1, 2, 5, 10, 100, 0, -1, 0.5, 2030];

/** A value the schema accepts: optional fields are left out ('minimal') or filled ('full'). */
export function sample(schema: z.ZodType, mode: 'minimal' | 'full'): unknown {
  const def = defs(schema);
  const inner = (key: string) => sample(def[key] as z.ZodType, mode);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const omittable = (field as unknown as ZodInternals)._zod.optin !== undefined;
        if (omittable && mode === 'minimal') continue;
        // Password fields get the demo password, so a sampled password change leaves the account usable.
        const value = /password/i.test(key) && valid(field, demoPassword) ? demoPassword : sample(field, mode);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'optional':
    case 'nonoptional':
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'default':
    case 'prefault':
      return inner('innerType');
    case 'pipe': {
      // A transform or a check after the pipe ('trim, then e-mail') may refuse what suits its input alone.
      const value = inner('in');
      if (valid(schema, value)) return value;
      // 'trim, lower-case, then one of these': what the output side accepts usually suits the input side too.
      const out = inner('out');
      return valid(schema, out) ? out : ([...stringCandidates(), ...numberCandidates].find((v) => valid(schema, v)) ?? value);
    }
    case 'lazy':
      return sample((def.getter as () => z.ZodType)(), mode);
    case 'union':
      return (def.options as z.ZodType[]).map((o) => sample(o, mode)).find((v) => valid(schema, v));
    case 'intersection':
      return { ...(inner('left') as object), ...(inner('right') as object) };
    case 'array': {
      const one = [sample(def.element as z.ZodType, mode)];
      return valid(schema, []) && mode === 'minimal' ? [] : one;
    }
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'boolean':
      return valid(schema, false) ? false : true;
    case 'string':
      return stringCandidates().find((v) => valid(schema, v));
    case 'number':
    case 'int':
    case 'bigint':
      return numberCandidates.find((v) => valid(schema, v));
    case 'record':
      return {};
    case 'null':
      return null;
    default:
      return undefined;
  }
}

export function validInput(def: ProcedureDef): unknown {
  const [schema, ...more] = def.inputs;
  if (!schema) return undefined;
  if (more.length) throw new Error('una ruta con varios .input() necesita combinar sus muestras');
  for (const mode of ['minimal', 'full'] as const) {
    const value = sample(schema, mode);
    if (valid(schema, value)) return value;
  }
  throw new Error('no se pudo construir una entrada válida desde su esquema');
}

/** The top-level field names of a procedure's object input (optional ones included). */
export function inputFields(def: ProcedureDef): string[] {
  let schema: unknown = def.inputs[0];
  // Unwrap `.optional()` and the like down to the object.
  while (schema && defs(schema).type !== 'object' && defs(schema).innerType) schema = defs(schema).innerType;
  return schema && defs(schema).type === 'object' ? Object.keys(defs(schema).shape as object) : [];
}

// ---------- The request over the procedure's transport ----------

export interface Request {
  method: InjectOptions['method'];
  url: string;
  body?: unknown;
}

export function restRequest(openapi: { method: string; path: string }, input: unknown): Request {
  const fields = { ...((input ?? {}) as Record<string, unknown>) };
  const path = openapi.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = fields[key];
    delete fields[key];
    return encodeURIComponent(String(value ?? '1'));
  });
  const method = openapi.method.toUpperCase() as InjectOptions['method'];
  const url = `/api${path}`;
  if (method === 'GET' || method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) query.append(key, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    const qs = query.toString();
    return { method, url: qs ? `${url}?${qs}` : url };
  }
  return { method, url, body: fields };
}

export function trpcRequest(path: string, def: ProcedureDef, input: unknown): Request {
  if (def.type === 'mutation') return { method: 'POST', url: `/trpc/${path}`, body: input ?? {} };
  const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return { method: 'GET', url: `/trpc/${path}${qs}` };
}

export type Transport = 'rest' | 'trpc' | 'sse';

/** The REST meta of a procedure, when it is served under /api. */
export const openapiOf = (def: ProcedureDef) => (def.meta?.openapi && def.meta.openapi.enabled !== false ? def.meta.openapi : null);
export const transportOf = (def: ProcedureDef): Transport => (openapiOf(def) ? 'rest' : def.type === 'subscription' ? 'sse' : 'trpc');

/** The request for a procedure with a given input, over its own transport. */
export function requestFor({ path, def }: RouteInfo, input: unknown): Request {
  const openapi = openapiOf(def);
  return openapi ? restRequest(openapi, input) : trpcRequest(path, def, input);
}

/** A readable name: the procedure and where it is served. */
export function routeName({ path, def }: RouteInfo): string {
  const openapi = openapiOf(def);
  return `${path} → ${openapi ? `${openapi.method} /api${openapi.path}` : `/trpc/${path}`}`;
}

/** One row per procedure; the input is built when the test runs, so a schema the sampler cannot satisfy fails its own row. */
export const table = (routes: RouteInfo[]) =>
  routes.map((route) => ({ name: routeName(route), request: () => requestFor(route, validInput(route.def)), transport: transportOf(route.def) }));

interface ErrorData {
  httpStatus?: number;
  domainCode?: string;
}

/**
 * The status and domain code of the answer. A subscription answers 200 and
 * streams its error as the SSE event 'serialized-error' with the tRPC data.
 */
export function outcome(res: Awaited<ReturnType<typeof call>>, transport: Transport): { status: number; code: unknown } {
  if (transport === 'rest') return { status: res.status, code: res.body.code };
  if (transport === 'trpc') return { status: res.status, code: (res.body.error as { data?: ErrorData } | undefined)?.data?.domainCode };
  const event = /event: serialized-error\ndata: (.*)\n/.exec(res.raw);
  const data = event?.[1] ? (JSON.parse(event[1]) as { data?: ErrorData }).data : undefined;
  return { status: data?.httpStatus ?? res.status, code: data?.domainCode };
}
