import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { app_config, customer } from '@estudio/db';
import { call, startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { DeskService } from '../src/service/desk-service.ts';
import type { DeskSyncDeps } from '../src/service/desk-service.ts';
import { syncDeps } from '../src/service/sync-deps.ts';

/**
 * Decision 045 at the desk: a Coach signs in, its desk replicates nothing (no
 * customers, no money), the desk's own reads and writes refuse it, and its
 * console reads its classes and rosters from the server through the proxy,
 * where the server decides what is its own.
 */
let server: TestServer;
let dataDir: string;
let desk: DeskService;
const email = 'coach.desk@estudio.demo';
const password = 'Valeria2024!';
/** What the desk asked of the sync engine: a coach's desk must never open a link to the server's sync nor start a sync client. */
const syncStarted = { links: 0, clients: 0 };
const countingDeps: DeskSyncDeps = {
  ...syncDeps,
  createLink: (options) => {
    syncStarted.links += 1;
    return syncDeps.createLink(options);
  },
  createSyncClient: (options) => {
    syncStarted.clients += 1;
    return syncDeps.createSyncClient(options);
  },
};

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  const serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password } });
  const pages = await call(server.app, 'GET', '/api/pages');
  const required = (pages.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
  const signup = await call(server.app, 'POST', '/api/customer/signup', {
    token: identity.body.idToken,
    body: { name: 'Valeria', last_name: 'Montes', email, phone: '5598760000', birthdate: '1990-04-02', accepted_page_ids: required },
  });
  if (signup.status !== 200) throw new Error(signup.raw);
  await server.db.execute(sql`update customer set role = 'coach' where email = ${email}`);
  await server.db.execute(sql`update instructor set customer_id = (select customer_id from customer where email = ${email}) where name = 'Valeria'`);
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-coach-'));
  desk = new DeskService({ dataDir, serverUrl }, countingDeps);
  await desk.start();
}, 120_000);

afterAll(async () => {
  await desk?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a coach at the desk', () => {
  it('signs in as Coach; nothing is replicated and the desk refuses its own reads (customers, check-in)', async () => {
    const user = await desk.signIn(email, password);
    expect(user).toMatchObject({ email, role: 'coach' });
    // The last step of a coach's sign-in copies the studio's settings into the replica (a staff desk does it after its first sync):
    // once they are there, the sign-in's work is done, and nothing it left running can start a sync.
    await vi.waitFor(async () => expect((await desk.db.select().from(app_config)).length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(syncStarted).toEqual({ links: 0, clients: 0 });
    expect(desk.status()).toMatchObject({ ready: false, lastSyncAt: null });
    expect((await desk.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'cliente@estudio.demo'))).length).toBe(0);
    await expect(desk.searchCustomers('clie')).rejects.toMatchObject({ code: 'desk/signed-out' });
    await expect(desk.today()).rejects.toMatchObject({ code: 'desk/signed-out' });
    await expect(desk.scan('ABCDEFGHJK')).rejects.toMatchObject({ code: 'desk/signed-out' });
    await expect(desk.checkIn(1)).rejects.toMatchObject({ code: 'desk/signed-out' });
  });

  it('reads its own classes and a roster from the server; the admin routes answer 403 in Spanish', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const inTwoWeeks = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    const week = (await desk.callServer('query', 'coach.classes', { start_date: today, end_date: inTwoWeeks })) as {
      instructor: { name: string } | null;
      single_classes: { single_class_id: number; coaches: string[] }[];
    };
    expect(week.instructor?.name).toBe('Valeria Montes');
    expect(week.single_classes.length).toBeGreaterThan(0);
    const first = week.single_classes[0];
    const roster = (await desk.callServer('query', 'coach.roster', { id: first?.single_class_id })) as { single_class: { single_class_id: number } };
    expect(roster.single_class.single_class_id).toBe(first?.single_class_id);
    await expect(desk.callServer('query', 'customer.adminAll', { page: 1 })).rejects.toMatchObject({ code: 'forbidden', message: 'No tienes permiso para realizar esta acción.' });
  });
});
