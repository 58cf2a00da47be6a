import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInStart } from './check-in-time.ts';
import { defaultStudioTimeZone, localDate } from '@estudio/core';
import { app_config, class_reservation, customer, single_class } from '@estudio/db';
import { startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { newClass } from '../../server/test/support/reservations-fixtures.ts';
import { DeskService } from '../src/service/desk-service.ts';
import { syncDeps } from '../src/service/sync-deps.ts';

/**
 *, "a green screen must mean let them in": the desk service against
 * the real server over HTTP, its replica filled by sync. Each case was a
 * defect: a used code showed green, another site's link, a typed folio and a
 * check-in 7 hours after class were all accepted.
 */
let server: TestServer;
let serverUrl: string;
let desk: DeskService;
const dirs: string[] = [];
const hour = 3_600_000;

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function openDesk(): Promise<DeskService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-scan-'));
  dirs.push(dataDir);
  const d = new DeskService({ dataDir, serverUrl }, syncDeps);
  await d.start();
  await d.signIn('recepcion@estudio.demo', 'Demo1234!');
  await until('first sync', () => d.status().ready && d.status().online);
  return d;
}

/** A reservation of cliente@ in a class starting at `start`, synced to the desk; its id and access code. */
async function booking(start: Date, d: DeskService = desk): Promise<{ id: number; code: string }> {
  const classId = await newClass(server.db, { minutesAhead: 60, capacity: 20 });
  await server.db.update(single_class).set({ class_date: start, duration_minutes: 50 }).where(eq(single_class.single_class_id, classId));
  const [who] = await server.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  const [row] = await server.db
    .insert(class_reservation)
    .values({ single_class_id: classId, customer_id: who?.id ?? 0 })
    .returning({ id: class_reservation.class_reservation_id, code: class_reservation.access_code });
  if (!row) throw new Error('reservation');
  await until('the reservation reaches the replica', async () => (await d.db.$count(class_reservation, eq(class_reservation.class_reservation_id, row.id))) === 1);
  return row;
}

/** A class start `gapMs` before now on today's studio calendar (earlier days when today is too young). */
function startBefore(gapMs: number): Date | null {
  const start = new Date(Date.now() - gapMs);
  return localDate(start, defaultStudioTimeZone) === localDate(new Date(), defaultStudioTimeZone) ? start : null;
}

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  desk = await openDesk();
}, 60_000);

afterAll(async () => {
  await desk?.close();
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('scan outcome', () => {
  it('green once, then amber with the time of the first check-in (studio time), never green again', async () => {
    const { id, code } = await booking(checkInStart(10));
    const first = await desk.scan(`${serverUrl}/admin/reservaciones/${id}/${code}`);
    expect(first).toMatchObject({ outcome: 'admitted', checkedIn: true });
    const again = await desk.scan(`${serverUrl}/admin/reservaciones/${id}/${code}`);
    expect(again).toMatchObject({ outcome: 'already', checkedIn: false });
    const time = new Intl.DateTimeFormat('es-MX', { timeZone: 'America/Mexico_City', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(first.at));
    expect(again.reservation.attendedAt).toBe(first.at);
    expect(again.notices.map((n) => n.text)).toContain(`Ya entró: su asistencia se registró a las ${time}.`);
    await until('sent', () => desk.status().pending === 0);
    const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
    expect(row?.attendedAt?.toISOString()).toBe(first.at);
  });

  it("refuses another site's link, the old sequential link and a typed folio, even of a real reservation of today", async () => {
    const { id, code } = await booking(checkInStart(10));
    await expect(desk.scan('https://otro-estudio.mx/admin/reservaciones/177')).rejects.toMatchObject({ code: 'desk/code-outdated' });
    await expect(desk.scan(`https://otro-estudio.mx/admin/reservaciones/${id}/ABCDE12345`)).rejects.toMatchObject({
      code: 'desk/code-unknown',
      message: 'Código no reconocido: no corresponde a ninguna reservación de este estudio.',
    });
    await expect(desk.scan(`${serverUrl}/admin/reservaciones/${id}`)).rejects.toMatchObject({ code: 'desk/code-outdated' });
    await expect(desk.scan(String(id))).rejects.toMatchObject({ code: 'desk/code-outdated' });
    await expect(desk.scan(`#${id}`)).rejects.toMatchObject({ code: 'desk/code-outdated' });
    // Our code under another reservation's id: someone edited the link.
    await expect(desk.scan(`${serverUrl}/admin/reservaciones/${id + 1}/${code}`)).rejects.toMatchObject({ code: 'desk/code-unknown' });
    expect(desk.status().pending).toBe(0);
    const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
    expect(row?.attend).toBe(false);
    // The code typed by hand, as staff read it out: lower case, a space, O for 0.
    const typed = `${code.slice(0, 5)} ${code.slice(5)}`.toLowerCase().replace(/0/g, 'o');
    expect(await desk.scan(typed)).toMatchObject({ outcome: 'admitted' });
  });

  it('refuses a check-in 7 hours after the class, sends nothing, and the server would refuse it too', async () => {
    const start = startBefore(7 * hour);
    if (!start) return; // before 07:00 in Mexico City a class 7 hours ago was yesterday (the wrong-day case covers it)
    const { code } = await booking(start);
    await until('earlier check-ins sent', () => desk.status().pending === 0);
    const late = await desk.scan(code);
    expect(late).toMatchObject({ outcome: 'refused', checkedIn: false, warnings: ['too-late'] });
    expect(late.notices[0]).toMatchObject({ code: 'too-late', blocks: true });
    expect(desk.status().pending).toBe(0);
  });

  it('takes the window from the server: a studio that closes check-in 8 hours after class admits the same late arrival', async () => {
    const start = startBefore(7 * hour);
    if (!start) return;
    await server.db.insert(app_config).values({ key: 'check_in_closes_minutes', value: '480' }).onConflictDoUpdate({ target: app_config.key, set: { value: '480' } });
    const other = await openDesk();
    try {
      const { id, code } = await booking(start, other);
      await until('settings copied', async () => (await other.db.select().from(app_config).where(eq(app_config.key, 'check_in_closes_minutes')))[0]?.value === '480');
      expect(await other.scan(code)).toMatchObject({ outcome: 'admitted' });
      await until('sent', () => other.status().pending === 0);
      const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
      expect(row?.attend).toBe(true);
    } finally {
      await server.db.delete(app_config).where(eq(app_config.key, 'check_in_closes_minutes'));
      await other.close();
    }
    // A second desk is opened and synced from nothing: 20 s alone, over the default 30 s beside the rest of the suite.
  }, 90_000);

  it("last week's used code is red (another day), not green or amber", async () => {
    const { id, code } = await booking(new Date(Date.now() - 7 * 24 * hour));
    await server.db.update(class_reservation).set({ attend: true, attendedAt: new Date(Date.now() - 7 * 24 * hour) }).where(eq(class_reservation.class_reservation_id, id));
    await until('the check-in reaches the replica', async () => (await desk.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id)))[0]?.attend === true);
    const old = await desk.scan(code);
    expect(old).toMatchObject({ outcome: 'refused', checkedIn: false });
    expect(old.warnings).toContain('wrong-day');
  });
});
