import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { class_reservation, customer } from '@estudio/db';
import { login, startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { DeskService } from '../src/service/desk-service.ts';
import { syncDeps } from '../src/service/sync-deps.ts';
import { findReservation } from '../src/service/queries/scan.ts';

/** One of the customer's reservations, as the scan verdict reads it. */
async function verdictOf(customerId: number) {
  const [booked] = await desk.db.select({ id: class_reservation.class_reservation_id }).from(class_reservation).where(eq(class_reservation.customer_id, customerId)).limit(1);
  if (!booked) throw new Error(`no reservation of customer ${customerId}`);
  return findReservation(desk.db, booked.id);
}

/**
 * The scan verdict and the customer card show the customer's photo
 * when there is one. The desk service against the real server over HTTP: the
 * customer uploads a photo on the portal's route and makes it their profile
 * picture; the desk fetches it once and still shows it with the server away.
 */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let server: TestServer | null = null;
let serverUrl: string;
let desk: DeskService;
const dirs: string[] = [];

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** As the portal does: upload the image, then make it the profile picture. Answers the customer's id. */
async function setProfilePhoto(email: string): Promise<number> {
  const token = (await login(server!.app, email)).idToken;
  const form = new FormData();
  form.append('kind', 'image');
  form.append('file', new Blob([png], { type: 'image/png' }), 'foto.png');
  const uploaded = await fetch(`${serverUrl}/api/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  expect(uploaded.status).toBe(200);
  const { file_id } = (await uploaded.json()) as { file_id: number };
  const saved = await fetch(`${serverUrl}/api/customer`, {
    method: 'PUT',
    body: JSON.stringify({ file_id }),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  expect(saved.status).toBe(200);
  const { customer: me } = (await saved.json()) as { customer: { customer_id: number } };
  await until('the photo reaches the replica', async () => {
    const [row] = await desk.db.select({ file_id: customer.file_id }).from(customer).where(eq(customer.customer_id, me.customer_id));
    return row?.file_id === file_id;
  });
  return me.customer_id;
}

beforeAll(async () => {
  const filesDir = mkdtempSync(path.join(tmpdir(), 'desk-photo-files-'));
  dirs.push(filesDir);
  server = await startTestServer({ FILES_DIR: filesDir });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-photo-'));
  dirs.push(dataDir);
  desk = new DeskService({ dataDir, serverUrl }, syncDeps);
  await desk.start();
  await desk.signIn('recepcion@estudio.demo', 'Demo1234!');
  await until('first sync', () => desk.status().ready && desk.status().online);
  // A server and a desk started and synced from nothing: over a minute on a loaded machine.
}, 150_000);

afterAll(async () => {
  await desk?.close();
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('customer photo at the desk', () => {
  it('none: null, so the initials show', async () => {
    const [someone] = await desk.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'recepcion@estudio.demo'));
    expect(await desk.customerPhoto(someone?.id ?? 0)).toBeNull();
    // The verdict says so itself: the screen asks for no photo (and the next scan waits behind no such request).
    const [withoutPhoto] = await desk.db
      .select({ id: customer.customer_id })
      .from(customer)
      .innerJoin(class_reservation, eq(class_reservation.customer_id, customer.customer_id))
      .where(and(isNull(customer.file_id), eq(customer.email, 'cliente@estudio.demo')));
    expect((await verdictOf(withoutPhoto!.id))?.hasPhoto).toBe(false);
  });

  it('the profile picture as an image the screen can show, still there with the server away', async () => {
    const cliente = await setProfilePhoto('cliente@estudio.demo');
    const nuevo = await setProfilePhoto('nuevo@estudio.demo');
    const photo = await desk.customerPhoto(cliente);
    expect(photo).toBe(`data:image/png;base64,${png.toString('base64')}`);
    expect((await verdictOf(cliente))?.hasPhoto).toBe(true);

    await server?.close();
    server = null;
    // Seen once: kept by the desk. Never seen (nuevo@'s): the initials, until the server is back.
    expect(await desk.customerPhoto(cliente)).toBe(photo);
    expect(await desk.customerPhoto(nuevo)).toBeNull();
  });
});
