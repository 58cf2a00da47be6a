import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { customerId } from '../support/reservations-fixtures.ts';
import { newClientId, trpcMutation } from '../support/sync-helpers.ts';

/**
 * Points 5 and 6 (decision 037): a reason for gifts, removals and
 * revocations; Recepción gifts up to the owner's price; the owner reads who
 * did what in Actividad, and on a customer's card.
 */
let server: TestServer;
let admin: string;
let recepcion: string;
let mariana: number;
let diego: number;
const pkg: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer();
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  recepcion = (await login(server.app, 'recepcion@estudio.demo')).idToken;
  mariana = await customerId(server.db, 'cliente@estudio.demo');
  diego = await customerId(server.db, 'nuevo@estudio.demo');
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
});
afterAll(async () => server.close());

const purchasesOf = async (id: number) => (await server.db.select().from(purchase).where(eq(purchase.customer_id, id))).length;
const activity = async (query: string, token = admin) => call(server.app, 'GET', `/api/activity${query}`, { token });

describe('a reason for what staff give and take', () => {
  it('Recepción gives a gift, removes classes or revokes access only with a reason, said in Spanish; nothing is saved without it', async () => {
    const before = await purchasesOf(mariana);
    const gift = await call(server.app, 'POST', '/api/customer/giveAccess', { token: recepcion, body: { customer_id: mariana, class_package_id: pkg['1 Clase'], is_gift: true } });
    expect(gift.status).toBe(400);
    expect(gift.body).toMatchObject({ code: 'access/reason-required', message: 'Escribe el motivo (al menos 3 letras): queda registrado en Actividad con tu nombre.' });
    expect(await purchasesOf(mariana)).toBe(before);

    const removal = await call(server.app, 'PUT', '/api/customer/removeClasses', { token: recepcion, body: { customer_id: mariana, amount: 1, reason: '  ' } });
    expect(removal.status).toBe(400);
    expect(removal.body.code).toBe('access/reason-required');

    const [any] = await server.db.select().from(purchase).where(eq(purchase.customer_id, mariana));
    const revoke = await call(server.app, 'PUT', '/api/customer/revokeAccess', { token: recepcion, body: { purchase_id: any!.purchase_id } });
    expect(revoke.status).toBe(400);
    expect(revoke.body.code).toBe('access/reason-required');
    const [still] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, any!.purchase_id));
    expect(still?.status).toBe(any!.status);
  });

  it('Recepción may not gift Ilimitado Mensual (over the owner’s $180 limit); the owner raises the limit and she may', async () => {
    const before = await purchasesOf(diego);
    const refused = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: recepcion,
      body: { customer_id: diego, class_package_id: pkg['Ilimitado Mensual'], is_gift: true, reason: 'Es amigo del dueño' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('permission/gift-over-limit');
    expect(refused.body.message).toContain('Recepción no puede regalar este paquete');
    expect(await purchasesOf(diego)).toBe(before);

    // A single class is a courtesy she may give.
    const courtesy = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: recepcion,
      body: { customer_id: diego, class_package_id: pkg['1 Clase'], is_gift: true, reason: 'Clase cancelada por el estudio' },
    });
    expect(courtesy.status).toBe(200);

    // The admin may gift anything; the owner raises Recepción's limit to $2,000 and then she may too.
    const raised = await call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'reception_gift_max_price', value: '2000' }] } });
    expect(raised.status).toBe(200);
    const allowed = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: recepcion,
      body: { customer_id: diego, class_package_id: pkg['Ilimitado Mensual'], is_gift: true, reason: 'Premio del reto de enero' },
    });
    expect(allowed.status).toBe(200);
    await call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'reception_gift_max_price', value: '180' }] } });
  });

  it('a gift queued on an offline desk and refused at replay comes back rejected with the Spanish reason, and leaves no trace', async () => {
    const before = await purchasesOf(mariana);
    const push = await trpcMutation(
      server.app,
      'sync.push',
      {
        clientId: newClientId(),
        mutations: [{ id: 1, name: 'giveAccess', args: { customer_id: mariana, class_package_id: pkg['10 Clases'], is_gift: true, reason: 'Cumpleaños de Mariana', package_days: null, payment_method_id: null, bill: false } }],
      },
      recepcion,
    );
    expect(push.status).toBe(200);
    const [result] = push.body.result.data.results;
    expect(result).toMatchObject({ status: 'rejected', code: 'permission/gift-over-limit' });
    expect(result.message).toContain('Recepción no puede regalar');
    expect(await purchasesOf(mariana)).toBe(before);
  });
});

describe('Actividad: who did what', () => {
  it('the owner reads what Recepción did, newest first, in sentences with her name, the customer and the reason', async () => {
    const gift = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: recepcion,
      body: { customer_id: mariana, class_package_id: pkg['1 Clase'], is_gift: true, reason: 'Se le cayó la bici en clase' },
    });
    expect(gift.status).toBe(200);
    const removed = await call(server.app, 'PUT', '/api/customer/removeClasses', { token: recepcion, body: { customer_id: mariana, amount: 1, reason: 'Clase cargada dos veces' } });
    expect(removed.status).toBe(200);
    const revoked = await call(server.app, 'PUT', '/api/customer/revokeAccess', { token: recepcion, body: { purchase_id: gift.body.purchase_id, reason: 'Regalo equivocado' } });
    expect(revoked.status).toBe(200);

    const res = await activity('?page=1');
    expect(res.status).toBe(200);
    const texts: string[] = res.body.entries.map((e: { text: string }) => e.text);
    expect(texts.slice(0, 3)).toEqual([
      'Andrea Torres (recepcion@estudio.demo) eliminó el acceso de 1 Clase de Mariana López — motivo: Regalo equivocado.',
      'Andrea Torres (recepcion@estudio.demo) restó 1 clase a Mariana López — motivo: Clase cargada dos veces.',
      'Andrea Torres (recepcion@estudio.demo) regaló 1 Clase a Mariana López — motivo: Se le cayó la bici en clase.',
    ]);
    // Never a key or JSON.
    for (const text of texts) expect(text).not.toMatch(/[{}"_]|undefined|null/);
    // The settings change of the story above is there too, by its Spanish name.
    expect(texts.some((t) => t.startsWith('Carlos Méndez (admin@estudio.demo)') && t.includes('cambió la configuración: Precio máximo de un paquete que Recepción puede regalar'))).toBe(true);
  });

  it('filters by kind, staff member, customer and period; pages of 30', async () => {
    const gifts = await activity('?kind=gift');
    expect(gifts.body.entries.length).toBeGreaterThanOrEqual(3);
    expect(gifts.body.entries.every((e: { kind: string }) => e.kind === 'gift')).toBe(true);

    const staffId = await customerId(server.db, 'recepcion@estudio.demo');
    const byStaff = await activity(`?staff_id=${staffId}`);
    expect(byStaff.body.entries.every((e: { staff: { email: string } }) => e.staff.email === 'recepcion@estudio.demo')).toBe(true);

    const forDiego = await activity(`?customer_id=${diego}`);
    expect(forDiego.body.entries.map((e: { text: string }) => e.text)).toEqual([
      'Andrea Torres (recepcion@estudio.demo) regaló Ilimitado Mensual a Diego Hernández — motivo: Premio del reto de enero.',
      'Andrea Torres (recepcion@estudio.demo) regaló 1 Clase a Diego Hernández — motivo: Clase cancelada por el estudio.',
    ]);

    const longAgo = await activity('?from=2001-01-01&to=2001-01-31');
    expect(longAgo.body).toMatchObject({ entries: [], total: 0, pages: 1 });
    const bad = await activity('?kind=borrar_todo');
    expect(bad.status).toBe(400);
  });

  it('the same list for one customer on her card, for Recepción too; the whole list is the owner’s', async () => {
    const card = await call(server.app, 'GET', `/api/customer/${mariana}/activity`, { token: recepcion });
    expect(card.status).toBe(200);
    expect(card.body.entries[0].text).toContain('eliminó el acceso de 1 Clase de Mariana López');
    expect(card.body.entries.every((e: { customer: { customer_id: number } }) => e.customer.customer_id === mariana)).toBe(true);
    expect((await activity('', recepcion)).status).toBe(403);
    const cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
    expect((await call(server.app, 'GET', `/api/customer/${mariana}/activity`, { token: cliente })).status).toBe(403);
  });

  it('promoting Diego to Administrador is logged as a role change', async () => {
    const promoted = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: diego, role: 'admin' } });
    expect(promoted.status).toBe(200);
    const roles = await activity('?kind=roleChange');
    expect(roles.body.entries[0].text).toMatch(/^Carlos Méndez \(admin@estudio\.demo\) cambió el rol de Diego Hernández de Cliente a Administrador\.$/);
    await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: diego, role: 'customer' } });
  });
});
