import { describe, expect, it } from 'vitest';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { adminRoutes, outcome, staffRoutes, table } from '../support/router-walk.ts';

/**
 * One table over the whole router: every procedure the committed access
 * table (access-table.ts) says is the owner's (admin) or the front desk's
 * (staff) is called over its own transport (the REST path of its OpenAPI
 * meta, /trpc otherwise) with an input its own schema accepts: a customer
 * gets 403 (and front desk too, on the owner's), no token gets 401. The expectation is the table's, not the
 * router's guard, so a guard demoted by mistake fails here.
 */

let server: TestServer;
let customerToken: string;
let staffToken: string;

demoStudio(['cliente', 'recepcion'], (s) => ({ server, tokens: { cliente: customerToken, recepcion: staffToken } } = s));

describe('the admin and staff guards, over the whole router', () => {
  it("finds the table's admin and staff procedures in the router", () => {
    const admin = adminRoutes.map((r) => r.path);
    // A few this suite knows exist; everything else is found the same way.
    expect(admin).toEqual(expect.arrayContaining(['customer.adminAll', 'packages.create', 'discounts.remove', 'locations.create']));
    expect(admin).not.toContain('customer.me');
    expect(staffRoutes.map((r) => r.path)).toEqual(expect.arrayContaining(['customer.giveAccess']));
    expect(admin.filter((p) => staffRoutes.some((s) => s.path === p))).toEqual([]);
  });

  describe.each([
    ['admin', adminRoutes],
    ['staff', staffRoutes],
  ] as const)('%s', (role, routes) => {
    const rows = table(routes);

    it.each(rows)('$name: a customer gets 403', async ({ request: build, transport }) => {
      const request = build();
      const res = await call(server.app, request.method, request.url, { token: customerToken, ...(request.body !== undefined ? { body: request.body } : {}) });
      expect(outcome(res, transport), res.raw).toEqual({ status: 403, code: 'forbidden' });
    });

    // The owner's routes refuse the front desk too.
    if (role === 'admin') {
      it.each(rows)('$name: front desk gets 403', async ({ request: build, transport }) => {
        const request = build();
        const res = await call(server.app, request.method, request.url, { token: staffToken, ...(request.body !== undefined ? { body: request.body } : {}) });
        expect(outcome(res, transport), res.raw).toEqual({ status: 403, code: 'forbidden' });
      });
    }

    it.each(rows)('$name: no token gets 401', async ({ request: build, transport }) => {
      const request = build();
      const res = await call(server.app, request.method, request.url, request.body !== undefined ? { body: request.body } : {});
      expect(outcome(res, transport), res.raw).toEqual({ status: 401, code: 'unauthenticated' });
    });
  });
});
