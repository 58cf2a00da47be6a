import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customer } from '@estudio/db/schema/customer';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { single_class } from '@estudio/db/schema/schedule';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { outcome, procedures, requestFor, routeName, transportOf, validInput } from '../support/router-walk.ts';

/**
 * Zod stripped the fields a write did not know and the
 * write answered 200, so the owner read '¡Descuento guardado!' while the
 * limit she typed was thrown away. Every write (a tRPC mutation, over /trpc
 * and its REST route) now refuses a field it does not take: 400
 * 'validation/unknown-field', the field named as the client sent it, and
 * nothing written. Queries still ignore unknown query parameters (the
 * previous panel sends `?type=undefined&page=undefined…`; decision 032).
 */

let server: TestServer;
let admin = '';
let recepcion = '';
let mariana = '';
demoStudio(['admin', 'recepcion', 'cliente'], (s) => ({ server, tokens: { admin, recepcion, cliente: mariana } } = s));

const refusal = (field: string) => ({ code: 'validation/unknown-field', message: `El campo "${field}" no existe en esta operación.`, field });

async function marianaRow() {
  const [row] = await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  return row!;
}

describe('the owner types fields the product does not have', () => {
  // The previous panel's own names (limit_per_customer, start_date, expiration_days, class_date…) are documented aliases (server/src/legacy/):
  // these stories use names nobody documents.
  it('a discount with a per-customer limit and dates under names the product does not have is refused, naming the first, and no code is made', async () => {
    const body = { code: 'PANEL20', description: 'Del panel', amount: '20', is_percent: true, limite_por_cliente: 1, fecha_inicio: '2030-01-01', fecha_fin: '2030-02-01' };
    const res = await call(server.app, 'POST', '/api/discounts', { token: admin, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal('limite_por_cliente'));
    expect(await server.db.select().from(discount).where(eq(discount.code, 'PANEL20'))).toEqual([]);
    // With the product's own names the same discount is saved (control).
    const saved = await call(server.app, 'POST', '/api/discounts', {
      token: admin,
      body: { code: 'PANEL20', description: 'Del panel', amount: '20', is_percent: true, max_uses_per_customer: 1, starts_at: '2030-01-01T06:00:00.000Z', expires_at: '2030-02-01T06:00:00.000Z' },
    });
    expect(saved.status).toBe(200);
    const [row] = await server.db.select().from(discount).where(eq(discount.code, 'PANEL20'));
    expect(row?.max_uses_per_customer).toBe(1);
  });

  it('an edit of a discount with an unknown field changes nothing, not even the fields it knows', async () => {
    const [row] = await server.db.select().from(discount).where(eq(discount.code, 'PANEL20'));
    const res = await call(server.app, 'PUT', '/api/discounts', { token: admin, body: { discount_id: row!.discount_id, description: 'Cambiada', fecha_fin: '2030-03-01' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal('fecha_fin'));
    const [after] = await server.db.select().from(discount).where(eq(discount.code, 'PANEL20'));
    expect(after?.description).toBe('Del panel');
  });

  it('access given at the desk with its days and amount under unknown names is refused: no purchase for the package days at another price', async () => {
    const { customer_id } = await marianaRow();
    const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
    const count = async () => (await server.db.select().from(purchase).where(eq(purchase.customer_id, customer_id))).length;
    const before = await count();
    const res = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: recepcion,
      body: { customer_id, class_package_id: pkg!.class_package_id, dias: 7, is_gift: false, importe: '999.00', payment_method_id: 2 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal('dias'));
    expect(await count()).toBe(before);
  });

  it('a class moved with a date and a coach under unknown names is refused and stays where it was', async () => {
    const [cls] = await server.db.select().from(single_class).where(isNull(single_class.cancelledAt)).orderBy(sql`${single_class.single_class_id} desc`).limit(1);
    const res = await call(server.app, 'PUT', '/api/single_class', {
      token: admin,
      body: { single_class_id: cls!.single_class_id, description: 'Movida', fecha_clase: '2030-01-15 21:30:00', coach: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal('fecha_clase'));
    const [after] = await server.db.select().from(single_class).where(eq(single_class.single_class_id, cls!.single_class_id));
    expect(after).toEqual(cls);
  });

  it('a class type with its seat map as `plano` is refused', async () => {
    const res = await call(server.app, 'POST', '/api/class_types', { token: admin, body: { name: 'Tipo del panel', plano: '4,6,6' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal('plano'));
  });

  it('a nested unknown field is named by its path (a package credit line with `cupo`)', async () => {
    const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
    const [type] = (await call(server.app, 'GET', '/api/class_types')).body.class_types as { class_type_id: number }[];
    const res = await call(server.app, 'PUT', '/api/class_packages', {
      token: admin,
      body: { class_package_id: pkg!.class_package_id, class_package_types: [{ class_type_id: type!.class_type_id, class_amount: 5, cupo: 3 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal('class_package_types.0.cupo'));
  });
});

describe('a customer saving her profile', () => {
  it('with her health conditions and another e-mail under unknown names is refused and her profile is unchanged', async () => {
    const before = await marianaRow();
    const res = await call(server.app, 'PUT', '/api/customer', { token: mariana, body: { name: 'Mariana Sofía', padecimientos: 'Lesión de rodilla', correo_alterno: 'otro@correo.demo' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal('padecimientos'));
    expect(await marianaRow()).toEqual(before);
  });

  it('with only the fields of Mi Información is saved (control)', async () => {
    const res = await call(server.app, 'PUT', '/api/customer', { token: mariana, body: { name: 'Mariana', last_name: 'López' } });
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({ name: 'Mariana', last_name: 'López' });
  });
});

describe('over /trpc', () => {
  it('a mutation with an unknown field is refused with the same code, message and field in its error data', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/trpc/discounts.create',
      headers: { authorization: `Bearer ${admin}` },
      payload: { code: 'TRPC20', amount: '20', is_percent: true, limite: 2 },
    });
    expect(res.statusCode).toBe(400);
    const error = res.json().error;
    expect(error.message).toBe('El campo "limite" no existe en esta operación.');
    expect(error.data).toMatchObject({ domainCode: 'validation/unknown-field', field: 'limite', httpStatus: 400 });
    expect(await server.db.select().from(discount).where(eq(discount.code, 'TRPC20'))).toEqual([]);
  });

  it('in a batch only the call with the unknown field is refused', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/trpc/discounts.create,discounts.create?batch=1',
      headers: { authorization: `Bearer ${admin}` },
      payload: { 0: { code: 'LOTEBUENO', amount: '10', is_percent: true }, 1: { code: 'LOTEMALO', amount: '10', is_percent: true, usos: 3 } },
    });
    const [good, bad] = res.json() as [{ result?: unknown }, { error?: { data: { field: string } } }];
    expect(good.result).toBeDefined();
    expect(bad.error?.data.field).toBe('usos');
    const made = await server.db.select({ code: discount.code }).from(discount).where(and(sql`${discount.code} in ('LOTEBUENO', 'LOTEMALO')`));
    expect(made).toEqual([{ code: 'LOTEBUENO' }]);
  });
});

describe('reads', () => {
  it('a query keeps ignoring query parameters it does not use (the previous panel sends `undefined` filters)', async () => {
    const res = await call(server.app, 'GET', '/api/class_types?type=undefined&page=undefined&query=undefined');
    expect(res.status).toBe(200);
    expect(res.body.class_types.length).toBeGreaterThan(0);
  });
});

describe('every write of the router', () => {
  const mutations = procedures.filter((p) => p.def.type === 'mutation');

  it('the walk finds the writes (control)', () => {
    expect(mutations.length).toBeGreaterThan(80);
    expect(mutations.map((m) => m.path)).toEqual(expect.arrayContaining(['discounts.create', 'customer.giveAccess', 'sync.push', 'adminSchedule.update']));
  });

  it.each(mutations.map((route) => [routeName(route), route] as const))('%s refuses a made-up field before anything runs', async (_name, route) => {
    const input = validInput(route.def);
    const withExtra = input === undefined ? { campo_inventado: 1 } : typeof input === 'object' && input && !Array.isArray(input) ? { ...input, campo_inventado: 1 } : null;
    // Every write of the API takes an object (or nothing): a write taking a bare value would need its own row here.
    expect(withExtra).not.toBeNull();
    const request = requestFor(route, withExtra);
    const res = await call(server.app, request.method, request.url, request.body === undefined ? {} : { body: request.body });
    expect(outcome(res, transportOf(route.def))).toEqual({ status: 400, code: 'validation/unknown-field' });
  });
});

describe('every write answers the record as stored (so a client sees what was kept)', () => {
  it('access given at the desk answers the purchase as stored, beside the spec message', async () => {
    // Recepción gifts up to the owner's limit ($180 by default, decision 037): one class.
    const { customer_id } = await marianaRow();
    const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '1 Clase'));
    const res = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: recepcion,
      body: { customer_id, class_package_id: pkg!.class_package_id, package_days: 7, is_gift: true, reason: 'Cortesía' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));
    const stored = await call(server.app, 'GET', `/api/purchases/${res.body.purchase_id}`, { token: admin });
    expect(res.body.purchase).toEqual(stored.body.purchase);
    expect(res.body.purchase).toMatchObject({ customer_id, class_package_id: pkg!.class_package_id, is_gift: true, expiration_days: 7 });

    const revoked = await call(server.app, 'PUT', '/api/customer/revokeAccess', { token: recepcion, body: { purchase_id: res.body.purchase_id, reason: 'Se cargó por error' } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.purchase).toEqual((await call(server.app, 'GET', `/api/purchases/${res.body.purchase_id}`, { token: admin })).body.purchase);
    expect(revoked.body.purchase.status).toBe('revoked');
  });

  it('classes taken away at the desk answer the customer credits as they are now', async () => {
    const { customer_id } = await marianaRow();
    const before = (await call(server.app, 'GET', `/api/customer/admin/${customer_id}`, { token: admin })).body.credits;
    const res = await call(server.app, 'PUT', '/api/customer/removeClasses', { token: recepcion, body: { customer_id, amount: 1, reason: 'Ajuste de saldo' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));
    const after = (await call(server.app, 'GET', `/api/customer/admin/${customer_id}`, { token: admin })).body.credits;
    expect(res.body.credits).toEqual(after);
    expect(after.total).toBe(before.total - 1);
  });

  it('the catalogue writes answer what a read of the same record answers', async () => {
    const discountRow = (await server.db.select().from(discount).where(eq(discount.code, 'PANEL20')))[0]!;
    const discountSaved = await call(server.app, 'PUT', '/api/discounts', { token: admin, body: { discount_id: discountRow.discount_id, description: 'Guardada' } });
    expect(discountSaved.body.discount).toEqual((await call(server.app, 'GET', `/api/discounts/${discountRow.discount_id}`, { token: admin })).body.discount);

    const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
    const pkgSaved = await call(server.app, 'PUT', '/api/class_packages', { token: admin, body: { class_package_id: pkg!.class_package_id, short_description: 'Cinco clases' } });
    expect(pkgSaved.body.class_package).toEqual((await call(server.app, 'GET', `/api/class_packages/admin/${pkg!.class_package_id}`, { token: admin })).body.class_package);

    const typeSaved = await call(server.app, 'POST', '/api/class_types', { token: admin, body: { name: 'Tipo guardado', spot_map: '4,6,6' } });
    expect(typeSaved.body.class_type).toEqual((await call(server.app, 'GET', `/api/class_types/${typeSaved.body.class_type.class_type_id}`)).body.class_type);

    const locationSaved = await call(server.app, 'POST', '/api/locations', { token: admin, body: { name: 'Sucursal guardada', address: 'Calle 1' } });
    expect(locationSaved.body.location).toEqual((await call(server.app, 'GET', `/api/locations/${locationSaved.body.location.location_id}`)).body.location);
  });
});
