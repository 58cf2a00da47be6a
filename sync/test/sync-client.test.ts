import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { class_reservation, customer, single_class, sync_mutation } from '@estudio/db';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { applyDeskMutation } from '@estudio/server/services/desk/apply-desk-mutation';
import { createReservation } from '@estudio/server/services/reservations/create-reservation';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultStudioTimeZone, localDate } from '@estudio/core';
import { createDirectServerLink } from '../src/client/direct-link.ts';
import { openReplica, query, type ClientReplica } from '../src/client/replica.ts';
import { createSyncClient, type SyncClientOptions } from '../src/client/sync-client.ts';
import type { SyncClient } from '../src/client/types.ts';
import { createChangeFeed, type ChangeFeed } from '../src/server/index.ts';
import { allTableRows, eventually, flakyLink, staffOf, tempDir, type FlakyLink } from './fixtures.ts';

/**
 * The sync client against the real server half on a seeded database: first
 * syncs, a check-in reaching the server, offline work, a restart with unsent
 * mutations, a rejection rolled back, and a replaced server database.
 */
let server: TestDb;
let feed: ChangeFeed;
let staff: { customer_id: number };

beforeAll(async () => {
  server = await createTestDb();
  feed = await createChangeFeed(server);
  staff = await staffOf(server.db);
});
afterAll(async () => {
  await feed?.close();
  await server?.close();
});

const quickBackoff = { initialMs: 20, maxMs: 200 };

function serverLink(): FlakyLink {
  return flakyLink(createDirectServerLink({ db: server.db, staff, apply: applyDeskMutation, feed }));
}

interface Desk {
  replica: ClientReplica;
  client: SyncClient;
  link: FlakyLink;
  close(): Promise<void>;
}

async function openDesk(options: { dataDir?: string; link?: FlakyLink; clientId?: string } & Partial<SyncClientOptions> = {}): Promise<Desk> {
  const replica = await openReplica({ dataDir: options.dataDir ?? 'memory://' });
  const link = options.link ?? serverLink();
  const client = createSyncClient({
    replica,
    link,
    clientId: options.clientId ?? crypto.randomUUID(),
    backoff: quickBackoff,
    ...(options.firstSync ? { firstSync: options.firstSync } : {}),
  });
  return {
    replica,
    client,
    link,
    async close() {
      await client.stop();
      await replica.close();
    },
  };
}

/**
 * A live, unattended reservation of a class starting about now: inside the
 * check-in window (decision 016), whatever the hour the test runs at.
 */
async function todaysReservation(): Promise<{ class_reservation_id: number; customer_id: number; single_class_id: number }> {
  const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000);
  const sameDay = localDate(fiveMinutesAgo, defaultStudioTimeZone) === localDate(new Date(), defaultStudioTimeZone);
  const start = sameDay ? fiveMinutesAgo : new Date(Date.now() + 5 * 60_000);
  const [c] = await server.db.select().from(single_class).limit(1);
  const [who] = await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  if (!c || !who) throw new Error('the seed has no class or no cliente@');
  const [now] = await server.db
    .insert(single_class)
    .values({ class_date: start, capacity: 10, location_id: c.location_id, class_type_id: c.class_type_id })
    .returning();
  const [created] = await server.db
    .insert(class_reservation)
    .values({ single_class_id: now?.single_class_id ?? 0, customer_id: who.customer_id })
    .returning();
  if (!created) throw new Error('no reservation');
  return created;
}

async function expectConverged(replica: ClientReplica): Promise<void> {
  expect(await allTableRows(replica.db)).toEqual(await allTableRows(server.db));
}

describe('first sync', () => {
  it('from a snapshot, then from the log: both end equal to the server', async () => {
    const snapshot = await openDesk();
    const log = await openDesk({ firstSync: 'log' });
    try {
      await snapshot.client.start();
      await log.client.start();
      expect(snapshot.client.status()).toMatchObject({ ready: true, pending: 0, lastError: null });
      expect(snapshot.link.calls.snapshot).toBeGreaterThan(0);
      expect(log.link.calls.snapshot).toBe(0);
      await expectConverged(snapshot.replica);
      await expectConverged(log.replica);
    } finally {
      await snapshot.close();
      await log.close();
    }
  }, 90_000);
});

describe('a desk at work', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await openDesk();
    await desk.client.start();
  });
  afterAll(async () => {
    await desk?.close();
  });

  it('a check-in shows at once, reaches the server once, and leaves nothing pending', async () => {
    const r = await todaysReservation();
    await eventually(async () => (await desk.client.syncNow(), await desk.replica.db.$count(class_reservation, eq(class_reservation.class_reservation_id, r.class_reservation_id))) === 1, 10_000, 'the reservation to reach the desk');
    const events: string[][] = [];
    const off = desk.client.onChange((e) => events.push(e.tables));
    const { mutationId } = await desk.client.mutate('checkIn', { class_reservation_id: r.class_reservation_id });
    const [local] = await desk.replica.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
    expect(local?.attend).toBe(true);
    expect(events.some((tables) => tables.includes('class_reservation'))).toBe(true);
    await eventually(() => desk.client.status().pending === 0, 10_000, 'the check-in to be acknowledged');
    off();
    const [onServer] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
    expect(onServer?.attend).toBe(true);
    const audit = await server.db
      .select()
      .from(sync_mutation)
      .where(and(eq(sync_mutation.client_id, desk.client.clientId), eq(sync_mutation.mutation_id, mutationId)));
    expect(audit).toMatchObject([{ name: 'checkIn', status: 'applied', customer_id: staff.customer_id }]);
    await desk.client.syncNow();
    await expectConverged(desk.replica);
  });

  it('offline: the mutation applies locally and waits; the desk reconnects by itself and sends it', async () => {
    desk.link.cut();
    await eventually(() => !desk.client.status().online, 5_000, 'the desk to notice');
    const [cliente] = await desk.replica.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    if (!cliente) throw new Error('no cliente');
    const [open] = await query<{ single_class_id: number }>(
      desk.replica.db,
      sql`select c.single_class_id from single_class c where c.cancelled_at is null and c.class_package_id is null
          and c.class_date > now() + interval '2 hours'
          and c.capacity > (select count(*) + count(guest) from class_reservation r where r.single_class_id = c.single_class_id and r.deleted_at is null)
          and not exists (select 1 from class_reservation r where r.single_class_id = c.single_class_id and r.customer_id = ${cliente.customer_id} and r.deleted_at is null)
          order by c.class_date limit 1`,
    );
    if (!open) throw new Error('no open class');
    await desk.client.mutate('walkIn', { customer_id: cliente.customer_id, single_class_id: open.single_class_id, spot: null, guest: null });
    expect(desk.client.status()).toMatchObject({ online: false, pending: 1 });
    expect(desk.client.status().lastError).toMatch(/Sin conexión/);
    desk.link.restore();
    await eventually(() => desk.client.status().pending === 0 && desk.client.status().online, 10_000, 'the walk-in to be sent');
    const booked = await server.db
      .select()
      .from(class_reservation)
      .where(and(eq(class_reservation.customer_id, cliente.customer_id), eq(class_reservation.single_class_id, open.single_class_id), isNull(class_reservation.deletedAt)));
    expect(booked).toHaveLength(1);
    await desk.client.syncNow();
    await expectConverged(desk.replica);
  });

  it('a mutation the server refuses is rolled back at the desk, with the Spanish reason', async () => {
    // The desk sees a last place; meanwhile the portal books it.
    const [cliente] = await desk.replica.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    const [ilimitado] = await desk.replica.db.select().from(customer).where(eq(customer.email, 'ilimitado@estudio.demo'));
    if (!cliente || !ilimitado) throw new Error('demo customers missing');
    const [c] = await server.db
      .insert(single_class)
      .values({ class_date: new Date(Date.now() + 26 * 3600_000), capacity: 1, location_id: 1, class_type_id: 1 })
      .returning();
    if (!c) throw new Error('no class');
    await desk.client.syncNow();
    desk.link.cut();
    await createReservation(server.db, { customerId: ilimitado.customer_id, singleClassId: c.single_class_id });
    const before = await allTableRows(desk.replica.db);
    const { mutationId } = await desk.client.mutate('walkIn', { customer_id: cliente.customer_id, single_class_id: c.single_class_id, spot: null, guest: null });
    desk.link.restore();
    await eventually(() => desk.client.status().rejections.length > 0, 10_000, 'the rejection');
    expect(desk.client.status().rejections).toMatchObject([{ mutationId, name: 'walkIn', code: 'booking/class-full', message: 'Lo sentimos, esta clase ya está llena.' }]);
    // Named from the replica when the refusal arrived: whom to call and which class.
    expect(desk.client.status().rejections[0]?.subject).toEqual({
      customer: { id: cliente.customer_id, name: `${cliente.name} ${cliente.last_name}`, phone: cliente.phone || null },
      class: { id: c.single_class_id, name: expect.any(String), start: c.class_date.toISOString() },
      package: null,
      amount: null,
    });
    await desk.client.syncNow();
    const mine = await desk.replica.db
      .select()
      .from(class_reservation)
      .where(and(eq(class_reservation.single_class_id, c.single_class_id), eq(class_reservation.customer_id, cliente.customer_id)));
    expect(mine).toEqual([]);
    expect((await allTableRows(desk.replica.db)).available_classes).toEqual(before.available_classes);
    await expectConverged(desk.replica);
    await desk.client.dismissRejection(mutationId);
    expect(desk.client.status().rejections).toEqual([]);
  });

  it('a server whose history went back: the desk syncs again from a snapshot, and sends again what it kept when the rows are the same', async () => {
    const r = await todaysReservation();
    await eventually(async () => (await desk.client.syncNow(), await desk.replica.db.$count(class_reservation, eq(class_reservation.class_reservation_id, r.class_reservation_id))) === 1, 10_000, 'the reservation to reach the desk');
    desk.link.cut();
    await desk.client.syncNow();
    await desk.client.mutate('checkIn', { class_reservation_id: r.class_reservation_id });
    // What a database restored from a backup looks like to this desk: no record of it, and a log without its cursor.
    await server.db.execute(sql`delete from sync_client where client_id = ${desk.client.clientId}`);
    await desk.replica.setMeta('sync.cursor', '999999999:999999999');
    desk.link.restore();
    // Kept aside, not lost: still counted as waiting while the snapshot comes (decision 078).
    await eventually(() => desk.client.status().ready && desk.client.status().lastError === null && desk.client.status().pending === 0, 10_000, 'the new first sync and the check-in sent again');
    await desk.client.syncNow();
    await expectConverged(desk.replica);
    expect(desk.client.status().rejections).toEqual([]);
    const [attended] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
    expect(attended?.attend).toBe(true);
    // The server knew no change of this desk: the kept check-in went as number 1, and the next one is 2.
    const applied = await server.db.execute(sql`select mutation_id from sync_mutation where client_id = ${desk.client.clientId} order by 1`);
    expect((Array.isArray(applied) ? applied : (applied as { rows: unknown[] }).rows).map((row) => Number((row as { mutation_id: number }).mutation_id))).toEqual([1]);
    const { mutationId: next } = await desk.client.mutate('undoCheckIn', { class_reservation_id: r.class_reservation_id, customer_id: r.customer_id, single_class_id: r.single_class_id });
    expect(next).toBe(2);
    await eventually(() => desk.client.status().pending === 0, 10_000, 'the change after the reset');
  });

  it('a server whose history went back: a kept change whose reservation is gone is shown to staff, named as it was', async () => {
    const r = await todaysReservation();
    await eventually(async () => (await desk.client.syncNow(), await desk.replica.db.$count(class_reservation, eq(class_reservation.class_reservation_id, r.class_reservation_id))) === 1, 10_000, 'the reservation to reach the desk');
    desk.link.cut();
    await desk.client.syncNow();
    const { mutationId } = await desk.client.mutate('checkIn', { class_reservation_id: r.class_reservation_id });
    // The backup predates the reservation: the restored database does not have it.
    await server.db.execute(sql`delete from class_reservation where class_reservation_id = ${r.class_reservation_id}`);
    await server.db.execute(sql`delete from sync_client where client_id = ${desk.client.clientId}`);
    await desk.replica.setMeta('sync.cursor', '999999999:999999999');
    desk.link.restore();
    await eventually(() => desk.client.status().ready && desk.client.status().rejections.length > 0, 10_000, 'the review of the kept check-in');
    expect(mutationId).toBeGreaterThan(0);
    expect(desk.client.status()).toMatchObject({ pending: 0, rejections: [{ name: 'checkIn', code: 'sync/restored-changed' }] });
    // Named before the replica was wiped: whom to call.
    expect(desk.client.status().rejections[0]?.subject?.customer?.id).toBe(r.customer_id);
    await expectConverged(desk.replica);
  });
});

describe('a restart with unsent work', () => {
  it('a check-in survives the desk process being killed right after it, and is sent when the desk starts again', async () => {
    const dir = tempDir('desk-crash');
    const clientId = crypto.randomUUID();
    try {
      const first = await openDesk({ dataDir: dir.path, clientId });
      await first.client.start();
      const [r] = await query<{ class_reservation_id: number; class_date: string }>(
        first.replica.db,
        sql`select r.class_reservation_id, c.class_date from class_reservation r join single_class c using (single_class_id)
            where r.deleted_at is null and not r.attend and c.cancelled_at is null and c.class_date < now() order by 1 limit 1`,
      );
      if (!r) throw new Error('no past reservation');
      await first.close();

      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('./support/crash-after-check-in.ts', import.meta.url)), dir.path, clientId, String(r.class_reservation_id), new Date(r.class_date).toISOString()],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(child.signal).toBe('SIGKILL');
      const mutationId = Number(child.stdout.trim());
      expect(mutationId).toBeGreaterThan(0);

      const second = await openDesk({ dataDir: dir.path, clientId });
      try {
        const [local] = await second.replica.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
        expect(local?.attend).toBe(true);
        await second.client.start();
        await eventually(() => second.client.status().pending === 0, 10_000, 'the outbox to empty');
        const audit = await server.db
          .select()
          .from(sync_mutation)
          .where(and(eq(sync_mutation.client_id, clientId), eq(sync_mutation.mutation_id, mutationId)));
        expect(audit).toMatchObject([{ name: 'checkIn', status: 'applied' }]);
        const [sent] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
        expect(sent?.attend).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  }, 120_000);

  it('the outbox survives closing the desk and is sent when it starts again', async () => {
    const dir = tempDir('desk');
    const clientId = crypto.randomUUID();
    try {
      const first = await openDesk({ dataDir: dir.path, clientId });
      await first.client.start();
      const r = await todaysReservation();
      await eventually(async () => (await first.client.syncNow(), await first.replica.db.$count(class_reservation, eq(class_reservation.class_reservation_id, r.class_reservation_id))) === 1, 10_000, 'the reservation to reach the desk');
      first.link.cut();
      await first.client.mutate('checkIn', { class_reservation_id: r.class_reservation_id });
      expect(first.client.status().pending).toBe(1);
      await first.close();
      const [unsent] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
      expect(unsent?.attend).toBe(false);

      const second = await openDesk({ dataDir: dir.path, clientId });
      try {
        const [local] = await second.replica.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
        expect(local?.attend).toBe(true);
        await second.client.start();
        await eventually(() => second.client.status().pending === 0, 10_000, 'the outbox to empty');
        const [sent] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
        expect(sent?.attend).toBe(true);
        await second.client.syncNow();
        await expectConverged(second.replica);
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  }, 90_000);
});
