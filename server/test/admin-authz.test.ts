import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, startTestServer, type TestServer } from './helpers.ts';
import { adminRoutes, outcome, staffRoutes, table } from './router-walk.ts';

/**
 * One table over the whole router: every procedure built on adminProcedure
 * (or staffProcedure) is found by its guard, not by name, so a route added
 * later is covered without editing this file. Each is called over its own
 * transport (the REST path of its OpenAPI meta, /trpc otherwise) with an input
 * its own schema accepts: a customer gets 403, no token gets 401.
 */

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
