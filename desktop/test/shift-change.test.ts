import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { class_reservation, customer, single_class } from '@estudio/db';
import { startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { DeskService } from '../src/service/desk-service.ts';
import { syncDeps } from '../src/service/sync-deps.ts';
import { checkInStart } from './check-in-time.ts';
import { defaultStudioTimeZone } from '@estudio/core';
import { studioDay } from '../src/service/time.ts';

/**
 * Items 4 and 5: a shift change while the internet is down. The desk
 * talks to the real server through a loopback TCP relay this test switches
 * off (connections refused, open ones cut) and on again, so the same desk
 * goes offline and comes back without a restart.
 */
let server: TestServer;
let relay: Relay;
let dataDir: string;
let desk: DeskService;
let skewMs = 0;
const PASSWORD = 'Demo1234!';

interface Relay {
  url: string;
  set(up: boolean): void;
  close(): Promise<void>;
}

async function startRelay(target: number): Promise<Relay> {
  let up = true;
  const sockets = new Set<net.Socket>();
  const relayServer = net.createServer((socket) => {
    if (!up) return socket.destroy();
    const upstream = net.connect(target, '127.0.0.1');
    sockets.add(socket).add(upstream);
    const drop = () => {
      socket.destroy();
      upstream.destroy();
      sockets.delete(socket);
      sockets.delete(upstream);
    };
    socket.on('error', drop).on('close', drop).pipe(upstream);
    upstream.on('error', drop).on('close', drop).pipe(socket);
  });
  await new Promise<void>((resolve) => relayServer.listen(0, '127.0.0.1', resolve));
  const address = relayServer.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    set(next) {
      up = next;
      if (!up) for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        relayServer.close(() => resolve());
      }),
  };
}

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const openDesk = async () => {
  const d = new DeskService({ dataDir, serverUrl: relay.url }, syncDeps, { now: () => new Date(Date.now() + skewMs) });
  await d.start();
  return d;
};

/**
 * A class of today with several customers booked and not yet checked in, moved on the server to have started 10
 * minutes ago, so it can be checked in now. (The seed checks in the classes that have already begun: after 7 a.m. in
 * the studio, today's first class has no one left to arrive.)
 */
let classNow = 0;
let classNowStart = new Date(0);
async function moveAClassToNow() {
  const day = studioDay(new Date(), defaultStudioTimeZone);
  const rows = await server.db
    .select({ id: single_class.single_class_id, n: sql<number>`count(*)::int` })
    .from(single_class)
    .innerJoin(
      class_reservation,
      and(eq(class_reservation.single_class_id, single_class.single_class_id), isNull(class_reservation.deletedAt), eq(class_reservation.attend, false)),
    )
    .where(and(isNull(single_class.cancelledAt), sql`${single_class.class_date} >= ${day.start.toISOString()}::timestamptz`))
    .groupBy(single_class.single_class_id)
    .having(sql`count(*) >= 3`)
    .orderBy(single_class.class_date)
    .limit(1);
  classNow = rows[0]?.id ?? 0;
  expect(classNow, 'the demo seed has classes with reservations').toBeGreaterThan(0);
  classNowStart = checkInStart(-10);
  await server.db.update(single_class).set({ class_date: classNowStart }).where(eq(single_class.single_class_id, classNow));
}

/**
 * Whether the desk's replica has the class at its moved start. Its roster alone is no sign: the class was already
 * today, so its customers show before the move arrives, and a desk that goes offline first refuses them as too late.
 */
async function replicaHasClassNow(d: DeskService) {
  const classes = (await d.today()).locations.flatMap((l) => l.classes);
  return classes.some((c) => c.single_class_id === classNow && new Date(c.class_date).getTime() === classNowStart.getTime());
}

/** Reservations of that class still to arrive, from the desk's replica. */
async function waitingToday(d: DeskService) {
  return (await d.today()).locations
    .flatMap((l) => l.classes.filter((c) => c.single_class_id === classNow).flatMap((c) => c.roster))
    .filter((r) => !r.attend);
}

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  relay = await startRelay(typeof address === 'object' && address ? address.port : 0);
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-shift-'));
  desk = await openDesk();
});

afterAll(async () => {
  await desk?.close();
  await relay?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('offline shift change', () => {
  it('keeps a verifier per account that signed in online, never the password', async () => {
    await desk.signIn('admin@estudio.demo', PASSWORD);
    await desk.signIn('recepcion@estudio.demo', PASSWORD);
    await until('first sync', () => desk.status().ready && desk.status().online);
    await moveAClassToNow();
    await until('class moved in the replica', () => replicaHasClassNow(desk));
    expect((await waitingToday(desk)).length).toBeGreaterThanOrEqual(3);
    const rows = (await desk.db.execute(sql`select key, value from desk.meta where key like 'desk.local_account.%' order by key`)) as unknown as {
      rows: { key: string; value: string }[];
    };
    expect(rows.rows.map((r) => r.key)).toEqual(['desk.local_account.admin@estudio.demo', 'desk.local_account.recepcion@estudio.demo']);
    for (const row of rows.rows) {
      expect(row.value).not.toContain(PASSWORD);
      const stored = JSON.parse(row.value) as { password: { salt: string; hash: string; N: number } };
      expect(stored.password.N).toBeGreaterThanOrEqual(2 ** 15);
      expect(Buffer.from(stored.password.salt, 'base64')).toHaveLength(16);
    }
    const salts = rows.rows.map((r) => (JSON.parse(r.value) as { password: { salt: string } }).password.salt);
    expect(new Set(salts).size).toBe(2);
  });

  it('with the server down, signs in staff who used this desk before, and no one else', async () => {
    await desk.signOut();
    relay.set(false);
    await expect(desk.signIn('ilimitado@estudio.demo', PASSWORD)).rejects.toMatchObject({ code: 'desk/offline-unknown-account' });
    await expect(desk.signIn('recepcion@estudio.demo', 'Mala1234!')).rejects.toMatchObject({
      code: 'desk/offline-wrong-password',
      message: 'La contraseña no coincide con la última que usaste en esta recepción.',
    });
    const user = await desk.signIn('recepcion@estudio.demo', PASSWORD);
    expect(user).toMatchObject({ email: 'recepcion@estudio.demo', role: 'staff' });
    expect(desk.status().online).toBe(false);
    expect((await waitingToday(desk)).length).toBeGreaterThan(0);
  });

  it('locks: every call is refused until unlocked by password or PIN, with a limit on guesses', async () => {
    await expect(desk.setPin('Mala1234!', '2468')).rejects.toMatchObject({ code: 'desk/offline-wrong-password' });
    await desk.setPin(PASSWORD, '2468');
    await desk.lock();
    expect((await desk.lockState()).locked).toBe(true);
    await expect(desk.today()).rejects.toMatchObject({ code: 'desk/locked', message: 'La recepción está bloqueada. Desbloquéala con tu PIN o tu contraseña.' });
    await expect(desk.searchCustomers('mariana')).rejects.toMatchObject({ code: 'desk/locked' });
    await expect(desk.scan('1')).rejects.toMatchObject({ code: 'desk/locked' });
    await expect(desk.callServer('query', 'customer.me', undefined)).rejects.toMatchObject({ code: 'desk/locked' });
    await expect(desk.signOut()).rejects.toMatchObject({ code: 'desk/locked' });

    // A restart stays locked.
    await desk.close();
    desk = await openDesk();
    expect((await desk.lockState()).locked).toBe(true);
    await expect(desk.today()).rejects.toMatchObject({ code: 'desk/locked' });

    await desk.unlock({ password: PASSWORD });
    expect((await desk.today()).locations.length).toBeGreaterThan(0);
    await desk.lock();
    for (let i = 0; i < 5; i++) await expect(desk.unlock({ pin: '1111' })).rejects.toMatchObject({ code: 'desk/wrong-pin' });
    // The fifth wrong guess makes the next one wait, the right PIN included.
    await expect(desk.unlock({ pin: '2468' })).rejects.toMatchObject({ code: 'desk/too-many-guesses' });
    await expect(desk.unlock({ password: PASSWORD })).rejects.toMatchObject({ code: 'desk/too-many-guesses' });
    skewMs += 61_000;
    await desk.unlock({ pin: '2468' });
    await expect(desk.today()).resolves.toBeTruthy();
    // A check-in of this shift, still offline: it waits in this account's outbox.
    const [first] = await waitingToday(desk);
    expect(await desk.checkIn(first?.class_reservation_id ?? 0)).toMatchObject({ checkedIn: true });
    expect(desk.status().pending).toBe(1);
  });

  it('switches to another staff member from the lock screen, offline; their change waits and goes out once they type the password online', async () => {
    await desk.lock();
    const admin = await desk.signIn('admin@estudio.demo', PASSWORD);
    expect(admin.role).toBe('admin');
    expect((await desk.lockState()).locked).toBe(false);
    // The previous shift's change is not this account's to send: the screen says whose it is and that it waits.
    const [recepcion] = await server.db.select({ name: customer.name, last_name: customer.last_name }).from(customer).where(eq(customer.email, 'recepcion@estudio.demo'));
    expect((await desk.lockState()).waitingForOthers).toEqual([{ name: `${recepcion?.name} ${recepcion?.last_name}`, pending: 1 }]);
    expect(desk.status().pending).toBe(0);
    const [first] = await waitingToday(desk);
    expect(first, 'the demo seed has someone still to arrive today').toBeDefined();
    const id = first?.class_reservation_id ?? 0;
    expect(await desk.checkIn(id)).toMatchObject({ checkedIn: true });
    expect(desk.status()).toMatchObject({ online: false, pending: 1 });

    relay.set(true);
    // The server answers, but this session has no tokens it takes: the desk asks for the password, the change waits.
    await until('password asked', async () => (await desk.lockState()).passwordNeeded);
    expect(desk.status().pending).toBe(1);
    await desk.signIn('admin@estudio.demo', PASSWORD);
    await until('sent', () => desk.status().online && desk.status().pending === 0);
    expect((await desk.lockState()).passwordNeeded).toBe(false);
    const [row] = await server.db.select({ attend: class_reservation.attend }).from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
    expect(row?.attend).toBe(true);
  });

});

describe('rejected offline changes', () => {
  it('names the customer, the phone, the class and what was tried, and keeps it until acknowledged, across a restart', async () => {
    await until('online', () => desk.status().online);
    const [first] = await waitingToday(desk);
    const id = first?.class_reservation_id ?? 0;
    const [who] = await server.db
      .select({ name: customer.name, last_name: customer.last_name, phone: customer.phone, class_date: single_class.class_date })
      .from(class_reservation)
      .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(eq(class_reservation.class_reservation_id, id));
    relay.set(false);
    await until('offline', () => !desk.status().online);
    expect(await desk.checkIn(id)).toMatchObject({ checkedIn: true });
    // Meanwhile the reservation is cancelled on the server (the customer cancelled from the portal).
    await server.db.update(class_reservation).set({ deletedAt: new Date() }).where(and(eq(class_reservation.class_reservation_id, id), isNull(class_reservation.deletedAt)));
    relay.set(true);
    await until('rejected', () => desk.status().rejections.length === 1 && desk.status().pending === 0);
    const [rejection] = desk.status().rejections;
    expect(rejection).toMatchObject({
      name: 'checkIn',
      subject: {
        customer: { name: `${who?.name} ${who?.last_name}`, phone: who?.phone },
        class: { start: who?.class_date.toISOString() },
      },
    });
    expect(rejection?.subject?.class?.name).toBeTruthy();
    expect(rejection?.message).toBeTruthy();

    await desk.close();
    desk = await openDesk();
    expect(desk.status().rejections.map((r) => r.mutationId)).toEqual([rejection?.mutationId]);
    expect(desk.status().rejections[0]?.subject?.customer?.name).toBe(`${who?.name} ${who?.last_name}`);
    await desk.lock();
    expect(desk.status().rejections).toEqual([]);
    await desk.unlock({ password: PASSWORD });
    await desk.dismissRejection(rejection?.mutationId ?? 0);
    expect(desk.status().rejections).toEqual([]);
  });
});

describe('a password changed on the server', () => {
  it('forgets the verifier when the server refuses the password the desk knows, not for a typo', async () => {
    await expect(desk.signIn('recepcion@estudio.demo', 'Otra1234!')).rejects.toMatchObject({ code: 'auth/wrong-password' });
    relay.set(false);
    await desk.signIn('recepcion@estudio.demo', PASSWORD);
    relay.set(true);
    // The password changes on the server (another admin reset it): the old one is refused online, then offline too.
    const { hashPassword } = await import('@estudio/db/password');
    const { auth_user } = await import('@estudio/db');
    await server.db.update(auth_user).set({ password_hash: await hashPassword('Nueva1234!') }).where(eq(auth_user.email, 'recepcion@estudio.demo'));
    await expect(desk.signIn('recepcion@estudio.demo', PASSWORD)).rejects.toMatchObject({ code: 'auth/wrong-password' });
    relay.set(false);
    await expect(desk.signIn('recepcion@estudio.demo', PASSWORD)).rejects.toMatchObject({ code: 'desk/offline-unknown-account' });
    relay.set(true);
  });
});

describe('a role taken away on the server', () => {
  it('stops offline sign-in for that account at the next online contact, and asks for the password', async () => {
    relay.set(true);
    await desk.signIn('admin@estudio.demo', PASSWORD);
    await until('online', () => desk.status().online);
    await server.db.update(customer).set({ role: 'customer' }).where(eq(customer.email, 'admin@estudio.demo'));
    // The change pokes the desk; its next pull is refused (forbidden).
    await until('refused', async () => (await desk.lockState()).passwordNeeded);
    // Forgotten already from the refused sync call, before any sign-in is tried.
    relay.set(false);
    await expect(desk.signIn('admin@estudio.demo', PASSWORD)).rejects.toMatchObject({ code: 'desk/offline-unknown-account' });
    relay.set(true);
    await expect(desk.signIn('admin@estudio.demo', PASSWORD)).rejects.toMatchObject({ code: 'desk/staff-only' });
  });
});
