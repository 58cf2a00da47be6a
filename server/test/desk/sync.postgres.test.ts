import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import { and, eq, isNull, sum } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DeskMutation, SyncChange } from '@estudio/core';
import { createDb, type DbHandle } from '@estudio/db';
import { customer } from '@estudio/db/schema/customer';
import { available_classes } from '@estudio/db/schema/purchases';
import { sync_mutation } from '@estudio/db/schema/sync';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { createChangeFeed, pullChanges, pushMutations, type ChangeFeed } from '@estudio/sync';
import { buildServer } from '../../src/app.ts';
import type { AppRouter } from '../../src/router.ts';
import { applyDeskMutation } from '../../src/services/desk/apply-desk-mutation.ts';
import { login, testConfig } from '../support/helpers.ts';
import { customerId } from '../support/reservations-fixtures.ts';
import { newClientId } from '../support/sync-helpers.ts';

/**
 * The sync on PostgreSQL, where transactions really overlap: commit order
 * against the log order, two pushes of one desk at once, and the poke crossing
 * from one server process to another through LISTEN/NOTIFY. PGlite has one
 * connection, so these run only with TEST_DATABASE_URL.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('sync on PostgreSQL', () => {
  let testDb: TestDb;
  let first: DbHandle;
  let second: DbHandle;
  let staffId: number;

  beforeAll(async () => {
    testDb = await createTestDb();
    first = await createDb(testDb.url, { max: 5 });
    second = await createDb(testDb.url, { max: 5 });
    staffId = await customerId(first.db, 'recepcion@estudio.demo');
  }, 120_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await testDb?.close();
  });

  const keyOf = (c: SyncChange) => `${c.table}:${JSON.stringify(c.key)}`;

  it('a transaction that wrote first and commits last is never skipped: later commits wait behind it', async () => {
    if (first.kind !== 'postgres') throw new Error('expected postgres');
    const desk = newClientId();
    let cursor: string | null = null;
    for (;;) {
      const page = await pullChanges(first.db, { clientId: desk, cursor, limit: 5000 }, staffId);
      cursor = page.cursor;
      if (!page.more) break;
    }
    const clienteId = await customerId(first.db, 'cliente@estudio.demo');
    const nuevoId = await customerId(first.db, 'nuevo@estudio.demo');

    // A writes and stays open; B writes after it and commits.
    const a = await first.client.reserve();
    try {
      await a`begin`;
      await a`update customer set instagram = '@transaccion.a' where customer_id = ${clienteId}`;
      await second.db.update(customer).set({ instagram: '@transaccion.b' }).where(eq(customer.customer_id, nuevoId));

      const whileOpen = await pullChanges(first.db, { clientId: desk, cursor, limit: 5000 }, staffId);
      expect(whileOpen.changes.map(keyOf)).not.toContain(`customer:${JSON.stringify({ customer_id: nuevoId })}`);
      expect(whileOpen.changes.map(keyOf)).not.toContain(`customer:${JSON.stringify({ customer_id: clienteId })}`);
      // B's change is committed and its poke sent: the desk is told to come back shortly.
      expect(whileOpen.held).toBe(true);
      cursor = whileOpen.cursor;
      await a`commit`;
    } finally {
      a.release();
    }

    const seen = new Map<string, SyncChange>();
    // The horizon is the cluster's oldest open transaction: other tests' databases on the same server hold it back a while.
    await vi.waitFor(async () => {
      const page = await pullChanges(first.db, { clientId: desk, cursor, limit: 5000 }, staffId);
      for (const change of page.changes) seen.set(keyOf(change), change);
      cursor = page.cursor;
      expect(seen.get(`customer:${JSON.stringify({ customer_id: clienteId })}`)?.row).toMatchObject({ instagram: '@transaccion.a' });
      expect(seen.get(`customer:${JSON.stringify({ customer_id: nuevoId })}`)?.row).toMatchObject({ instagram: '@transaccion.b' });
    }, { timeout: 30_000, interval: 100 });
  });

  it('two pushes of the same desk at once, from two connections, apply every mutation once', async () => {
    const desk = newClientId();
    const admin = await customerId(first.db, 'admin@estudio.demo');
    await first.db.delete(available_classes).where(eq(available_classes.customer_id, admin));
    await first.db.insert(available_classes).values({ customer_id: admin, available_classes: 20, expiration_date: new Date(Date.now() + 30 * 86_400_000) });
    const mutations: DeskMutation[] = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name: 'removeClasses', args: { customer_id: admin, amount: 1, reason: 'Ajuste de saldo' } }));
    const staff = { customer_id: staffId };

    const [one, two] = await Promise.all([
      pushMutations(first.db, { clientId: desk, mutations }, staff, applyDeskMutation),
      pushMutations(second.db, { clientId: desk, mutations }, staff, applyDeskMutation),
    ]);
    for (let i = 0; i < mutations.length; i++) {
      const statuses = [one.results[i]?.status, two.results[i]?.status].sort();
      expect(statuses).toEqual(['applied', 'duplicate']);
    }
    const [left] = await first.db
      .select({ n: sum(available_classes.available_classes) })
      .from(available_classes)
      .where(and(eq(available_classes.customer_id, admin), isNull(available_classes.deletedAt)));
    expect(Number(left?.n)).toBe(12);
    const audit = await first.db.select().from(sync_mutation).where(eq(sync_mutation.client_id, desk));
    expect(audit.map((m) => m.mutation_id).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  describe('the poke crosses server processes', () => {
    let serverA: FastifyInstance;
    let serverB: FastifyInstance;
    let feedA: ChangeFeed;
    let feedB: ChangeFeed;
    let baseB: string;

    beforeAll(async () => {
      feedA = await createChangeFeed(first);
      feedB = await createChangeFeed(second);
      serverA = await buildServer({ config: testConfig(), db: first.db, changeFeed: feedA });
      serverB = await buildServer({ config: testConfig(), db: second.db, changeFeed: feedB });
      await serverA.listen({ port: 0, host: '127.0.0.1' });
      baseB = await serverB.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await serverA?.close();
      await serverB?.close();
      await feedA?.close();
      await feedB?.close();
    });

    it('a write through server A wakes a desk subscribed to server B (real tRPC client over SSE)', async () => {
      const token = (await login(serverB, 'recepcion@estudio.demo')).idToken;
      const client = createTRPCClient<AppRouter>({
        links: [
          httpSubscriptionLink({
            url: `${baseB}/trpc`,
            EventSource,
            eventSourceOptions: () => ({
              fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } }),
            }),
          }),
        ],
      });
      const pokes: number[] = [];
      const errors: unknown[] = [];
      const subscription = client.sync.poke.subscribe(
        { clientId: newClientId() },
        { onData: (event) => pokes.push(event.at), onError: (error) => errors.push(error) },
      );
      try {
        await vi.waitFor(() => expect(pokes.length).toBe(1), { timeout: 5000 });
        const clienteId = await customerId(first.db, 'cliente@estudio.demo');
        const res = await serverA.inject({
          method: 'PUT',
          url: '/api/customer/removeClasses',
          headers: { authorization: `Bearer ${(await login(serverA, 'recepcion@estudio.demo')).idToken}` },
          payload: { customer_id: clienteId, amount: 1, reason: 'Ajuste de saldo' },
        });
        expect(res.statusCode).toBe(200);
        await vi.waitFor(() => expect(pokes.length).toBeGreaterThanOrEqual(2), { timeout: 5000 });
        expect(errors).toEqual([]);
      } finally {
        subscription.unsubscribe();
      }
    });
  });
});
