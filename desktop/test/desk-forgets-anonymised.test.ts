import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer_note } from '@estudio/db';
import { call, login, startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { anonymiseCustomer } from '../../server/src/services/privacy/anonymise-customer.ts';
import { DeskService } from '../src/service/desk-service.ts';
import { syncDeps } from '../src/service/sync-deps.ts';

/**
 * A customer whose data the studio cancelled (decision 124) is forgotten by the desk's replica too: the search no
 * longer finds her by name, e-mail or phone, and her notes leave the desk's disk.
 */
let server: TestServer;
let dataDir: string;
let desk: DeskService;

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  const serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-forgets-'));
  desk = new DeskService({ dataDir, serverUrl }, syncDeps);
  await desk.start();
  await desk.signIn('recepcion@estudio.demo', 'Demo1234!');
  await until('first sync', () => desk.status().ready && desk.status().online);
});

afterAll(async () => {
  await desk?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
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
