import { createDb, customer, class_reservation, single_class, type DbHandle } from '@estudio/db';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { buildServer } from '@estudio/server/app';
import { loadConfig } from '@estudio/server/config';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServerLink } from '../src/client/http-link.ts';
import { openReplica, query, type ClientReplica } from '../src/client/replica.ts';
import { createSyncClient } from '../src/client/sync-client.ts';
import type { SyncClient } from '../src/client/types.ts';
import { createChangeFeed, type ChangeFeed } from '../src/server/index.ts';
import { allTableRows, eventually, flakyLink, type FlakyLink } from './fixtures.ts';

/**
 * Two server processes (two buildServer instances, each with its own
 * postgres.js pool and LISTEN connection) over one PostgreSQL database, and
 * two desks, each talking tRPC over real HTTP (SSE poke included) to a
 * different server. A check-in at one desk reaches the other through the
 * database's NOTIFY; two walk-ins racing for the last place end with one
 * booking and one rollback; both replicas converge to the server.
 * PostgreSQL only (TEST_DATABASE_URL), as the other race tests.
 */
const url = process.env.TEST_DATABASE_URL;

interface ServerProcess {
  handle: DbHandle;
  feed: ChangeFeed;
  app: FastifyInstance;
  base: string;
}

interface Desk {
  replica: ClientReplica;
  client: SyncClient;
  link: FlakyLink;
}

describe.skipIf(!url)('two servers, two desks on PostgreSQL', () => {
  let database: TestDb;
  const servers: ServerProcess[] = [];
  const desks: Desk[] = [];

  async function startServer(): Promise<ServerProcess> {
    const handle = await createDb(database.url, { max: 5 });
    const feed = await createChangeFeed(handle);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      AUTH_SECRET: 'prueba-secreta-de-32-caracteres-o-mas!!',
      PUBLIC_URL: 'http://estudio.test',
    });
    const app = await buildServer({ config, db: handle.db, changeFeed: feed });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return { handle, feed, app, base };
  }

  async function signIn(base: string, email: string): Promise<string> {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Demo1234!' }),
    });
    if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
    return ((await res.json()) as { idToken: string }).idToken;
  }

  async function openDesk(server: ServerProcess, email: string): Promise<Desk> {
    const token = await signIn(server.base, email);
    const replica = await openReplica({ dataDir: 'memory://' });
    const link = flakyLink(createHttpServerLink({ url: `${server.base}/trpc`, getToken: () => token }));
    const client = createSyncClient({ replica, link, clientId: crypto.randomUUID(), backoff: { initialMs: 50, maxMs: 500 } });
    await client.start();
    return { replica, client, link };
  }

  beforeAll(async () => {
    database = await createTestDb();
    servers.push(await startServer(), await startServer());
    const [one, two] = servers;
    if (!one || !two) throw new Error('servers missing');
    desks.push(await openDesk(one, 'recepcion@estudio.demo'), await openDesk(two, 'admin@estudio.demo'));
  }, 120_000);

  afterAll(async () => {
    for (const desk of desks) {
      await desk.client.stop();
      await desk.replica.close();
    }
    for (const server of servers) {
      await server.app.close();
      await server.feed.close();
      await server.handle.close();
    }
    await database?.close();
  });

  const db = () => servers[0]!.handle.db;

  async function expectConverged(): Promise<void> {
    const truth = await allTableRows(db());
    for (const desk of desks) {
      await desk.client.syncNow();
      expect(desk.client.status()).toMatchObject({ pending: 0, ready: true });
      expect(await allTableRows(desk.replica.db)).toEqual(truth);
    }
  }

  it('both desks start from a snapshot equal to the server, online over SSE', async () => {
    for (const desk of desks) await eventually(() => desk.client.status().online, 10_000, 'the poke channel');
    await expectConverged();
  });

  it('a write on the server reaches both desks by the poke alone, and a refusal over HTTP keeps its domain code', async () => {
    await db().update(customer).set({ name: 'Mariana Sofía' }).where(eq(customer.email, 'cliente@estudio.demo'));
    for (const desk of desks) {
      await eventually(
        async () => (await desk.replica.db.select({ name: customer.name }).from(customer).where(eq(customer.email, 'cliente@estudio.demo')))[0]?.name === 'Mariana Sofía',
        10_000,
        'the poke to bring the new name',
      );
    }
    // A cursor this log never had: the server answers sync/reset-required (409) and the desk starts over from a snapshot.
    const [a] = desks;
    if (!a) throw new Error('desk missing');
    await expect(a.link.pull({ clientId: a.client.clientId, cursor: '999999999:1' })).rejects.toMatchObject({ name: 'DomainError', code: 'sync/reset-required' });
    await a.replica.setMeta('sync.cursor', '999999999:1');
    await a.client.syncNow();
    await eventually(() => a.client.status().ready && a.client.status().lastError === null, 15_000, 'the new first sync');
    await expectConverged();
  });

  it('check-ins on both desks reach the other desk through the other server, without asking', async () => {
    const [a, b] = desks;
    if (!a || !b) throw new Error('desks missing');
    // Four bookings of a class that started five minutes ago: inside the check-in window (decision 016) at any hour
    // but the first minutes after midnight, when it starts in five minutes instead.
    const ago = new Date(Date.now() - 5 * 60_000);
    const start = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(ago) === new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date()) ? ago : new Date(Date.now() + 5 * 60_000);
    const [anyClass] = await db().select().from(single_class).limit(1);
    const [klass] = await db()
      .insert(single_class)
      .values({ class_date: start, capacity: 10, location_id: anyClass?.location_id ?? 0, class_type_id: anyClass?.class_type_id ?? 0 })
      .returning();
    const people = await db().select({ id: customer.customer_id }).from(customer).orderBy(customer.customer_id).limit(4);
    const live = await db()
      .insert(class_reservation)
      .values(people.map((p) => ({ single_class_id: klass?.single_class_id ?? 0, customer_id: p.id })))
      .returning({ id: class_reservation.class_reservation_id });
    await eventually(
      async () => (await a.replica.db.$count(class_reservation, inArray(class_reservation.class_reservation_id, live.map((r) => r.id)))) === 4 &&
        (await b.replica.db.$count(class_reservation, inArray(class_reservation.class_reservation_id, live.map((r) => r.id)))) === 4,
      10_000,
      'the bookings to reach both desks',
    );
    const ids = live.map((r) => r.id);
    await Promise.all(ids.map((id, i) => (i % 2 === 0 ? a : b).client.mutate('checkIn', { class_reservation_id: id })));
    const attendedOn = async (desk: Desk) =>
      (
        await desk.replica.db
          .select({ attend: class_reservation.attend })
          .from(class_reservation)
          .where(inArray(class_reservation.class_reservation_id, ids))
      ).every((r) => r.attend);
    // No syncNow: the pokes of each server, woken by the other's NOTIFY, bring them.
    await eventually(() => attendedOn(a), 10_000, 'desk A to see every check-in');
    await eventually(() => attendedOn(b), 10_000, 'desk B to see every check-in');
    await eventually(() => a.client.status().pending === 0 && b.client.status().pending === 0, 10_000, 'both outboxes to empty');
    const onServer = await db().select({ attend: class_reservation.attend }).from(class_reservation).where(inArray(class_reservation.class_reservation_id, ids));
    expect(onServer.every((r) => r.attend)).toBe(true);
    await expectConverged();
  });

  it('two walk-ins race for the last place: one books it, the other is rolled back with the reason', async () => {
    const [a, b] = desks;
    if (!a || !b) throw new Error('desks missing');
    const [c] = await db()
      .insert(single_class)
      .values({ class_date: new Date(Date.now() + 5 * 3600_000), capacity: 1, location_id: 1, class_type_id: 1 })
      .returning();
    if (!c) throw new Error('no class');
    const customers = await db()
      .select({ id: customer.customer_id, email: customer.email })
      .from(customer)
      .where(inArray(customer.email, ['cliente@estudio.demo', 'ilimitado@estudio.demo']))
      .orderBy(customer.email);
    const [cliente, ilimitado] = customers;
    if (!cliente || !ilimitado) throw new Error('demo customers missing');
    await eventually(
      async () => (await query(a.replica.db, sql`select 1 from single_class where single_class_id = ${c.single_class_id}`)).length === 1 &&
        (await query(b.replica.db, sql`select 1 from single_class where single_class_id = ${c.single_class_id}`)).length === 1,
      10_000,
      'both desks to see the class',
    );
    // Both take the last place while neither has heard of the other's booking.
    a.link.cut();
    b.link.cut();
    await a.client.mutate('walkIn', { customer_id: cliente.id, single_class_id: c.single_class_id, spot: null, guest: null });
    await b.client.mutate('walkIn', { customer_id: ilimitado.id, single_class_id: c.single_class_id, spot: null, guest: null });
    for (const desk of [a, b]) {
      const local = await desk.replica.db.select().from(class_reservation).where(eq(class_reservation.single_class_id, c.single_class_id));
      expect(local).toHaveLength(1);
    }
    a.link.restore();
    b.link.restore();
    await Promise.all([a.client.syncNow(), b.client.syncNow()]);
    await eventually(() => a.client.status().pending === 0 && b.client.status().pending === 0, 15_000, 'both walk-ins to be answered');

    const booked = await db()
      .select()
      .from(class_reservation)
      .where(and(eq(class_reservation.single_class_id, c.single_class_id), isNull(class_reservation.deletedAt)));
    expect(booked).toHaveLength(1);
    const winner = booked[0]!.customer_id === cliente.id ? a : b;
    const loser = winner === a ? b : a;
    expect(winner.client.status().rejections).toEqual([]);
    expect(loser.client.status().rejections).toMatchObject([{ name: 'walkIn', code: 'booking/class-full', message: 'Lo sentimos, esta clase ya está llena.' }]);
    await expectConverged();
    for (const desk of desks) {
      const seen = await desk.replica.db.select().from(class_reservation).where(eq(class_reservation.single_class_id, c.single_class_id));
      expect(seen.map((r) => r.class_reservation_id)).toEqual([booked[0]!.class_reservation_id]);
    }
  });
});
