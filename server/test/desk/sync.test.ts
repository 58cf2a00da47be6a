import { and, eq, sql, type SQL } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { replicatedRowsWhere, replicatedTableNames, replicatedTables, type PullOutput, type ReplicatedTable, type SyncChange } from '@estudio/core';
import { customer } from '@estudio/db/schema/customer';
import { location } from '@estudio/db/schema/catalogue';
import { class_reservation } from '@estudio/db/schema/reservations';
import { sync_mutation } from '@estudio/db/schema/sync';
import { login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId, newClass } from '../support/reservations-fixtures.ts';
import { createPollingChangeFeed, logPosition, startCursor } from '@estudio/sync';
import { minutesAheadToday, newClientId, readSse, trpcMutation, trpcQuery } from '../support/sync-helpers.ts';

/**
 * The server half of the desks' sync, through tRPC as a desk calls it, with
 * the demo seed: recepcion@ is staff, cliente@ a customer.
 */
let server: TestServer;
let staff: string;
let cliente: string;

demoStudio(['recepcion', 'cliente'], (s) => ({ server, tokens: { recepcion: staff, cliente } } = s));

/**
 * On PostgreSQL a pull hands out, and acknowledges, only what finished before the
 * cluster's oldest running transaction; under the suite's parallel files that can
 * be another file's transaction for a few seconds, so waiting for it is not a second.
 */
const horizon = { timeout: 20_000, interval: 100 };

async function pull(clientId: string, cursor: string | null, limit = 1000): Promise<PullOutput> {
  const res = await trpcQuery(server.app, 'sync.pull', { clientId, cursor, limit }, staff);
  if (res.status !== 200) throw new Error(`pull ${res.status} ${res.raw}`);
  return res.body.result.data as PullOutput;
}

/** Pulls until the log is exhausted; the state a desk would hold, by table and key. */
async function pullAll(clientId: string, cursor: string | null, limit = 1000) {
  const state = new Map<string, SyncChange>();
  const cursors: string[] = [];
  let next = cursor;
  for (;;) {
    const page = await pull(clientId, next, limit);
    for (const change of page.changes) state.set(`${change.table}:${JSON.stringify(change.key)}`, change);
    cursors.push(page.cursor);
    next = page.cursor;
    if (!page.more) return { state, cursor: page.cursor, cursors, lastMutationId: page.lastMutationId };
  }
}

/** The rows of a statement on either driver (postgres.js answers an array, PGlite an object with rows). */
async function rowsOf<T>(statement: SQL): Promise<T[]> {
  const result = (await server.db.execute(statement)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

/** Every row of a table as the database holds it, as JSON by column name. */
/** The rows a desk receives (core's replicatedRowsWhere: a health note never leaves the server). */
async function tableRows(table: ReplicatedTable): Promise<Record<string, unknown>[]> {
  const only = replicatedRowsWhere(table);
  const rows = await rowsOf<{ row: Record<string, unknown> }>(sql`select to_jsonb(t) as row from ${sql.identifier(table)} t${only ? sql.raw(` where ${only}`) : sql``}`);
  return rows.map((r) => r.row);
}

function cursorOrder(a: string, b: string): number {
  const [at = 0n, ac = 0n] = a.split(':').map(BigInt);
  const [bt = 0n, bc = 0n] = b.split(':').map(BigInt);
  return at === bt ? Number(ac - bc) : Number(at - bt);
}

describe('pull', () => {
  it('from the start hands out every seeded replicated row exactly as the table holds it, without the hidden columns', async () => {
    const desk = newClientId();
    const { state } = await pullAll(desk, null, 5000);
    for (const table of replicatedTableNames) {
      const expected = await tableRows(table);
      const pulled = [...state.values()].filter((c) => c.table === table && c.row !== null);
      expect(pulled.length, table).toBe(expected.length);
      const byKey = new Map(pulled.map((c) => [JSON.stringify(c.key), c.row as Record<string, unknown>]));
      for (const row of expected) {
        const key = Object.fromEntries(replicatedTables[table].key.map((k) => [k, row[k]]));
        const got = byKey.get(JSON.stringify(key));
        expect(got, `${table} ${JSON.stringify(key)}`).toBeDefined();
        if (!got) continue;
        for (const hidden of replicatedTables[table].hidden) expect(got).not.toHaveProperty(hidden);
        const visible = Object.keys(row).filter((k) => !(replicatedTables[table].hidden as readonly string[]).includes(k));
        expect(Object.keys(got).sort()).toEqual(visible.sort());
        for (const column of visible) {
          // Money is numeric: to_jsonb writes a number, the desk receives the exact decimal text.
          if (typeof row[column] === 'number' && typeof got[column] === 'string') {
            expect(got[column]).toMatch(/^-?\d+\.\d{2}$/);
            expect(Number(got[column])).toBe(row[column]);
          } else {
            expect(got[column], `${table}.${column}`).toEqual(row[column]);
          }
        }
      }
    }
    const [cliente] = [...state.values()].filter((c) => c.table === 'customer' && (c.row as { email?: string } | null)?.email === 'cliente@estudio.demo');
    expect(cliente?.row).not.toHaveProperty('uid');
  });

  it('pages in log order: the pages add up to the whole log, and an exhausted cursor answers nothing new', async () => {
    const desk = newClientId();
    const whole = await pullAll(desk, null, 5000);
    const paged = await pullAll(desk, null, 97);
    expect(paged.cursors.length).toBeGreaterThan(3);
    const sorted = [...paged.cursors].sort(cursorOrder);
    expect(paged.cursors).toEqual(sorted);
    expect(paged.cursor).toBe(whole.cursor);
    expect([...paged.state.keys()].sort()).toEqual([...whole.state.keys()].sort());
    const again = await pull(desk, paged.cursor);
    expect(again).toMatchObject({ cursor: paged.cursor, changes: [], more: false });
  });

  it('a write appears in the next pull with its new state, a deleted row comes back as null, each key once per page', async () => {
    const desk = newClientId();
    const { cursor } = await pullAll(desk, null, 5000);
    const clienteId = await customerId(server.db, 'cliente@estudio.demo');
    await server.db.update(customer).set({ instagram: '@mari' }).where(eq(customer.customer_id, clienteId));
    await server.db.update(customer).set({ instagram: '@marianita' }).where(eq(customer.customer_id, clienteId));
    const [temporary] = await server.db.insert(location).values({ name: 'Sucursal temporal', address: 'Calle de prueba 1' }).returning();
    if (!temporary) throw new Error('no location');
    await server.db.delete(location).where(eq(location.location_id, temporary.location_id));

    // On PostgreSQL a transaction still running anywhere in the cluster (another test file) holds the horizon back for a moment.
    const page = await vi.waitFor(async () => {
      const next = await pull(desk, cursor);
      expect(next.changes.some((c) => c.table === 'location' && c.key.location_id === temporary.location_id)).toBe(true);
      return next;
    }, horizon);
    const customers = page.changes.filter((c) => c.table === 'customer' && c.key.customer_id === clienteId);
    expect(customers).toHaveLength(1);
    expect(customers[0]?.row).toMatchObject({ instagram: '@marianita', email: 'cliente@estudio.demo' });
    expect(page.changes.filter((c) => c.table === 'location' && c.key.location_id === temporary.location_id)).toEqual([
      { table: 'location', key: { location_id: temporary.location_id }, row: null },
    ]);
    expect(cursorOrder(page.cursor, cursor)).toBeGreaterThan(0);
  });

  it('a cursor this log never handed out (the server database was replaced) asks the desk to start again', async () => {
    const res = await trpcQuery(server.app, 'sync.pull', { clientId: newClientId(), cursor: '999999999:999999999', limit: 10 }, staff);
    expect(res.status).toBe(409);
    expect(res.body.error.data.domainCode).toBe('sync/reset-required');
  });

  it('position and snapshot give a first sync equal to the log: every table in key order, composite keys included', async () => {
    const desk = newClientId();
    const position = await trpcQuery(server.app, 'sync.position', { clientId: desk }, staff);
    expect(position.status).toBe(200);
    const rows: Record<string, unknown>[] = [];
    let after: Record<string, number> | null = null;
    for (;;) {
      const res = await trpcQuery(server.app, 'sync.snapshot', { clientId: desk, table: 'single_class_instructor', after, limit: 7 }, staff);
      expect(res.status).toBe(200);
      const page = res.body.result.data as { rows: Record<string, number>[]; more: boolean };
      rows.push(...page.rows);
      const last = page.rows.at(-1);
      if (!page.more || !last) break;
      after = { single_class_id: last.single_class_id as number, instructor_id: last.instructor_id as number };
    }
    const expected = (await tableRows('single_class_instructor')).sort(
      (a, b) => (a.single_class_id as number) - (b.single_class_id as number) || (a.instructor_id as number) - (b.instructor_id as number),
    );
    expect(rows).toEqual(expected);
    const whole = await pullAll(desk, null, 5000);
    expect(position.body.result.data.cursor).toBe(whole.cursor);

    // A page key without the table's key columns is the client's mistake: 400 with the Spanish message, not a 500.
    const bad = await trpcQuery(server.app, 'sync.snapshot', { clientId: desk, table: 'single_class_instructor', after: { single_class_id: 1 } }, staff);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Revisa los campos faltantes o inválidos.');
  });
});

describe('who may sync', () => {
  it('a customer gets 403 on every sync procedure', async () => {
    const clientId = newClientId();
    const answers = await Promise.all([
      trpcQuery(server.app, 'sync.pull', { clientId, cursor: null }, cliente),
      trpcQuery(server.app, 'sync.position', { clientId }, cliente),
      trpcQuery(server.app, 'sync.snapshot', { clientId, table: 'customer', after: null }, cliente),
      trpcMutation(server.app, 'sync.push', { clientId, mutations: [{ id: 1, name: 'removeClasses', args: { customer_id: 1, amount: 1, reason: 'Ajuste de saldo' } }] }, cliente),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(res.body.error.data.domainCode).toBe('forbidden');
    }
    // A subscription answers over SSE: the refusal is its error event, and no value is ever sent.
    const poke = await trpcQuery(server.app, 'sync.poke', { clientId }, cliente);
    expect(poke.raw).toContain('event: serialized-error');
    expect(poke.raw).toContain('"httpStatus":403');
    expect(poke.raw).toContain('"domainCode":"forbidden"');
    const bound = await server.db.execute(sql`select 1 from sync_client where client_id = ${clientId}`);
    expect(Array.isArray(bound) ? bound : (bound as { rows: unknown[] }).rows).toHaveLength(0);
  });

  it('a desk id is bound to the account that first used it; another account gets 403', async () => {
    const desk = newClientId();
    expect((await trpcQuery(server.app, 'sync.position', { clientId: desk }, staff)).status).toBe(200);
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    const taken = await trpcQuery(server.app, 'sync.pull', { clientId: desk, cursor: null }, admin);
    expect(taken.status).toBe(403);
    expect(taken.body.error.data.domainCode).toBe('sync/client-taken');
    const push = await trpcMutation(server.app, 'sync.push', { clientId: desk, mutations: [{ id: 1, name: 'removeClasses', args: { customer_id: 1, amount: 1, reason: 'Ajuste de saldo' } }] }, admin);
    expect(push.status).toBe(403);
    expect(push.body.error.message).toBe('Este escritorio está vinculado a otra cuenta. Cierra sesión e inicia con la cuenta correcta.');
  });
});

describe('push', () => {
  async function todaysReservation(): Promise<number> {
    const classId = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 });
    const [row] = await server.db
      .insert(class_reservation)
      .values({ single_class_id: classId, customer_id: await customerId(server.db, 'cliente@estudio.demo'), is_cash: true, is_paid: false })
      .returning();
    if (!row) throw new Error('no reservation');
    return row.class_reservation_id;
  }

  it('applies each mutation exactly once: the same batch sent twice answers duplicates and changes nothing more', async () => {
    const desk = newClientId();
    const reservationId = await todaysReservation();
    const batch = {
      clientId: desk,
      mutations: [
        { id: 1, name: 'checkIn', args: { class_reservation_id: reservationId } },
        { id: 2, name: 'markReservationPaid', args: { class_reservation_id: reservationId } },
      ],
    };
    const first = await trpcMutation(server.app, 'sync.push', batch, staff);
    expect(first.status).toBe(200);
    expect(first.body.result.data).toEqual({ results: [{ id: 1, status: 'applied' }, { id: 2, status: 'applied' }], lastMutationId: 2 });
    const [checked] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, reservationId));
    expect(checked).toMatchObject({ attend: true, is_paid: true });

    const second = await trpcMutation(server.app, 'sync.push', batch, staff);
    expect(second.body.result.data).toEqual({ results: [{ id: 1, status: 'duplicate' }, { id: 2, status: 'duplicate' }], lastMutationId: 2 });
    const [after] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, reservationId));
    expect(after?.attendedAt?.getTime()).toBe(checked?.attendedAt?.getTime());
    expect(after?.updatedAt.getTime()).toBe(checked?.updatedAt.getTime());
    const audit = await server.db.select().from(sync_mutation).where(eq(sync_mutation.client_id, desk));
    expect(audit.map((m) => [m.mutation_id, m.name, m.status])).toEqual([
      [1, 'checkIn', 'applied'],
      [2, 'markReservationPaid', 'applied'],
    ]);

    // The pull acknowledges the mutations together with their effects.
    const { state, lastMutationId } = await vi.waitFor(async () => {
      const all = await pullAll(desk, null, 5000);
      expect(all.lastMutationId).toBe(2);
      return all;
    }, horizon);
    expect(lastMutationId).toBe(2);
    expect(state.get(`class_reservation:${JSON.stringify({ class_reservation_id: reservationId })}`)?.row).toMatchObject({ attend: true, is_paid: true });
  });

  it('a pull acknowledges a mutation only with the page that completes its transaction', async () => {
    const desk = newClientId();
    const reservationId = await todaysReservation();
    const push = await trpcMutation(server.app, 'sync.push', { clientId: desk, mutations: [{ id: 1, name: 'checkIn', args: { class_reservation_id: reservationId } }] }, staff);
    expect(push.body.result.data.results).toEqual([{ id: 1, status: 'applied' }]);
    const key = `class_reservation:${JSON.stringify({ class_reservation_id: reservationId })}`;
    await vi.waitFor(async () => {
      let cursor: string | null = null;
      let attendedSeen = false;
      for (;;) {
        const page = await pull(desk, cursor, 200);
        for (const change of page.changes) if (`${change.table}:${JSON.stringify(change.key)}` === key) attendedSeen = (change.row as { attend?: boolean } | null)?.attend === true;
        // Never acknowledged before its effect has been handed out.
        if (page.lastMutationId === 1) expect(attendedSeen).toBe(true);
        cursor = page.cursor;
        if (!page.more) {
          expect(page.lastMutationId).toBe(1);
          return;
        }
        expect(page.lastMutationId).toBe(0);
      }
    }, horizon);
  });

  it('refuses a gap in the ids with 409 and applies nothing of it', async () => {
    const desk = newClientId();
    const reservationId = await todaysReservation();
    const res = await trpcMutation(server.app, 'sync.push', { clientId: desk, mutations: [{ id: 2, name: 'checkIn', args: { class_reservation_id: reservationId } }] }, staff);
    expect(res.status).toBe(409);
    expect(res.body.error.data.domainCode).toBe('sync/mutation-gap');
    const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, reservationId));
    expect(row?.attend).toBe(false);
  });

  it('records a refused mutation with its Spanish reason, rolls its effects back, and goes on with the next one', async () => {
    const desk = newClientId();
    const reservationId = await todaysReservation();
    const clienteId = await customerId(server.db, 'cliente@estudio.demo');
    const res = await trpcMutation(
      server.app,
      'sync.push',
      {
        clientId: desk,
        mutations: [
          { id: 1, name: 'removeClasses', args: { customer_id: clienteId, amount: 9999, reason: 'Ajuste de saldo' } },
          { id: 2, name: 'checkIn', args: { class_reservation_id: reservationId } },
        ],
      },
      staff,
    );
    expect(res.status).toBe(200);
    expect(res.body.result.data.results).toEqual([
      { id: 1, status: 'rejected', code: 'access/not-enough-classes', message: 'El cliente no tiene suficientes clases para restar.' },
      { id: 2, status: 'applied' },
    ]);
    const [stored] = await server.db
      .select()
      .from(sync_mutation)
      .where(and(eq(sync_mutation.client_id, desk), eq(sync_mutation.mutation_id, 1)));
    expect(stored).toMatchObject({ status: 'rejected', error_code: 'access/not-enough-classes', error_message: 'El cliente no tiene suficientes clases para restar.' });

    // Replayed, the refusal is answered again with its reason, so a desk that lost the answer still rolls back.
    const replay = await trpcMutation(server.app, 'sync.push', { clientId: desk, mutations: [{ id: 1, name: 'removeClasses', args: { customer_id: clienteId, amount: 9999, reason: 'Ajuste de saldo' } }] }, staff);
    expect(replay.body.result.data.results).toEqual([
      { id: 1, status: 'duplicate', code: 'access/not-enough-classes', message: 'El cliente no tiene suficientes clases para restar.' },
    ]);
  });

  it('a refused walk-in leaves no trace of the booking (capacity holds at the desk too)', async () => {
    const desk = newClientId();
    const classId = await newClass(server.db, { minutesAhead: 120, capacity: 1 });
    const ilimitadoId = await customerId(server.db, 'ilimitado@estudio.demo');
    const clienteId = await customerId(server.db, 'cliente@estudio.demo');
    const res = await trpcMutation(
      server.app,
      'sync.push',
      {
        clientId: desk,
        mutations: [
          { id: 1, name: 'walkIn', args: { customer_id: ilimitadoId, single_class_id: classId } },
          { id: 2, name: 'walkIn', args: { customer_id: clienteId, single_class_id: classId } },
        ],
      },
      staff,
    );
    expect(res.body.result.data.results).toEqual([
      { id: 1, status: 'applied' },
      { id: 2, status: 'rejected', code: 'booking/class-full', message: expect.any(String) },
    ]);
    const booked = await server.db.select().from(class_reservation).where(eq(class_reservation.single_class_id, classId));
    expect(booked.map((r) => r.customer_id)).toEqual([ilimitadoId]);
  });
});

/**
 * Waits until the log's position has reached its newest change. On PostgreSQL
 * the position is bounded by the cluster's oldest open transaction, which may
 * belong to another test file's database: a change committed while it was open
 * enters the position only when it ends, a move the polling feed rightly reports.
 */
async function logSettled() {
  const [newest] = await rowsOf<{ cursor: string }>(
    sql`select txid::text || ':' || change_id::text as cursor from sync_change order by txid desc, change_id desc limit 1`,
  );
  // The position's ids (its third part is the change's time, decision 078).
  await vi.waitFor(async () => expect((await logPosition(server.db)).cursor.split(':').slice(0, 2).join(':')).toBe(newest?.cursor ?? startCursor), { timeout: 10_000 });
}

describe('poke', () => {
  it('streams an event at once and another one when the log moves', async () => {
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const desk = newClientId();
    const stream = readSse(`${base}/trpc/sync.poke?input=${encodeURIComponent(JSON.stringify({ clientId: desk }))}`, staff);
    try {
      await stream.waitFor(1);
      const clienteId = await customerId(server.db, 'cliente@estudio.demo');
      await server.db.update(customer).set({ instagram: `@mari${Date.now()}` }).where(eq(customer.customer_id, clienteId));
      await stream.waitFor(2);
      expect(JSON.parse(stream.events[1] ?? '{}')).toEqual({ at: expect.any(Number) });
    } finally {
      await stream.close();
    }
  });

  it('without LISTEN, the polling feed notices a new position of the log (and only then)', async () => {
    await logSettled();
    // Each poll is one read of the log's position: counted when it has answered, so "no poke" is checked after polls that ran.
    let polls = 0;
    const counted = new Proxy(server.db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'execute' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const result = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
          polls += 1;
          return result;
        };
      },
    });
    const feed = createPollingChangeFeed(counted, 20);
    let pokes = 0;
    const unsubscribe = feed.subscribe(() => pokes++);
    try {
      // Ten polls have compared the position (a poll starts only once the one before has finished) and none saw it move.
      await vi.waitFor(() => expect(polls).toBeGreaterThanOrEqual(11), { timeout: 10_000 });
      expect(pokes).toBe(0);
      const clienteId = await customerId(server.db, 'cliente@estudio.demo');
      await server.db.update(customer).set({ instagram: `@poll${Date.now()}` }).where(eq(customer.customer_id, clienteId));
      await vi.waitFor(() => expect(pokes).toBeGreaterThanOrEqual(1));
    } finally {
      unsubscribe();
      await feed.close();
    }
  });
});
