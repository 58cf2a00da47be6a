import { class_reservation, single_class } from '@estudio/db';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { buildServer } from '@estudio/server/app';
import { loadConfig } from '@estudio/server/config';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServerLink } from '../src/client/http-link.ts';
import { openReplica, type ClientReplica } from '../src/client/replica.ts';
import { createSyncClient } from '../src/client/sync-client.ts';
import type { SyncClient } from '../src/client/types.ts';
import { createChangeFeed, type ChangeFeed } from '../src/server/index.ts';
import { allTableRows, eventually } from './fixtures.ts';

/**
 * The desk's real link (tRPC over HTTP, poke over SSE with the bearer token)
 * against the real server: a customer account is refused, and a desk keeps
 * working while the server is down and sends its work once the server is back
 * on the same address.
 */
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', AUTH_SECRET: 'prueba-secreta-de-32-caracteres-o-mas!!', PUBLIC_URL: 'http://estudio.test' });

let database: TestDb;
let feed: ChangeFeed;
let app: FastifyInstance;
let port: number;

async function startServer(listenOn: number): Promise<FastifyInstance> {
  const server = await buildServer({ config, db: database.db, changeFeed: feed });
  await server.listen({ port: listenOn, host: '127.0.0.1' });
  return server;
}

async function signIn(email: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Demo1234!' }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
  return ((await res.json()) as { idToken: string }).idToken;
}

beforeAll(async () => {
  database = await createTestDb();
  feed = await createChangeFeed(database);
  app = await startServer(0);
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  port = address.port;
});
afterAll(async () => {
  await app?.close();
  await feed?.close();
  await database?.close();
});

describe('the HTTP link', () => {
  it('a customer account cannot pull: the refusal keeps its domain code', async () => {
    const token = await signIn('cliente@estudio.demo');
    const link = createHttpServerLink({ url: `http://127.0.0.1:${port}/trpc`, getToken: () => token });
    await expect(link.pull({ clientId: crypto.randomUUID(), cursor: null })).rejects.toMatchObject({ name: 'DomainError', code: 'forbidden' });
  });

  it('with the server stopped a check-in still succeeds at the desk, and reaches the server after it restarts', async () => {
    const token = await signIn('recepcion@estudio.demo');
    const replica: ClientReplica = await openReplica({ dataDir: 'memory://' });
    const client: SyncClient = createSyncClient({
      replica,
      link: createHttpServerLink({ url: `http://127.0.0.1:${port}/trpc`, getToken: () => token }),
      clientId: crypto.randomUUID(),
      backoff: { initialMs: 50, maxMs: 400 },
    });
    try {
      await client.start();
      await eventually(() => client.status().online, 10_000, 'the poke channel');
      const [r] = await replica.db
        .select({ id: class_reservation.class_reservation_id, class_date: single_class.class_date })
        .from(class_reservation)
        .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
        .where(and(isNull(class_reservation.deletedAt), eq(class_reservation.attend, false), isNull(single_class.cancelledAt), lt(single_class.class_date, new Date())))
        .orderBy(class_reservation.class_reservation_id)
        .limit(1);
      if (!r) throw new Error('no past reservation to check in');

      await app.close();
      await eventually(() => !client.status().online, 10_000, 'the desk to see the server gone');
      await client.mutate('checkIn', { class_reservation_id: r.id, at: r.class_date.toISOString() });
      await client.syncNow();
      expect(client.status()).toMatchObject({ online: false, pending: 1 });
      const [local] = await replica.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.id));
      expect(local?.attend).toBe(true);

      app = await startServer(port);
      await eventually(() => client.status().pending === 0 && client.status().online, 15_000, 'the check-in to reach the restarted server');
      const [onServer] = await database.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.id));
      expect(onServer?.attend).toBe(true);
      await client.syncNow();
      expect(await allTableRows(replica.db)).toEqual(await allTableRows(database.db));
    } finally {
      await client.stop();
      await replica.close();
    }
  });
});
