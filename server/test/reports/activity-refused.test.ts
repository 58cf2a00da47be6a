import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { class_package } from '@estudio/db/schema/packages';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { customerId } from '../support/reservations-fixtures.ts';
import { newClientId, trpcMutation } from '../support/sync-helpers.ts';

/**
 * Decision 039: what a desk pushed and the server refused (sync_mutation,
 * status 'rejected') shows in the owner's Actividad as its own kind,
 * 'Rechazado por el servidor', with who, from which desk, what was attempted
 * and the server's Spanish reason, in time order among what staff did.
 */
let server: TestServer;
let admin: string;
let recepcion: string;
let mariana: number;
let diego: number;
const pkg: Record<string, number> = {};
const desk = newClientId();

beforeAll(async () => {
  server = await startTestServer();
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  recepcion = (await login(server.app, 'recepcion@estudio.demo')).idToken;
  mariana = await customerId(server.db, 'cliente@estudio.demo');
  diego = await customerId(server.db, 'nuevo@estudio.demo');
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
});
afterAll(async () => server.close());

const activity = async (query: string, token = admin) => call(server.app, 'GET', `/api/activity${query}`, { token });
interface Entry {
  id: string;
  audit_log_id: number | null;
  kind: string;
  text: string;
  staff: { email: string } | null;
  customer: { customer_id: number } | null;
  reason: string | null;
  refused: { desk: string; attempted: string; code: string | null; message: string | null } | null;
}

describe("Actividad shows the desks' changes the server refused (decision 039)", () => {
  it('a gift over Recepción’s limit, queued offline and refused at replay, is listed with her name, the desk, what she tried and why', async () => {
    const push = await trpcMutation(
      server.app,
      'sync.push',
      {
        clientId: desk,
        mutations: [
          { id: 1, name: 'giveAccess', args: { customer_id: mariana, class_package_id: pkg['10 Clases'], is_gift: true, reason: 'Cumpleaños de Mariana', package_days: null, payment_method_id: null, bill: false } },
          { id: 2, name: 'removeClasses', args: { customer_id: diego, amount: 2, reason: null } },
        ],
      },
      recepcion,
    );
    expect(push.status).toBe(200);
    expect(push.body.result.data.results.map((r: { status: string }) => r.status)).toEqual(['rejected', 'rejected']);
    // Something Recepción did after, which the server took.
    const courtesy = await call(server.app, 'POST', '/api/customer/giveAccess', {
      token: recepcion,
      body: { customer_id: diego, class_package_id: pkg['1 Clase'], is_gift: true, reason: 'Clase cancelada por el estudio' },
    });
    expect(courtesy.status).toBe(200);

    const res = await activity('?page=1');
    expect(res.status).toBe(200);
    const entries: Entry[] = res.body.entries;
    expect(entries.slice(0, 3).map((e) => e.kind)).toEqual(['gift', 'refusedBySync', 'refusedBySync']);
    const [, removal, gift] = entries;
    expect(gift?.text).toBe(
      `Andrea Torres (recepcion@estudio.demo) intentó, desde la recepción ${desk.slice(0, 8)}, regalar 10 Clases a Mariana López — motivo: Cumpleaños de Mariana. El servidor lo rechazó: ${gift?.refused?.message}`,
    );
    expect(gift?.refused).toMatchObject({ desk: desk.slice(0, 8), attempted: 'regalar 10 Clases a Mariana López — motivo: Cumpleaños de Mariana', code: 'permission/gift-over-limit' });
    expect(gift?.refused?.message).toContain('Recepción no puede regalar');
    expect(gift).toMatchObject({ audit_log_id: null, reason: 'Cumpleaños de Mariana', staff: { email: 'recepcion@estudio.demo' }, customer: { customer_id: mariana } });
    expect(removal?.text).toMatch(/^Andrea Torres \(recepcion@estudio\.demo\) intentó, desde la recepción [0-9a-f]{8}, restar 2 clases a Diego Hernández\. El servidor lo rechazó: Escribe el motivo/);
    expect(removal?.refused?.code).toBe('access/reason-required');
    // Never a key or JSON; every entry has its own id.
    for (const e of entries) expect(e.text).not.toMatch(/[{}"_]|undefined|null/);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    expect(res.body.total).toBe(entries.length);
  });

  it('filters: the kind alone lists only refusals, another kind none; by staff member, customer and period; the customer’s card too', async () => {
    const refused = await activity('?kind=refusedBySync');
    expect(refused.body.entries.map((e: Entry) => e.kind)).toEqual(['refusedBySync', 'refusedBySync']);
    expect(refused.body.total).toBe(2);
    const gifts = await activity('?kind=gift');
    expect(gifts.body.entries.every((e: Entry) => e.kind === 'gift')).toBe(true);

    const adminId = await customerId(server.db, 'admin@estudio.demo');
    expect((await activity(`?staff_id=${adminId}&kind=refusedBySync`)).body.total).toBe(0);
    const staffId = await customerId(server.db, 'recepcion@estudio.demo');
    expect((await activity(`?staff_id=${staffId}&kind=refusedBySync`)).body.total).toBe(2);

    const forMariana = await activity(`?customer_id=${mariana}&kind=refusedBySync`);
    expect(forMariana.body.entries.map((e: Entry) => e.refused?.code)).toEqual(['permission/gift-over-limit']);
    expect((await activity('?kind=refusedBySync&from=2001-01-01&to=2001-01-31')).body.total).toBe(0);

    const card = await call(server.app, 'GET', `/api/customer/${diego}/activity`, { token: recepcion });
    expect(card.body.entries.map((e: Entry) => e.kind)).toEqual(['gift', 'refusedBySync']);
  });
});
