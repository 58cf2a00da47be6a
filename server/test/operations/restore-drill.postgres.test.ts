import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@estudio/db';
import { class_reservation } from '@estudio/db/schema/reservations';
import { available_classes } from '@estudio/db/schema/purchases';
import { createHttpServerLink } from '@estudio/sync/client/http-link';
import { openReplica, type ClientReplica } from '@estudio/sync/client/replica';
import { createSyncClient } from '@estudio/sync/client/sync-client';
import type { SyncClient } from '@estudio/sync/client/types';
import { startClockedPostgres } from '../../../scripts/test-clock.mjs';
import { allTableRows, eventually, flakyLink, type FlakyLink } from '../../../sync/test/fixtures.ts';
import { createFaultDatabase, invariantViolations, startServerProcess, type FaultDatabase } from '../support/fault-helpers.ts';
import { fakePortalDist, testSecret } from '../support/helpers.ts';
import { createBookers, newClass, type Booker } from '../support/reservations-fixtures.ts';
import { minutesAheadToday } from '../support/sync-helpers.ts';
import { buildServerBundle, createEmptyDatabase, runCli, type ServerBundle } from './built-server.ts';

/**
 * The restore drill (decisions 077, 078), with the built server and the
 * operator's commands on PostgreSQL: a studio with activity and a desk that
 * syncs with it is backed up (`cli.mjs backup`); the studio goes on (a new
 * booking reaches the desk), the desk goes offline and checks two people
 * in; the server's database is lost and restored from the backup into a new
 * database (`cli.mjs restore`), on the same PostgreSQL server and on a new
 * one (whose transaction ids start over). Then bench/invariants.sql is
 * clean, and the desk notices the history went back: it takes a fresh
 * snapshot instead of diverging, sends again the check-in whose reservation
 * the backup has, and shows staff the one whose reservation the backup does
 * not have. It ends equal to the restored server, and new writes reach it.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const port = 4117;
const base = `http://127.0.0.1:${port}`;

describe.skipIf(!adminUrl)('the restore drill (PostgreSQL, built server, a desk)', () => {
  let bundle: ServerBundle;
  let portalDist = '';
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeAll(() => {
    bundle = buildServerBundle();
    portalDist = fakePortalDist();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(() => {
    bundle?.remove();
    rmSync(portalDist, { recursive: true, force: true });
  });

  async function startServer(databaseUrl: string): Promise<ChildProcess> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ops-drill-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const child = await startServerProcess({ databaseUrl, port, dataDir, portalDist, entry: [bundle.main], env: { NODE_ENV: 'production', MESSAGES_WORKER: 'off' } });
    cleanups.push(() => stop(child));
    return child;
  }

  async function stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async function book(booker: Booker, single_class_id: number): Promise<number> {
    const res = await fetch(`${base}/api/class_reservations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${booker.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ single_class_id }),
    });
    const body = (await res.json()) as { class_reservation?: { class_reservation_id: number } };
    if (res.status !== 200 || !body.class_reservation) throw new Error(`booking: ${res.status} ${JSON.stringify(body)}`);
    return body.class_reservation.class_reservation_id;
  }

  async function openDesk(): Promise<{ replica: ClientReplica; client: SyncClient; link: FlakyLink }> {
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'recepcion@estudio.demo', password: 'Demo1234!' }),
    });
    const { idToken } = (await login.json()) as { idToken: string };
    const replica = await openReplica({ dataDir: 'memory://' });
    const link = flakyLink(createHttpServerLink({ url: `${base}/trpc`, getToken: () => idToken }));
    const client = createSyncClient({ replica, link, clientId: crypto.randomUUID(), backoff: { initialMs: 50, maxMs: 500 }, probeMs: 200 });
    await client.start();
    cleanups.push(async () => {
      await client.stop();
      await replica.close();
    });
    return { replica, client, link };
  }

  /** A booking made at the counter before class (the class has started: the portal no longer books it), its credit spent. */
  async function reserveAtCounter(db: DbHandle, booker: Booker, single_class_id: number): Promise<number> {
    return db.db.transaction(async (tx) => {
      await tx
        .update(available_classes)
        .set({ available_classes: sql`${available_classes.available_classes} - 1` })
        .where(eq(available_classes.available_class_id, booker.available_class_id));
      const [row] = await tx
        .insert(class_reservation)
        .values({ single_class_id, customer_id: booker.customer_id, available_class_id: booker.available_class_id })
        .returning({ id: class_reservation.class_reservation_id });
      if (!row) throw new Error('no reservation');
      return row.id;
    });
  }

  const inReplica = async (replica: ClientReplica, id: number) => (await replica.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id))).length === 1;

  /** Where the backup is restored: a new database on the same PostgreSQL server, or on a new PostgreSQL server. */
  async function newDatabase(where: 'same-server' | 'new-server'): Promise<string> {
    if (where === 'same-server') {
      const database = await createEmptyDatabase(adminUrl as string, 'rst');
      cleanups.push(() => database.drop());
      return database.url;
    }
    const cluster = await startClockedPostgres();
    cleanups.push(() => cluster.stop());
    const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
    await admin.unsafe('create database estudio');
    await admin.end({ timeout: 5 });
    const url = new URL(cluster.url);
    url.pathname = '/estudio';
    return url.toString();
  }

  it.each([
    { where: 'same-server' as const, what: 'a new database on the same PostgreSQL server' },
    { where: 'new-server' as const, what: 'a new PostgreSQL server, whose transaction ids start over' },
  ])('restored into $what: invariants clean, the desk starts over from a snapshot and keeps its check-ins', async ({ where }) => {
    const studio: FaultDatabase = await createFaultDatabase(adminUrl as string);
    cleanups.push(() => studio.drop());
    const setup: DbHandle = await createDb(studio.url, { max: 2 });
    cleanups.push(() => setup.close());
    const [ana, beto] = (await createBookers(setup.db, testSecret, 2, { prefix: `drill-${where}`, credits: 3 })) as [Booker, Booker];
    // A class of today whose check-in is open (started a few minutes ago).
    const now = await newClass(setup.db, { minutesAhead: minutesAheadToday(), capacity: 20, classType: 'Yoga' });
    const later = await newClass(setup.db, { minutesAhead: 3 * 24 * 60, capacity: 20, classType: 'Yoga' });

    // The studio at work, and its desk in step with it.
    const old = await startServer(studio.url);
    const before = await reserveAtCounter(setup, ana, now);
    const desk = await openDesk();
    await eventually(() => inReplica(desk.replica, before), 20_000, "Ana's booking at the desk");

    const backups = mkdtempSync(path.join(tmpdir(), 'ops-backups-'));
    cleanups.push(() => rmSync(backups, { recursive: true, force: true }));
    const made = await runCli(bundle.cli, ['backup', '--dir', backups], { NODE_ENV: 'production', DATABASE_URL: studio.url, AUTH_SECRET: testSecret, LOG_LEVEL: 'error' });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const dump = readdirSync(backups).find((name) => name.endsWith('.dump'));
    expect(dump).toBeDefined();

    // After the backup: Beto books, the desk sees it, then loses the network and checks both in.
    const after = await reserveAtCounter(setup, beto, now);
    await eventually(() => inReplica(desk.replica, after), 20_000, "Beto's booking at the desk");
    desk.link.cut();
    await desk.client.syncNow();
    await desk.client.mutate('checkIn', { class_reservation_id: before });
    await desk.client.mutate('checkIn', { class_reservation_id: after });
    expect(desk.client.status().pending).toBe(2);

    // The server's database is lost; the backup goes into a new one and the server starts on it.
    await stop(old);
    const restoredUrl = await newDatabase(where);
    const restored = await runCli(bundle.cli, ['restore', path.join(backups, dump as string)], { NODE_ENV: 'production', DATABASE_URL: restoredUrl, AUTH_SECRET: testSecret });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    // Restoring over a studio's data is refused.
    const again = await runCli(bundle.cli, ['restore', path.join(backups, dump as string)], { NODE_ENV: 'production', DATABASE_URL: restoredUrl, AUTH_SECRET: testSecret });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('ya tiene tablas');

    await startServer(restoredUrl);
    const check = postgres(restoredUrl, { max: 1, onnotice: () => {} });
    cleanups.push(() => check.end({ timeout: 5 }));
    expect(await invariantViolations(check)).toEqual([]);
    if (where === 'new-server') {
      // The restored history was put before this server's own transactions.
      const [moved] = await check<{ n: number }[]>`select count(*)::int as n from sync_change where txid = 1`;
      expect(moved?.n).toBeGreaterThan(0);
    }

    // The desk comes back: a fresh snapshot, Ana's check-in sent again, Beto's shown to staff.
    desk.link.restore();
    await eventually(() => desk.client.status().ready && desk.client.status().pending === 0 && desk.client.status().rejections.length === 1, 30_000, 'the desk after the restore');
    const [rejection] = desk.client.status().rejections;
    expect(rejection).toMatchObject({ name: 'checkIn', code: 'sync/restored-changed' });
    expect(rejection?.subject?.customer?.id).toBe(beto.customer_id);
    const restoredDb = await createDb(restoredUrl, { max: 2 });
    cleanups.push(() => restoredDb.close());
    const [ana1] = await restoredDb.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, before));
    expect(ana1?.attend).toBe(true);
    expect(await restoredDb.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, after))).toEqual([]);
    await desk.client.syncNow();
    expect(await allTableRows(desk.replica.db)).toEqual(await allTableRows(restoredDb.db));

    // The studio goes on: a new booking on the restored server reaches the desk.
    const next = await book(ana, later);
    await eventually(() => inReplica(desk.replica, next), 20_000, 'a booking made after the restore');
    expect(await invariantViolations(check)).toEqual([]);
  }, 300_000);
});
