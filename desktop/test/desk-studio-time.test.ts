import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '@estudio/core';
import { call, login, startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { DeskService } from '../src/service/desk-service.ts';
import { syncDeps } from '../src/service/sync-deps.ts';

/**
 * Points 10 and 11 at the front desk (decision 030): the desk reads
 * the studio's zone from its replica's copy of the settings, and its customer
 * card shows the next charge Mis Compras shows.
 */
let server: TestServer;
let serverUrl: string;
let dataDir: string;
let desk: DeskService;

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function openDesk(): Promise<DeskService> {
  const d = new DeskService({ dataDir, serverUrl }, syncDeps);
  await d.start();
  return d;
}

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-studio-time-'));
  desk = await openDesk();
  await desk.signIn('recepcion@estudio.demo', 'Demo1234!');
  await until('first sync', () => desk.status().ready && desk.status().online);
}, 120_000);

afterAll(async () => {
  await desk?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the desk and the studio clock', () => {
  it("the customer card's next charge is the one Mis Compras shows", async () => {
    const member = await login(server.app, 'ilimitado@estudio.demo');
    const mine = await call(server.app, 'GET', '/api/purchases', { token: member.idToken });
    const online = (mine.body.purchases as { purchase_id: number; customer_id: number; title: string; next_charge_date: string | null }[]).find((p) => p.title === 'Online Mensual')!;
    expect(online.next_charge_date).not.toBeNull();
    const card = await desk.customerCard(online.customer_id);
    expect(card.purchases.find((p) => p.purchase_id === online.purchase_id)?.next_charge_date).toBe(online.next_charge_date);
    // A package that does not renew has none.
    expect(card.purchases.filter((p) => p.title !== 'Online Mensual' && p.title !== 'Ilimitado Mensual').every((p) => p.next_charge_date === null)).toBe(true);
  });

  it("follows the studio's timezone_offset once it has the settings: its day is the offset's day", async () => {
    expect(await desk.timeZone()).toBe('America/Mexico_City');
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    // UTC+14: twenty hours ahead of Mexico City, so most hours of the day it is already tomorrow there.
    expect((await call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'timezone_offset', value: '-14' }] } })).status).toBe(200);
    // The desk copies the settings when it starts (and every few minutes while working).
    await desk.close();
    desk = await openDesk();
    await until('settings copied', async () => (await desk.timeZone()) === 'Etc/GMT-14');
    await until('sync after restart', () => desk.status().ready);
    expect((await desk.today()).date).toBe(localDate(new Date(), 'Etc/GMT-14'));
  });
});
