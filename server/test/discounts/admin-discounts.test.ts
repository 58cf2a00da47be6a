import { and, count, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { discount, discount_class_package } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { fromCents, toCents } from '@estudio/core';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/** The admin console's discount codes: list, detail, create, update, delete; the public code check follows them. */
let server: TestServer;
let admin: string;
let adminId: number;
let cliente: string;
const pkgId: Record<string, number> = {};
const codeId: Record<string, number> = {};

demoStudio(['admin', 'cliente'], (s) => ({ server, tokens: { admin, cliente } } = s));
beforeAll(async () => {
  adminId = await customerId(server.db, 'admin@estudio.demo');
  for (const p of await server.db.select().from(class_package)) pkgId[p.title] = p.class_package_id;
  for (const d of await server.db.select().from(discount)) codeId[d.code] = d.discount_id;
}, 120_000);

const discountCount = async () => (await server.db.select({ n: count() }).from(discount))[0]!.n;
const lastAudit = async (id: number) =>
  (
    await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.entity, 'discount'), eq(audit_log.entity_id, String(id))))
      .orderBy(desc(audit_log.audit_log_id))
      .limit(1)
  )[0];
const checkCode = (code: string, pkg: string) => call(server.app, 'GET', `/api/discounts/code/${code}?class_package_id=${pkgId[pkg]}`, { token: cliente });

describe('GET /api/discounts/admin/all and /api/discounts/{id}', () => {
  it('lists the codes a page at a time with uses, limits and packages', async () => {
    const res = await call(server.app, 'GET', '/api/discounts/admin/all', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    const buenFin = res.body.discounts.find((d: { code: string }) => d.code === 'BUENFIN');
    expect(buenFin).toMatchObject({ uses: 25, max_uses: 25, amount: '150.00', is_percent: false, class_package_ids: [] });
    const verano = res.body.discounts.find((d: { code: string }) => d.code === 'VERANO200');
    expect(verano.class_package_ids.sort()).toEqual([pkgId['10 Clases'], pkgId['Ilimitado Mensual']].sort());
    expect(verano.expires_at).toEqual(expect.any(String));

    const page = await call(server.app, 'GET', '/api/discounts/admin/all?limit=3&page=2', { token: admin });
    expect(page.body.discounts).toHaveLength(1);
    const search = await call(server.app, 'GET', '/api/discounts/admin/all?query=buen%20fin', { token: admin });
    expect(search.body.discounts.map((d: { code: string }) => d.code)).toEqual(['BUENFIN']);
  });

  it("answers one code, and 'Descuento no encontrado.' for a missing id", async () => {
    const one = await call(server.app, 'GET', `/api/discounts/${codeId.PRIMERMES50}`, { token: admin });
    expect(one.body.discount).toMatchObject({ code: 'PRIMERMES50', first_invoice_only: true, max_uses_per_customer: 1 });
    const missing = await call(server.app, 'GET', '/api/discounts/999999', { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'discount/not-found', message: 'Descuento no encontrado.' });
  });
});

describe('POST /api/discounts', () => {
  it('refuses bad amounts, dates and duplicate codes (ignoring case), saving nothing', async () => {
    const before = await discountCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ amount: '0', is_percent: true }, 'amount', 'El porcentaje de descuento debe estar entre 1 y 100.'],
      [{ amount: '100.01', is_percent: true }, 'amount', 'El porcentaje de descuento debe estar entre 1 y 100.'],
      [{ amount: '0.00', is_percent: false }, 'amount', 'El monto del descuento debe ser mayor a cero.'],
      [{ amount: '1.234' }, 'amount', 'El descuento debe ser un importe en pesos con hasta dos decimales.'],
      [{ starts_at: '2026-12-10T00:00:00-06:00', expires_at: '2026-12-01T00:00:00-06:00' }, 'expires_at', 'La fecha de fin del descuento debe ser posterior a la de inicio.'],
      [{ code: 'CON ESPACIO' }, 'code', 'El código solo puede tener letras, números, guiones y guiones bajos.'],
    ];
    for (const [change, field, message] of cases) {
      const res = await call(server.app, 'POST', '/api/discounts', { token: admin, body: { code: 'NUEVO15', amount: '15', is_percent: true, ...change } });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body, JSON.stringify(change)).toEqual({ code: 'validation', field, message: `Revisa el campo ${field}: ${message}` });
    }
    const duplicate = await call(server.app, 'POST', '/api/discounts', { token: admin, body: { code: 'verano200', amount: '100' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ code: 'discount/code-taken', message: 'Ya existe un descuento con ese código.' });
    const badPackage = await call(server.app, 'POST', '/api/discounts', { token: admin, body: { code: 'SINPAQUETE', amount: '100', class_package_ids: [999999] } });
    expect(badPackage.status).toBe(404);
    expect(await discountCount()).toBe(before);
  });

  it('creates a code stored upper-case that the customer can use right away, audited', async () => {
    const res = await call(server.app, 'POST', '/api/discounts', {
      token: admin,
      body: { code: 'Primavera20', description: '20% en 10 Clases', amount: 20, is_percent: true, max_uses: 2, class_package_ids: [pkgId['10 Clases']] },
    });
    expect(res.status).toBe(200);
    expect(res.body.discount).toMatchObject({ code: 'PRIMAVERA20', amount: '20.00', is_percent: true, max_uses: 2, uses: 0, class_package_ids: [pkgId['10 Clases']] });
    codeId.PRIMAVERA20 = res.body.discount.discount_id;
    expect(await lastAudit(codeId.PRIMAVERA20!)).toMatchObject({ customer_id: adminId, action: 'create' });

    const ok = await checkCode('primavera20', '10 Clases');
    expect(ok.status).toBe(200);
    expect(ok.body.discount.code).toBe('PRIMAVERA20');
    const [ten] = await server.db.select().from(class_package).where(eq(class_package.class_package_id, pkgId['10 Clases']!));
    expect(ok.body.total).toBe(fromCents(Math.round(toCents(ten!.sale_price ?? ten!.price) * 0.8)));
    expect((await checkCode('PRIMAVERA20', '5 Clases')).status).toBe(412);
  });
});

describe('PUT /api/discounts', () => {
  it('changes the fields sent, replaces the packages and checks the merged code', async () => {
    const id = codeId.PRIMAVERA20!;
    const res = await call(server.app, 'PUT', '/api/discounts', { token: admin, body: { discount_id: id, amount: '25', class_package_ids: [] } });
    expect(res.status).toBe(200);
    expect(res.body.discount).toMatchObject({ amount: '25.00', is_percent: true, class_package_ids: [] });
    expect(await server.db.select().from(discount_class_package).where(eq(discount_class_package.discount_id, id))).toHaveLength(0);
    expect((await checkCode('PRIMAVERA20', '5 Clases')).status).toBe(200);
    expect(await lastAudit(id)).toMatchObject({ action: 'update', changes: { amount: '25.00', class_package_ids: [] } });

    // Switching to a fixed amount keeps 25 pesos; turning it back into a 250 % is refused.
    const percent = await call(server.app, 'PUT', '/api/discounts', { token: admin, body: { discount_id: id, amount: '250' } });
    expect(percent.status).toBe(400);
    expect(percent.body.code).toBe('discount/percent-range');
    const dates = await call(server.app, 'PUT', '/api/discounts', { token: admin, body: { discount_id: id, starts_at: '2027-01-02T00:00:00Z', expires_at: '2027-01-01T00:00:00Z' } });
    expect(dates.body.code).toBe('discount/dates');
    const taken = await call(server.app, 'PUT', '/api/discounts', { token: admin, body: { discount_id: id, code: 'BuenFin' } });
    expect(taken.status).toBe(409);
    const [row] = await server.db.select().from(discount).where(eq(discount.discount_id, id));
    expect(row).toMatchObject({ code: 'PRIMAVERA20', amount: '25.00', starts_at: null });
  });

  it('refuses a max_uses below the uses already made; an exhausted code raised above its uses works again', async () => {
    const id = codeId.BUENFIN!;
    const below = await call(server.app, 'PUT', '/api/discounts', { token: admin, body: { discount_id: id, max_uses: 10 } });
    expect(below.status).toBe(400);
    expect(below.body).toEqual({ code: 'discount/max-uses-below-uses', message: 'El máximo de usos no puede ser menor que los usos que ya tiene el descuento.' });
    expect((await checkCode('BUENFIN', '5 Clases')).body.message).toBe('Lo sentimos, ya has agotado este descuento.');
    const raised = await call(server.app, 'PUT', '/api/discounts', { token: admin, body: { discount_id: id, max_uses: 30 } });
    expect(raised.body.discount).toMatchObject({ max_uses: 30, uses: 25 });
    expect((await checkCode('BUENFIN', '5 Clases')).status).toBe(200);
    const missing = await call(server.app, 'PUT', '/api/discounts', { token: admin, body: { discount_id: 999999, amount: '5' } });
    expect(missing.body).toEqual({ code: 'discount/not-found', message: 'Descuento no encontrado.' });
  });
});

describe('DELETE /api/discounts/{id}', () => {
  it('removes a code never used; the public check stops finding it', async () => {
    const id = codeId.PRIMAVERA20!;
    const res = await call(server.app, 'DELETE', `/api/discounts/${id}`, { token: admin });
    expect(res.body).toEqual({ deleted: true, id, soft: false });
    expect(await server.db.select().from(discount).where(eq(discount.discount_id, id))).toHaveLength(0);
    expect((await checkCode('PRIMAVERA20', '5 Clases')).status).toBe(404);
    expect(await lastAudit(id)).toMatchObject({ action: 'delete', changes: { soft: false } });
    const again = await call(server.app, 'DELETE', `/api/discounts/${id}`, { token: admin });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Descuento no encontrado.');
  });

  it('keeps a redeemed code for its history, disabled and out of the lists', async () => {
    const id = codeId.BUENFIN!;
    const res = await call(server.app, 'DELETE', `/api/discounts/${id}`, { token: admin });
    expect(res.body).toEqual({ deleted: true, id, soft: true });
    const [row] = await server.db.select().from(discount).where(eq(discount.discount_id, id));
    expect(row).toMatchObject({ available: false, deletedAt: expect.any(Date), uses: 25 });
    expect((await checkCode('BUENFIN', '5 Clases')).status).toBe(404);
    const list = await call(server.app, 'GET', '/api/discounts/admin/all', { token: admin });
    expect(list.body.discounts.map((d: { code: string }) => d.code)).not.toContain('BUENFIN');
    expect((await call(server.app, 'GET', `/api/discounts/${id}`, { token: admin })).status).toBe(404);
  });
});
