import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@estudio/db';
import { createFaultDatabase, invariantViolations, startServerProcess, type FaultDatabase } from '../support/fault-helpers.ts';
import { fakePortalDist, testSecret } from '../support/helpers.ts';
import { createBookers, newClass, type Booker } from '../support/reservations-fixtures.ts';

/**
 * The real server (`node --import tsx server/src/main.ts`, its 10-connection
 * pool) killed with SIGKILL in the middle of a burst of bookings, then
 * started again on the same PostgreSQL database. Whatever the moment of the
 * kill, every booking that was answered 2xx is there, no class holds more
 * than its capacity, no credit is below zero, each customer's credits spent
 * equal their live bookings, and bench/invariants.sql finds nothing.
 *
 * Three rounds kill at three moments, each on its own customers and classes:
 * as soon as pg_stat_activity shows a booking waiting on a class row lock
 * (its credit already spent, nothing committed; usually before any answer),
 * after 10 accepted answers, and after 40. The requests still in
 * flight get no answer; whether they were committed is for the checks to find.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
/** This file's port (3250–3259 belong to the fault tests). */
const port = 3250;

const customersPerRound = 40;
const creditsEach = 3;
const classesPerRound = 6;
const capacity = 12;
/** Each customer asks for this many classes at once: one more than their credits. */
const bookingsEach = 4;

interface Answer {
  customer_id: number;
  single_class_id: number;
  status: number | null;
  reservationId: number | null;
}

/** POST over a fresh socket (no keep-alive: sockets to a killed server must not be reused by the next one). */
function postBooking(agent: http.Agent, token: string, body: object): Promise<{ status: number; body: Record<string, unknown> }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/class_reservations',
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
          } catch (error) {
            reject(error as Error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // A request the server never answers (a hang, not a kill) counts as cut, so a burst always ends.
    req.setTimeout(30_000, () => req.destroy(new Error('sin respuesta en 30 s')));
    req.end(payload);
  });
}

describe.skipIf(!adminUrl)('SIGKILL during a burst of bookings (PostgreSQL)', () => {
  let database: FaultDatabase | undefined;
  let setup: DbHandle | undefined;
  let sql: postgres.Sql | undefined;
  let server: ChildProcess | null = null;
  let dataDir = '';
  let portalDist = '';

  const ready = () => {
    if (!database || !setup || !sql) throw new Error('sin preparar');
    return { database, db: setup.db, sql };
  };

  async function startServer(): Promise<ChildProcess> {
    server = await startServerProcess({ databaseUrl: ready().database.url, port, dataDir, portalDist });
    return server;
  }

  async function killServer(signal: NodeJS.Signals): Promise<void> {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    server = null;
  }

  beforeAll(async () => {
    if (!adminUrl) return;
    dataDir = mkdtempSync(path.join(tmpdir(), 'flt-sigkill-'));
    portalDist = fakePortalDist();
    database = await createFaultDatabase(adminUrl);
    setup = await createDb(database.url, { max: 3 });
    sql = postgres(database.url, { max: 2, onnotice: () => {}, connection: { application_name: 'flt-check' } });
    await startServer();
  }, 120_000);
  afterAll(async () => {
    await killServer('SIGKILL');
    await setup?.close();
    await sql?.end({ timeout: 5 });
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (portalDist) rmSync(portalDist, { recursive: true, force: true });
  });

  /**
   * True once a booking of the server waits on a class row lock: by the lock
   * order it has spent its credit in the same transaction, which is not
   * committed yet (decision 006).
   */
  // By the statement's start: pg_stat_activity keeps its first 1024 bytes, and the class lock's select is longer.
  async function bookingWaitsOnClassLock(): Promise<boolean> {
    const [row] = await ready().sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and application_name <> 'flt-check'
         and wait_event_type = 'Lock' and query ilike 'select "single_class"."single_class_id"%'`;
    return (row?.n ?? 0) > 0;
  }

  /**
   * Fires every booking of the round at once and SIGKILLs the server when
   * `killWhen` says so (checked on every answer, and on pg_stat_activity
   * until the kill). Returns every answer; a request cut by the kill has
   * status null.
   */
  async function burst(bookers: Booker[], classIds: number[], killWhen: { accepted: number } | 'credit-spent'): Promise<Answer[]> {
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    let accepted = 0;
    let killed: Promise<void> | null = null;
    const kill = () => {
      killed ??= killServer('SIGKILL');
    };
    const requests = bookers.flatMap((b, i) =>
      Array.from({ length: bookingsEach }, (_, k) => {
        const single_class_id = classIds[(i + k) % classIds.length] ?? 0;
        return postBooking(agent, b.token, { single_class_id }).then(
          (res): Answer => {
            const reservation = res.body.class_reservation as { class_reservation_id?: number } | undefined;
            if (res.status >= 200 && res.status < 300) {
              accepted += 1;
              if (killWhen !== 'credit-spent' && accepted >= killWhen.accepted) kill();
            }
            return { customer_id: b.customer_id, single_class_id, status: res.status, reservationId: reservation?.class_reservation_id ?? null };
          },
          (): Answer => ({ customer_id: b.customer_id, single_class_id, status: null, reservationId: null }),
        );
      }),
    );
    let settled = false;
    const all = Promise.all(requests).finally(() => {
      settled = true;
    });
    if (killWhen === 'credit-spent') {
      while (!settled && !killed) {
        if (await bookingWaitsOnClassLock()) kill();
      }
    }
    const answers = await all;
    agent.destroy();
    if (!killed) throw new Error('la ráfaga terminó antes de matar al servidor');
    await killed;
    return answers;
  }

  /** The checks on the data, made through our own connection after the server came back. */
  async function expectConsistent(bookers: Booker[], classIds: number[], answers: Answer[]): Promise<void> {
    const { sql } = ready();
    const customerIds = bookers.map((b) => b.customer_id);

    const acceptedAnswers = answers.filter((a) => a.status !== null && a.status >= 200 && a.status < 300);
    expect(acceptedAnswers.every((a) => a.reservationId !== null)).toBe(true);
    const acceptedIds = acceptedAnswers.map((a) => a.reservationId ?? 0);
    const present = acceptedIds.length
      ? await sql<{ id: number; customer_id: number; single_class_id: number }[]>`
          select class_reservation_id as id, customer_id, single_class_id from class_reservation
           where class_reservation_id in ${sql(acceptedIds)} and deleted_at is null`
      : [];
    // Every accepted booking survived the kill, as it was answered.
    expect(present.map((r) => ({ customer_id: r.customer_id, single_class_id: r.single_class_id, reservationId: r.id })).sort((a, b) => a.reservationId - b.reservationId)).toEqual(
      acceptedAnswers.map((a) => ({ customer_id: a.customer_id, single_class_id: a.single_class_id, reservationId: a.reservationId })).sort((a, b) => (a.reservationId ?? 0) - (b.reservationId ?? 0)),
    );

    const overbooked = await sql`
      select s.single_class_id from single_class s
        join class_reservation r on r.single_class_id = s.single_class_id and r.deleted_at is null
       where s.single_class_id in ${sql(classIds)}
       group by s.single_class_id, s.capacity
      having count(*) + count(r.guest) > s.capacity`;
    expect(overbooked).toEqual([]);

    const ledger = await sql<{ customer_id: number; left: number; live: number }[]>`
      select c.customer_id,
             (select coalesce(sum(ac.available_classes), 0)::int from available_classes ac where ac.customer_id = c.customer_id) as left,
             (select count(*)::int from class_reservation r where r.customer_id = c.customer_id and r.deleted_at is null) as live
        from customer c where c.customer_id in ${sql(customerIds)}`;
    expect(ledger).toHaveLength(bookers.length);
    // Credits never below zero, and what each customer has left plus what their bookings took is what they were given.
    expect(ledger.filter((r) => r.left < 0)).toEqual([]);
    expect(ledger.filter((r) => r.left + r.live !== creditsEach)).toEqual([]);

    expect(await invariantViolations(sql)).toEqual([]);
  }

  it.each([
    { round: 'candado', moment: 'bookings wait on a class lock with their credit spent', killWhen: 'credit-spent' as const },
    { round: 'diez', moment: '10 bookings were accepted', killWhen: { accepted: 10 } },
    { round: 'cuarenta', moment: '40 bookings were accepted', killWhen: { accepted: 40 } },
  ])('killed once $moment: after the restart every accepted booking is there and no credit is lost', async ({ round, killWhen }) => {
    const { db } = ready();
    const bookers = await createBookers(db, testSecret, customersPerRound, { prefix: `sigkill-${round}`, credits: creditsEach });
    const classIds: number[] = [];
    for (let i = 0; i < classesPerRound; i++) classIds.push(await newClass(db, { minutesAhead: 72 * 60 + i * 60, capacity, classType: 'Yoga' }));
    if (!server) await startServer();

    const answers = await burst(bookers, classIds, killWhen);
    await startServer();
    await expectConsistent(bookers, classIds, answers);
  }, 90_000);
});
