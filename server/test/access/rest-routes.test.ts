import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initTRPC } from '@trpc/server';
import { createProcedureCache, forEachOpenApiProcedure, normalizePath, type OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod/v4';
import { appRouter } from '../../src/router.ts';
import { restRouteTable } from '../../src/rest-routes.ts';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';

/**
 * /api's own adapter (decision 055) keeps trpc-to-openapi's rules. Its route
 * table is checked against the library's for every spec route; the rest
 * through the server.
 */
describe('the route table answers as trpc-to-openapi would', () => {
  const ours = restRouteTable(appRouter);
  const library = createProcedureCache(appRouter);
  const routes: { method: string; path: string }[] = [];
  forEachOpenApiProcedure(appRouter._def.procedures, ({ meta: { openapi } }) => {
    routes.push({ method: openapi.method, path: normalizePath(openapi.path) });
  });

  it('has the spec routes', () => {
    expect(routes.length).toBeGreaterThan(100);
  });

  /** A request path for a route: each parameter given a value, then the same path in capitals. */
  const requests = routes.flatMap(({ method, path }) => {
    const filled = path.replace(/\{(.+?)\}/g, (_, key: string) => (key.includes('id') ? '42' : 'valor'));
    return [
      { method, path: filled },
      { method, path: filled.toUpperCase() },
      // A literal segment where a parameter could be: which route wins depends on the router's order.
      { method, path: filled.replace(/\/42(\/|$)/, '/mine$1') },
    ];
  });

  it.each(requests)('$method $path', ({ method, path }) => {
    const expected = library(method as never, path);
    const found = ours(method, path);
    expect(found?.route.path).toBe(expected?.procedure?.path);
    expect(found?.pathInput ?? {}).toEqual({ ...expected?.pathInput });
  });

  it('a path with a parameter declared before a literal one answers the literal path, as in the library', () => {
    const t = initTRPC.meta<OpenApiMeta>().create();
    const route = (path: `/${string}`) => t.procedure.meta({ openapi: { method: 'GET', path } }).input(z.object({ id: z.string().optional() })).query(() => path);
    const shadowing = t.router({ byId: route('/things/{id}'), mine: route('/things/mine'), other: route('/things/mine/all') });
    const table = restRouteTable(shadowing);
    const libraryTable = createProcedureCache(shadowing);
    for (const path of ['/things/mine', '/things/MINE', '/things/7', '/things/mine/all']) {
      expect(table('GET', path)?.route.path).toBe(libraryTable('GET', path)?.procedure?.path);
    }
    expect(table('GET', '/things/mine')).toMatchObject({ route: { path: 'byId' }, pathInput: { id: 'mine' } });
  });

  it('finds nothing for a path or a method no route has', () => {
    expect(ours('GET', '/no-existe')).toBeUndefined();
    expect(ours('PUT', '/auth/login')).toBeUndefined();
  });
});

describe('the adapter through the server', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = (await login(server.app, 'cliente@estudio.demo')).idToken;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('an unknown route is a 404 with the REST error body', async () => {
    const res = await call(server.app, 'GET', '/api/no-existe');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: expect.any(String), message: expect.any(String) });
  });

  it('a HEAD where no route is answers 204 with nothing, as before', async () => {
    const res = await server.app.inject({ method: 'HEAD', url: '/api/no-existe' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('a body that is not JSON is a 415 with the REST error body', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=cliente@estudio.demo',
    });
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.body)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('a yes or no is true or false: "false" in a query is false, and text in a body is refused naming the field', async () => {
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    const list = async (query: string) =>
      (await call(server.app, 'GET', `/api/class_packages/admin/all?limit=100${query}`, { token: admin })).body.class_packages as unknown[];
    const [first] = (await list('')) as { class_package_id: number }[];
    expect((await call(server.app, 'DELETE', `/api/class_packages/${first?.class_package_id}`, { token: admin })).status).toBe(200);
    const withDeleted = await list('&include_deleted=true');
    const without = await list('');
    expect(withDeleted.length).toBeGreaterThan(without.length);
    expect(await list('&include_deleted=false')).toEqual(without);
    const bad = await call(server.app, 'GET', '/api/class_packages/admin/all?include_deleted=si', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('include_deleted');

    // A consent written as text is not a consent: "no" used to read as yes.
    const before = (await call(server.app, 'GET', '/api/customer', { token })).body.customer;
    const consent = await call(server.app, 'PUT', '/api/customer', { token, body: { custom_fields: { health_notes: 'Lesión de rodilla' }, sensitive_consent: 'no' } });
    expect(consent.status).toBe(400);
    expect(consent.body).toMatchObject({ code: 'validation', field: 'sensitive_consent' });
    expect(consent.body.message).toBe('Revisa el campo sensitive_consent: Debe ser sí o no.');
    expect((await call(server.app, 'GET', '/api/customer', { token })).body.customer).toEqual(before);
  });

  it('a success is the procedure\'s answer as JSON; an empty query value is absent', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/customer?customer_id=', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toMatchObject({ customer: { email: 'cliente@estudio.demo' } });
  });
});
