import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer_note } from '@estudio/db';
import { call, login, type TestServer } from '../../server/test/support/helpers.ts';
import { anonymiseCustomer } from '../../server/src/services/privacy/anonymise-customer.ts';
import type { DeskService } from '../src/service/desk-service.ts';
import { deskOnTestServer, until, type DeskOnServer } from './desk-harness.ts';

/**
 * A customer whose data the studio cancelled (decision 124) is forgotten by the desk's replica too: the search no
 * longer finds her by name, e-mail or phone, and her notes leave the desk's disk.
 */
let server: TestServer;
let desk: DeskService;
let harness: DeskOnServer | undefined;

beforeAll(async () => {
  harness = await deskOnTestServer();
  ({ server, desk } = harness);
});

afterAll(async () => {
  await harness?.close();
});

describe('the desk forgets an anonymised customer', () => {
  it('her row arrives blanked, the search no longer finds her, and her notes are deleted from the replica', async () => {
    const { idToken: recepcion } = await login(server.app, 'recepcion@estudio.demo');
    const required = ((await call(server.app, 'GET', '/api/pages')).body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
    const made = await call(server.app, 'POST', '/api/customer', {
      token: recepcion,
      body: { name: 'Xiomara', last_name: 'Olvidada', email: 'xiomara.olvidada@correo.mx', phone: '5566778899', accepted_page_ids: required },
    });
    expect(made.status, made.raw).toBe(200);
    const id = made.body.customer.customer_id as number;
    const note = await call(server.app, 'POST', '/api/customer/notes', { token: recepcion, body: { customer_id: id, kind: 'alert', body: 'Alérgica al látex.' } });
    expect(note.status, note.raw).toBe(200);
    await until('the desk has her', async () => (await desk.searchCustomers('Xiomara')).some((c) => c.customer_id === id));
    const replicaNotes = async () =>
      (await desk.db.execute(sql`select count(*)::int as n from ${customer_note} where customer_id = ${id}`)) as unknown as { rows: { n: number }[] };
    await until('the desk has her note', async () => (await replicaNotes()).rows[0]?.n === 1);

    await server.db.transaction((tx) => anonymiseCustomer(tx, id, new Date()));

    await until('the desk forgot her', async () => (await desk.searchCustomers('Xiomara')).length === 0);
    expect(await desk.searchCustomers('5566778899')).toEqual([]);
    expect(await desk.searchCustomers('xiomara.olvidada')).toEqual([]);
    await until('her note left the replica', async () => (await replicaNotes()).rows[0]?.n === 0);
    const row = (await desk.db.execute(sql`select name, last_name, email, phone from customer where customer_id = ${id}`)) as unknown as { rows: Record<string, unknown>[] };
    expect(row.rows[0]).toEqual({ name: 'Cliente', last_name: 'anonimizado', email: `anonimizado-${id}@anonimizado.invalid`, phone: null });
  });
});
