import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi.ts';
import { procedureAccess, routeAccess, type RequiredRole } from '../support/access-table.ts';
import { call, login, testConfig, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { accessOf, openapiOf, procedures, type RouteInfo } from '../support/router-walk.ts';

/**
 * The router against the committed access table (access-table.ts): each
 * procedure's guard and REST route, and every route of /api, must be the
 * table's. The table is the expectation; the router is what is checked. A
 * guard changed in the router (appconfig.update demoted from admin to staff)
 * fails here until the table is changed in the same review, and a new
 * procedure or route fails until the table names it.
 *
 * The routes that are not a procedure's own (plain Fastify routes, the
 * previous panel's paths) have no guard to read: they are called as a visitor,
 * a customer, front desk and admin, and must refuse exactly those the table's
 * role leaves out.
 */

const tableFile = 'server/test/support/access-table.ts';

/** Its REST route as the table writes it ('PUT /api/appconfig'), or null. */
function restOf(route: RouteInfo): string | null {
  const openapi = openapiOf(route.def);
  return openapi ? `${openapi.method.toUpperCase()} /api${openapi.path}` : null;
}

const entryOf = (route: RouteInfo) => `'${route.path}': { role: '${accessOf(route.def)}', rest: ${restOf(route) ? `'${restOf(route)}'` : 'null'} },`;

describe('every procedure of the router is in the access table, with its role and REST route', () => {
  it('the table names every procedure (a new one is added to the table on purpose, with the role it must have)', () => {
    const missing = procedures.filter((route) => !procedureAccess[route.path]);
    const message = missing.length
      ? `New procedure(s) not in ${tableFile}. Decide who may call each one and add it under that role, e.g.:\n${missing.map(entryOf).join('\n')}`
      : '';
    expect(missing.map((route) => route.path), message).toEqual([]);
  });

  it('the table names no procedure the router no longer has', () => {
    const known = new Set(procedures.map((route) => route.path));
    const gone = Object.keys(procedureAccess).filter((path) => !known.has(path));
    expect(gone, `Remove from ${tableFile} what the router no longer has`).toEqual([]);
  });

  const named = procedures.filter((route) => procedureAccess[route.path]);
  it.each(named.map((route) => ({ path: route.path, route })))('$path', ({ path, route }) => {
    const expected = procedureAccess[path];
    const guard = accessOf(route.def);
    expect(
      guard,
      `${path}: the router's guard lets '${guard}' call it, the table says '${expected?.role}'. If the change is meant, change ${tableFile} in the same commit.`,
    ).toBe(expected?.role);
    expect(restOf(route), `${path}: served at another REST route than the table's`).toBe(expected?.rest);
  });
});

/** Every method and path of /api, as the OpenAPI document lists them (procedures, plain routes and the previous panel's paths). */
function documentedRoutes(): string[] {
  const doc = buildOpenApiDocument(testConfig());
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item ?? {})
      .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => `${method.toUpperCase()} /api${path}`),
  );
}

describe('every route of /api is in the access table', () => {
  const ofProcedures = new Set(Object.values(procedureAccess).flatMap((entry) => (entry.rest ? [entry.rest] : [])));
  const routes = documentedRoutes();

  it('each route is a procedure’s REST route or has its own entry', () => {
    const missing = routes.filter((route) => !ofProcedures.has(route) && !routeAccess[route]);
    expect(missing, `Route(s) of /api not in ${tableFile}: add each to routeAccess with the role it must have`).toEqual([]);
  });

  it('the table names no route /api no longer serves', () => {
    const served = new Set(routes);
    expect(Object.keys(routeAccess).filter((route) => !served.has(route)), `Remove from ${tableFile}'s routeAccess`).toEqual([]);
  });
});

// ---------- The routes without a guard to read, called as each role ----------

type Caller = 'visitor' | 'customer' | 'staff' | 'admin';
const accounts = { customer: 'cliente@estudio.demo', staff: 'recepcion@estudio.demo', admin: 'admin@estudio.demo' } as const;

/** The status a caller must get from a route of this role: 401 or 403 when refused, null when let through to the route's work. */
function refusalFor(role: RequiredRole, caller: Caller): 401 | 403 | null {
  if (role === 'public' || role === 'optional') return null;
  if (caller === 'visitor') return 401;
  if (role === 'coach') return 403;
  if (role === 'staff' && caller === 'customer') return 403;
  if (role === 'admin' && caller !== 'admin') return 403;
  return null;
}

let server: TestServer;
const tokens: Partial<Record<Caller, string>> = {};

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  for (const caller of ['customer', 'staff', 'admin'] as const) tokens[caller] = (await login(server.app, accounts[caller])).idToken;
}, 120_000);

describe.each(['visitor', 'customer', 'staff', 'admin'] as const)('routes outside the procedures, as %s', (caller) => {
  it.each(Object.entries(routeAccess).map(([route, access]) => ({ route, access })))('$route', async ({ route, access }) => {
    const [method, path] = route.split(' ') as [string, string];
    const url = path.replace('{id}', '2147483647').replace('{file}', 'nada.ics');
    const token = tokens[caller];
    const body = method === 'POST' || method === 'PUT' ? (access.body ?? {}) : undefined;
    const res = await call(server.app, method as 'GET', url, { ...(token ? { token } : {}), ...(body ? { body } : {}) });
    const refusal = refusalFor(access.role, caller);
    if (refusal === 401) expect({ status: res.status, code: res.body.code }, res.raw).toEqual({ status: 401, code: 'unauthenticated' });
    else if (refusal === 403) expect({ status: res.status, code: res.body.code }, res.raw).toEqual({ status: 403, code: 'forbidden' });
    else expect([401, 403], `${route} refused ${caller}, whom the table lets in: ${res.raw}`).not.toContain(res.status);
  });
});
