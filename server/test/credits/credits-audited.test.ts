import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { available_classes } from '@estudio/db/schema/purchases';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId, withSettings } from '../support/reservations-fixtures.ts';

/**
 * Every change of a customer's credits, whatever the route (the spec's
 * /available_classes, the previous panel's giveClasses), goes through one
 * audited service: a reason, the owner's gift limit for Recepción, and an
 * activity row with who and why (both drivers). Reproduces the receptionist
 * who gave unlimited and 10,000 classes with the limit at $0 and left no trace.
 */
let server: TestServer;
let admin: string;
let staff: string;
let mariana: number;
const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString();

demoStudio(['admin', 'recepcion'], (s) => ({ server, tokens: { admin, recepcion: staff } } = s));
beforeAll(async () => {
  mariana = await customerId(server.db, 'cliente@estudio.demo');
}, 60_000);

const live = () =>
  server.db
    .select()
    .from(available_classes)
    .where(and(eq(available_classes.customer_id, mariana), isNull(available_classes.deletedAt)));
const auditRows = (action: string) => server.db.select().from(audit_log).where(eq(audit_log.action, action));

describe('Recepción with the gift limit at $0', () => {
  it('gives no unlimited and no 10,000 classes through POST /available_classes, and leaves no half change', async () => {
    await withSettings(server.db, { reception_gift_max_price: '0' }, async () => {
      const before = await live();
      const unlimited = await call(server.app, 'POST', '/api/available_classes', { token: staff, body: { customer_id: mariana, available_classes: -1, reason: 'Cortesía' } });
      expect(unlimited.status).toBe(403);
      expect(unlimited.body.code).toBe('permission/credits-admin-only');
      const many = await call(server.app, 'POST', '/api/available_classes', {
        token: staff,
        body: { customer_id: mariana, available_classes: 10_000, expiration_date: inAMonth(), reason: 'Cortesía' },
      });
      expect(many.status).toBe(403);
      expect(many.body).toEqual({
        code: 'permission/credits-over-limit',
        message: 'Recepción no puede dar tantas clases: su valor pasa del límite de regalos que fijó el administrador. Pide a un administrador que las dé o véndele un paquete.',
      });
      const noReason = await call(server.app, 'POST', '/api/available_classes', { token: staff, body: { customer_id: mariana, available_classes: 1, expiration_date: inAMonth() } });
      expect(noReason.status).toBe(400);
      expect(noReason.body.code).toBe('access/reason-required');
      expect(await live()).toEqual(before);
      expect(await auditRows('credits.grant')).toEqual([]);
    });
  });

  it('cannot raise a credit to 10,000, make it unlimited or extend it through PUT, but may take classes away with a reason', async () => {
    await withSettings(server.db, { reception_gift_max_price: '0' }, async () => {
      const [credit] = (await live()).filter((c) => c.available_classes > 1 && c.expiration_date !== null);
      if (!credit) throw new Error('the demo seed gives cliente@ a pack of credits');
      const put = (body: Record<string, unknown>) => call(server.app, 'PUT', `/api/available_classes/${credit.available_class_id}`, { token: staff, body });
      expect((await put({ available_classes: 10_000, reason: 'Corrección' })).body.code).toBe('permission/credits-over-limit');
      expect((await put({ available_classes: -1, reason: 'Corrección' })).body.code).toBe('permission/credits-admin-only');
      expect((await put({ expiration_date: null, reason: 'Corrección' })).body.code).toBe('permission/credits-admin-only');
      expect((await put({ available_classes: 0 })).body.code).toBe('access/reason-required');
      const less = await put({ available_classes: credit.available_classes - 1, reason: 'Se le contó una clase de más' });
      expect(less.status, less.raw).toBe(200);
      const [row] = await auditRows('credits.update');
      expect(row).toMatchObject({ entity: 'customer', entity_id: String(mariana) });
      expect(row?.changes).toMatchObject({ available_classes: { from: credit.available_classes, to: credit.available_classes - 1 }, reason: 'Se le contó una clase de más' });
    });
  });

  it('removes a credit only with a reason (?reason=…), and the activity says who and why', async () => {
    const granted = await call(server.app, 'POST', '/api/available_classes', {
      token: admin,
      body: { customer_id: mariana, available_classes: 2, expiration_date: inAMonth(), reason: 'Clase cancelada por el estudio' },
    });
    expect(granted.status, granted.raw).toBe(200);
    const id = granted.body.available_class.available_class_id as number;
    const bare = await call(server.app, 'DELETE', `/api/available_classes/${id}`, { token: staff });
    expect(bare.status).toBe(400);
    expect(bare.body.code).toBe('access/reason-required');
    const removed = await call(server.app, 'DELETE', `/api/available_classes/${id}?reason=${encodeURIComponent('Se dio por error')}`, { token: staff });
    expect(removed.status, removed.raw).toBe(200);
    const activity = await call(server.app, 'GET', `/api/customer/${mariana}/activity`, { token: admin });
    const texts = (activity.body.entries as { text: string; kind: string }[]).filter((e) => e.kind === 'creditsChanged').map((e) => e.text);
    expect(texts).toContain('Andrea Torres (recepcion@estudio.demo) retiró un registro de 2 clases de Mariana López — motivo: Se dio por error.');
    expect(texts.some((t) => t.includes('dio 2 clases a Mariana López — motivo: Clase cancelada por el estudio'))).toBe(true);
  });
});

describe('the previous panel’s giveClasses goes through the same service', () => {
  it('refuses Recepción without a reason and over the limit; an Administrador’s is recorded with the panel’s reason', async () => {
    await withSettings(server.db, { reception_gift_max_price: '0' }, async () => {
      const before = await live();
      const asStaff = await call(server.app, 'PUT', '/api/customer/giveClasses', { token: staff, body: { customer_id: mariana, amount: '10000', expiration_days: '30' } });
      expect(asStaff.status).toBe(400);
      expect(asStaff.body.code).toBe('access/reason-required');
      expect(await live()).toEqual(before);
    });
    const asAdmin = await call(server.app, 'PUT', '/api/customer/giveClasses', { token: admin, body: { customer_id: mariana, amount: '2', expiration_days: '30' } });
    expect(asAdmin.status, asAdmin.raw).toBe(200);
    const rows = await auditRows('credits.grant');
    expect(rows.at(-1)?.changes).toMatchObject({ available_classes: 2, reason: 'Sin motivo (panel anterior)' });
  });
});

describe('Recepción within the owner’s default limit ($180: one class)', () => {
  it('gives one class with an expiry, not two, and not one that never expires', async () => {
    const give = (available: number, expiration_date: string | null) =>
      call(server.app, 'POST', '/api/available_classes', { token: staff, body: { customer_id: mariana, available_classes: available, expiration_date, reason: 'Clase cancelada por el estudio' } });
    expect((await give(1, inAMonth())).status).toBe(200);
    expect((await give(2, inAMonth())).body.code).toBe('permission/credits-over-limit');
    expect((await give(1, null)).body.code).toBe('permission/credits-admin-only');
  });
});
