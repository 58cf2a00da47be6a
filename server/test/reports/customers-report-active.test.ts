import { studioDayRange, studioTimeZone } from '@estudio/core';
import { customer } from '@estudio/db/schema/customer';
import { purchase } from '@estudio/db/schema/purchases';
import { and, asc, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadStudioSettings } from '../../src/services/schedule/studio-settings.ts';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Decision 047: the customers report's active ones read their purchases first
 * and then the customers by key (no scan of every customer at 100× the data),
 * and list exactly whom the exists() of decision 044 listed, in the same
 * order, on PGlite and PostgreSQL.
 */
let server: TestServer;
let admin: string;

demoStudio(['admin'], (s) => ({ server, tokens: { admin } } = s));

describe('GET /api/reports/customers, active', () => {
  it('lists the same customers as before, oldest account first, for ranges with and without purchases', async () => {
    const tz = studioTimeZone(await loadStudioSettings(server.db));
    const ranges = [
      ['2020-01-01', '2020-01-31'],
      ['2025-01-01', '2025-12-31'],
      [new Date().toISOString().slice(0, 10), new Date().toISOString().slice(0, 10)],
      [new Date(Date.now() - 300 * 86_400_000).toISOString().slice(0, 10), new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10)],
    ] as const;
    let seen = 0;
    for (const [start_date, end_date] of ranges) {
      const { from, to } = studioDayRange(start_date, end_date, tz);
      const expected = await server.db
        .select({ customer_id: customer.customer_id })
        .from(customer)
        .where(
          and(
            isNull(customer.deletedAt),
            sql`exists (select 1 from ${purchase} where ${purchase.customer_id} = ${customer.customer_id} and ${and(
              inArray(purchase.status, ['active', 'completed']),
              lte(purchase.createdAt, to),
              or(isNull(purchase.expiration_date), gte(purchase.expiration_date, from)),
            )})`,
          ),
        )
        .orderBy(asc(customer.createdAt), asc(customer.customer_id));
      const res = await call(server.app, 'GET', `/api/reports/customers?start_date=${start_date}&end_date=${end_date}`, { token: admin });
      expect(res.status, res.raw).toBe(200);
      expect(res.body.activos.map((c: { customer_id: number }) => c.customer_id), `${start_date}–${end_date}`).toEqual(expected.map((r) => r.customer_id));
      seen += expected.length;
    }
    expect(seen).toBeGreaterThan(0);
  });
});
