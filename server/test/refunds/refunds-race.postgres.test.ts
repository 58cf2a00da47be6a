import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { invoice } from '@estudio/db/schema/purchases';
import { startRacingServer, type RacingServer } from '../support/helpers.ts';

/**
 * Two admins refund the same purchase at the same moment: on
 * PostgreSQL with real parallel requests, exactly one refund is recorded and
 * the other is told it was already refunded. PGlite has one connection and
 * cannot race: TEST_DATABASE_URL only.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('refund races on PostgreSQL', () => {
  let race: RacingServer;
  let admin: string;
  beforeAll(async () => {
    race = await startRacingServer();
    const res = await fetch(`${race.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@estudio.demo', password: 'Demo1234!' }),
    });
    admin = ((await res.json()) as { idToken: string }).idToken;
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  const send = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
    const res = await fetch(`${race.base}${path}`, { method, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { code?: string; purchase_id?: number } };
  };

  it('ten refunds of one cash sale at once: one is recorded, nine get 409 refund/already-refunded', async () => {
    const [mariana] = await race.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    const [pkg] = await race.db.select().from(class_package).where(eq(class_package.title, '10 Clases'));
    const sold = await send('POST', '/api/customer/giveAccess', { customer_id: mariana!.customer_id, class_package_id: pkg!.class_package_id, payment_method_id: 2, bill: true });
    expect(sold.status).toBe(200);
    const id = sold.body.purchase_id!;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => send('POST', `/api/purchases/${id}/refund`, { reason: `Devolución ${i + 1}` })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'refund/already-refunded')).toHaveLength(9);
    expect(await race.db.select().from(invoice).where(and(eq(invoice.purchase_id, id), eq(invoice.status, 'refunded')))).toHaveLength(1);
    expect(await race.db.select().from(audit_log).where(and(eq(audit_log.action, 'refund'), eq(audit_log.entity_id, String(id))))).toHaveLength(1);
  });

  it('a refund and a revocation at once: both end the access once, and the refund is recorded or refused whole', async () => {
    const [mariana] = await race.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    const [pkg] = await race.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
    const sold = await send('POST', '/api/customer/giveAccess', { customer_id: mariana!.customer_id, class_package_id: pkg!.class_package_id, payment_method_id: 2, bill: true });
    const id = sold.body.purchase_id!;
    const [refund, revoke] = await Promise.all([send('POST', `/api/purchases/${id}/refund`, { reason: 'Devolución' }), send('PUT', '/api/customer/revokeAccess', { purchase_id: id, reason: 'Se cargó por error' })]);
    expect(refund.status).toBe(200);
    // Revoked first and then refunded, or refunded first (the access already gone): never both writing the credits twice.
    expect([200, 409]).toContain(revoke.status);
    expect(await race.db.select().from(invoice).where(and(eq(invoice.purchase_id, id), eq(invoice.status, 'refunded')))).toHaveLength(1);
  });
});
