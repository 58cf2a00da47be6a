import { randomUUID } from 'node:crypto';
import type { AnyProcedure } from '@trpc/server';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from '@estudio/core';
import { appRouter } from '../src/router.ts';
import { adminProcedure, staffProcedure } from '../src/trpc.ts';
import { call, login, startTestServer, type TestServer } from './helpers.ts';

/**
 * One table over the whole router: every procedure built on adminProcedure
 * (or staffProcedure) is found by its guard, not by name, so a route added
 * later is covered without editing this file. Each is called over its own
 * transport (the REST path of its OpenAPI meta, /trpc otherwise) with an input
 * its own schema accepts: a customer gets 403, no token gets 401.
 */

// Internals of tRPC's built procedures: the middleware chain and the input parsers.
interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  middlewares: unknown[];
  inputs: z.ZodType[];
  meta?: { openapi?: { method: string; path: string; enabled?: boolean } };
}
const defOf = (p: unknown) => (p as { _def: ProcedureDef })._def;
const guardOf = (p: unknown) => defOf(p).middlewares.at(-1);

// At run time `_def.procedures` is flat, keyed by the dotted path (its type is the nested record).
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).map(([path, p]) => ({ path, def: defOf(p) }));
const guarded = (guard: unknown) => procedures.filter((p) => p.def.middlewares.includes(guard));
const adminRoutes = guarded(guardOf(adminProcedure));
// Staff routes (front desk) are closed to customers too; the admin guard runs after the staff checks, so the two sets do not overlap.
const staffRoutes = guarded(guardOf(staffProcedure));

// ---------- A valid input from the procedure's own zod schema ----------

interface ZodInternals {
  _zod: { def: Record<string, unknown> & { type: string }; optin?: string };
}
const defs = (s: unknown) => (s as ZodInternals)._zod.def;
const valid = (s: z.ZodType, v: unknown) => s.safeParse(v).success;

const stringCandidates = () => [
  'Prueba',
  'cliente@estudio.demo',
  '2030-01-15T10:00:00.000Z',
  '2030-01-15',
  '10:00',
  'https://estudio.demo/prueba',
  '5512345678',
  'PRUEBA10',
  'prueba',
  '1',
  randomUUID(),
  'Prueba de texto suficientemente larga para los campos con mínimo',
];
const numberCandidates = [1, 2, 5, 10, 100, 0, -1, 0.5, 2030];

/** A value the schema accepts: optional fields are left out ('minimal') or filled ('full'). */
function sample(schema: z.ZodType, mode: 'minimal' | 'full'): unknown {
  const def = defs(schema);
  const inner = (key: string) => sample(def[key] as z.ZodType, mode);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const omittable = (field as unknown as ZodInternals)._zod.optin !== undefined;
        if (omittable && mode === 'minimal') continue;
        const value = sample(field, mode);
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
      return valid(schema, value) ? value : ([...stringCandidates(), ...numberCandidates].find((v) => valid(schema, v)) ?? value);
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

function validInput(def: ProcedureDef): unknown {
  const [schema, ...more] = def.inputs;
  if (!schema) return undefined;
  if (more.length) throw new Error('una ruta con varios .input() necesita combinar sus muestras');
  for (const mode of ['minimal', 'full'] as const) {
    const value = sample(schema, mode);
    if (valid(schema, value)) return value;
  }
  throw new Error('no se pudo construir una entrada válida desde su esquema');
}

// ---------- The request over the procedure's transport ----------

interface Request {
  method: InjectOptions['method'];
  url: string;
  body?: unknown;
}

function restRequest(openapi: { method: string; path: string }, input: unknown): Request {
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

function trpcRequest(path: string, def: ProcedureDef, input: unknown): Request {
  if (def.type === 'mutation') return { method: 'POST', url: `/trpc/${path}`, body: input ?? {} };
  const qs = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return { method: 'GET', url: `/trpc/${path}${qs}` };
}

/** One row per procedure; the input is built when the test runs, so a schema the sampler cannot satisfy fails its own row. */
const table = (routes: typeof procedures) =>
  routes.map(({ path, def }) => {
    const openapi = def.meta?.openapi && def.meta.openapi.enabled !== false ? def.meta.openapi : null;
    const request = () => {
      const input = validInput(def);
      return openapi ? restRequest(openapi, input) : trpcRequest(path, def, input);
    };
    const transport: Transport = openapi ? 'rest' : def.type === 'subscription' ? 'sse' : 'trpc';
    return { name: `${path} → ${openapi ? `${openapi.method} /api${openapi.path}` : `/trpc/${path}`}`, request, transport };
  });

type Transport = 'rest' | 'trpc' | 'sse';
interface ErrorData {
  httpStatus?: number;
  domainCode?: string;
}

/**
 * The status and domain code of the answer. A subscription answers 200 and
 * streams its error as the SSE event 'serialized-error' with the tRPC data.
 */
function outcome(res: Awaited<ReturnType<typeof call>>, transport: Transport): { status: number; code: unknown } {
  if (transport === 'rest') return { status: res.status, code: res.body.code };
  if (transport === 'trpc') return { status: res.status, code: (res.body.error as { data?: ErrorData } | undefined)?.data?.domainCode };
  const event = /event: serialized-error\ndata: (.*)\n/.exec(res.raw);
  const data = event?.[1] ? (JSON.parse(event[1]) as { data?: ErrorData }).data : undefined;
  return { status: data?.httpStatus ?? res.status, code: data?.domainCode };
}

let server: TestServer;
let customerToken: string;

beforeAll(async () => {
  server = await startTestServer();
  customerToken = (await login(server.app, 'cliente@estudio.demo')).idToken;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the admin and staff guards, over the whole router', () => {
  it('finds the guarded procedures by their guard', () => {
    const admin = adminRoutes.map((r) => r.path);
    // A few this suite knows exist; everything else is found the same way.
    expect(admin).toEqual(expect.arrayContaining(['customer.adminAll', 'packages.create', 'discounts.remove', 'locations.create']));
    expect(admin).not.toContain('customer.me');
    expect(staffRoutes.map((r) => r.path)).toEqual(expect.arrayContaining(['customer.giveAccess']));
    expect(admin.filter((p) => staffRoutes.some((s) => s.path === p))).toEqual([]);
  });

  describe.each([
    ['adminProcedure', adminRoutes],
    ['staffProcedure', staffRoutes],
  ] as const)('%s', (_guard, routes) => {
    const rows = table(routes);

    it.each(rows)('$name: a customer gets 403', async ({ request: build, transport }) => {
      const request = build();
      const res = await call(server.app, request.method, request.url, { token: customerToken, ...(request.body !== undefined ? { body: request.body } : {}) });
      expect(outcome(res, transport), res.raw).toEqual({ status: 403, code: 'forbidden' });
    });

    it.each(rows)('$name: no token gets 401', async ({ request: build, transport }) => {
      const request = build();
      const res = await call(server.app, request.method, request.url, request.body !== undefined ? { body: request.body } : {});
      expect(outcome(res, transport), res.raw).toEqual({ status: 401, code: 'unauthenticated' });
    });
  });
});
