// Bookings per second on PostgreSQL: through /api (the real server on a
// loopback port, tRPC + REST, token verification, the booking service) and the
// same transaction run directly with postgres.js (lock customer, lock class,
// count places, lock and decrement the credit, insert), as a ratio.
//
//   npx tsx bench/booking.ts
//
// Uses TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres)
// to create a fresh seeded database, dropped at the end. Knobs: BENCH_ATTEMPTS
// (2000), BENCH_CONCURRENCY (50), BENCH_POOL (20 connections, both paths),
// BENCH_CAPACITIES (20,5000: the class sizes, a rush and the winners' rate), BENCH_SYNC_TRIGGERS=off (drop the desks' change-log triggers, to measure what they cost),
// BENCH_WARM_REFUSALS (2000: the attempts of the warm-up's rush), BENCH_PROFILE_API (a folder: a CPU profile of each measured /api run),
// BENCH_ROUNDS (5: each class size is measured this many times, the two paths in turn; the table gives each
// path's median round and the ratio of the medians, then every round's ratio).
import { Worker } from 'node:worker_threads';
import type postgres from 'postgres';
import { replicatedTableNames } from '@estudio/core';
import { createDb } from '@estudio/db';
import { createTestDb } from '@estudio/db/testing';
import { buildServer } from '../server/src/app.ts';
import { testConfig } from '../server/test/support/helpers.ts';
import { createBookers, newClass, type Booker } from '../server/test/support/reservations-fixtures.ts';

process.env.TEST_DATABASE_URL ||= 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const attempts = Number(process.env.BENCH_ATTEMPTS ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const poolSize = Number(process.env.BENCH_POOL ?? 20);
const capacities = (process.env.BENCH_CAPACITIES ?? '20,5000').split(',').map(Number);
const warmRefusals = Number(process.env.BENCH_WARM_REFUSALS ?? 2000);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));

/** Runs `fn` over `items` with at most `limit` in flight. */
async function runPool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

type Outcome = 'booked' | 'full' | 'other';

/**
 * The statements of createReservation's transaction, in its order, without the
 * service around them: customer lock, class read, duplicate check, a first
 * count, credits locked and one spent, waitlist row removed, then the class
 * lock, the final count and the insert.
 */
async function bookDirect(sql: postgres.Sql, customerId: number, classId: number): Promise<Outcome> {
  const places = async (tx: postgres.TransactionSql) => {
    const [row] = await tx<{ places: number }[]>`
      select (count(*) + count(guest))::int as places from class_reservation where single_class_id = ${classId} and deleted_at is null`;
    return row?.places ?? 0;
  };
  return sql.begin(async (tx) => {
    await tx`select customer_id from customer where customer_id = ${customerId} and deleted_at is null for update`;
    const [c] = await tx<{ capacity: number; class_date: Date }[]>`
      select c.capacity, c.class_date from single_class c join class_type ct on ct.class_type_id = c.class_type_id
      where c.single_class_id = ${classId}`;
    if (!c) return 'other';
    const dup = await tx`select 1 from class_reservation where single_class_id = ${classId} and customer_id = ${customerId} and deleted_at is null limit 1`;
    if (dup.length) return 'other';
    if ((await places(tx)) + 1 > c.capacity) return 'full';
    const credits = await tx<{ available_class_id: number; available_classes: number }[]>`
      select available_class_id, available_classes from available_classes
      where customer_id = ${customerId} and deleted_at is null and available_classes <> 0
        and (expiration_date is null or expiration_date > ${c.class_date})
      order by expiration_date nulls last, available_class_id for update`;
    const credit = credits[0];
    if (!credit) return 'other';
    if (credit.available_classes !== -1) {
      const spent = await tx`
        update available_classes set available_classes = available_classes - 1
        where available_class_id = ${credit.available_class_id} and available_classes > 0 returning available_class_id`;
      if (!spent.length) return 'other';
    }
    await tx`delete from waitlist where single_class_id = ${classId} and customer_id = ${customerId}`;
    const [locked] = await tx<{ capacity: number }[]>`select capacity from single_class where single_class_id = ${classId} for update`;
    if ((await places(tx)) + 1 > (locked?.capacity ?? 0)) throw new FullError();
    await tx`insert into class_reservation (single_class_id, customer_id, available_class_id) values (${classId}, ${customerId}, ${credit.available_class_id})`;
    return 'booked';
  }).catch((err: unknown) => {
    if (err instanceof FullError) return 'full';
    throw err;
  }) as Promise<Outcome>;
}

/** Full under the lock: thrown so the credit already spent is rolled back. */
class FullError extends Error {}

interface Run {
  path: string;
  capacity: number;
  attempts: number;
  booked: number;
  seconds: number;
}

/**
 * BENCH_PROFILE_API=<dir>: a CPU profile of this process (the server's thread) during each measured /api run only,
 * written as <dir>/api-<capacity>.cpuprofile (node --cpu-prof would mix in the seeding, the warm-ups and the
 * postgres.js path).
 */
async function startApiProfile(): Promise<{ stop(name: string): Promise<void> } | null> {
  const dir = process.env.BENCH_PROFILE_API;
  if (!dir) return null;
  const { Session } = await import('node:inspector/promises');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(name) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/${name}.cpuprofile`, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

async function main() {
  const testDb = await createTestDb();
  const pool = await createDb(testDb.url, { max: poolSize });
  if (pool.kind !== 'postgres') throw new Error('the bench needs PostgreSQL');
  if (process.env.BENCH_SYNC_TRIGGERS === 'off') {
    for (const table of replicatedTableNames) {
      await pool.client.unsafe(`drop trigger ${table}_sync_log on "${table}"; drop trigger ${table}_sync_log_update on "${table}"`);
    }
    console.log('Sin los triggers del log de sincronización (BENCH_SYNC_TRIGGERS=off).');
  }
  const config = testConfig();
  const app = await buildServer({ config, db: pool.db });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const runs: Run[] = [];

  /** The HTTP client runs in a worker thread, as a separate client would, so it does not slow the server's event loop. */
  const viaApi = (bookers: Booker[], classId: number) =>
    new Promise<{ outcomes: Outcome[]; seconds: number }>((resolve, reject) => {
      const worker = new Worker(new URL('./booking-load.mjs', import.meta.url), {
        workerData: { base, tokens: bookers.map((b) => b.token), classId, concurrency },
      });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const viaSql = async (bookers: Booker[], classId: number) => {
    const started = performance.now();
    const outcomes = await runPool(bookers, concurrency, (b) => bookDirect(pool.client, b.customer_id, classId));
    return { outcomes, seconds: (performance.now() - started) / 1000 };
  };

  async function measure(
    path: string,
    capacity: number,
    count: number,
    book: (bookers: Booker[], classId: number) => Promise<{ outcomes: Outcome[]; seconds: number }>,
    record = true,
  ) {
    const classId = await newClass(pool.db, { minutesAhead: 7 * 24 * 60, capacity, classType: 'Yoga' });
    const bookers = await createBookers(pool.db, config.AUTH_SECRET, count, { prefix: `bench-${path}-${capacity}-${runs.length}-${record}` });
    // Only the measured /api run is profiled (BENCH_PROFILE_API), from its first request to its last answer.
    const round = runs.filter((r) => r.path === path && r.capacity === capacity).length + 1;
    const profiling = record && path === 'api' ? await startApiProfile() : null;
    const { outcomes, seconds } = await book(bookers, classId);
    await profiling?.stop(`api-${capacity}-${round}`);
    const booked = outcomes.filter((o) => o === 'booked').length;
    const other = outcomes.filter((o) => o === 'other').length;
    if (booked !== Math.min(capacity, count) || other > 0) throw new Error(`${path} ${capacity}: ${booked} booked, ${other} unexpected answers`);
    if (record) runs.push({ path, capacity, attempts: count, booked, seconds });
  }

  try {
    // Warm-up: JIT, prepared statements, connection pool, for both kinds of answer a measure gets: bookings (a class
    // with room for all) and refusals (a rush on a small class).
    for (const [capacity, count] of [[5000, 200], [10, warmRefusals]] as const) {
      await measure('api', capacity, count, viaApi, false);
      await measure('sql', capacity, count, viaSql, false);
    }
    // A rush lasts about a second: one round is at the mercy of whatever else the machine does in it. The paths
    // take turns going first, so neither always runs on the warmer (or the busier) machine.
    for (const capacity of capacities) {
      for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 === 0 ? (['api', 'sql'] as const) : (['sql', 'api'] as const);
        for (const path of order) await measure(path, capacity, attempts, path === 'api' ? viaApi : viaSql);
      }
    }
  } finally {
    await app.close();
    await pool.close();
    await testDb.close();
  }

  console.log(`\nBooking on PostgreSQL: ${attempts} attempts from distinct customers (1 credit each), concurrency ${concurrency}, pool ${poolSize}, ${rounds} rounds\n`);
  console.log('class        path            attempts/s   bookings/s   booked   seconds   (median round)');
  for (const capacity of capacities) {
    const api = runs.filter((r) => r.path === 'api' && r.capacity === capacity);
    const direct = runs.filter((r) => r.path === 'sql' && r.capacity === capacity);
    if (api.length === 0 || direct.length === 0) continue;
    const [apiMedian, directMedian] = [medianRun(api), medianRun(direct)];
    for (const r of [apiMedian, directMedian]) {
      const label = r.path === 'api' ? '/api (HTTP)' : 'postgres.js';
      console.log(
        `${`${capacity} places`.padEnd(12)} ${label.padEnd(15)} ${(r.attempts / r.seconds).toFixed(0).padStart(10)}   ${(r.booked / r.seconds).toFixed(0).padStart(10)}   ${String(r.booked).padStart(6)}   ${r.seconds.toFixed(2).padStart(7)}`,
      );
    }
    console.log(`${''.padEnd(12)} ratio postgres.js / api: ${(apiMedian.seconds / directMedian.seconds).toFixed(2)}x (medians)`);
    const each = api.map((a, i) => (direct[i] ? a.seconds / direct[i].seconds : NaN));
    console.log(`${''.padEnd(12)} each round: ${each.map((r) => `${r.toFixed(2)}x`).join(', ')}\n`);
  }
}

/** The run of median duration (the lower middle one of an even count). */
function medianRun(runs: readonly Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return sorted[Math.floor((sorted.length - 1) / 2)] as Run;
}

await main();
