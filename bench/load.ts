// Load test (Reliability): a realistic mix of portal traffic for 60 s
// against the real server on PostgreSQL, with autocannon. The server runs in a
// child process and autocannon in a worker thread (bench/load-mix.mjs), so the
// load generator never shares the server's event loop. Kinds of request, with
// connections by weight (reads dominate, as on a studio's site):
//   - the week's schedule, anonymous (GET /api/single_class for a Monday-to-Sunday
//     week, this week twice as often as the next, as the portal's calendar asks);
//   - the same, signed in (adds the caller's reservations and waitlist entries);
//   - a booking (POST /api/class_reservations) followed on the same connection
//     by the cancellation of that reservation (POST /api/class_reservations/{id}/cancel);
//   - the customer's reservation list (GET /api/class_reservations/mine, page 1);
//   - the video library (GET /api/videos, page 1, as the portal's video page opens).
// Prints per kind: requests, req/s, p50/p95/p99 latency and every non-2xx by
// status and code; business refusals (class full, already booked, too late to
// cancel...) apart from errors, since the data is built so none can happen and
// one means the mix is wrong. Then runs bench/invariants.sql on the database.
// Exits non-zero on any 5xx, network error or timeout, any other unexpected
// answer, or a broken invariant.
//
//   npx tsx bench/load.ts
//
// Data: a fresh copy of the seeded demo studio (database bnch_load_<pid> on
// TEST_DATABASE_URL, default postgres://postgres:postgres@127.0.0.1:5432/postgres,
// dropped at the end) plus BENCH_CUSTOMERS customers, each with an ID token
// signed with the server's secret (signing in thousands of customers would
// measure scrypt; tokens still go through the real verification on every
// request), a paid 5-class pack (its credit) and an online membership (for the
// video library); and BENCH_CLASSES classes 2 to 9 days ahead (outside the 12-hour
// cancellation window, so every cancellation returns the credit) with more places
// than there are customers (never full). A customer is booked in at most one of
// them at a time (book, then cancel), so a duplicate cannot happen; the studio's
// limit of cancellations per credit is lifted (max_cancels_per_available_class 0),
// since the run replays months of one customer's bookings in a minute.
//
// Knobs: BENCH_DURATION (60 s), BENCH_CONNECTIONS (50, split 36% anonymous week,
// 24% signed-in week, 20% booking/cancelling, 10% reservation list, 10% videos),
// BENCH_CUSTOMERS (2000), BENCH_CLASSES (40), BENCH_PORT (3300), BENCH_RATE (pace the mix at this
// many requests per second in total, each kind at its connections' share; default: as fast as answered).
// BENCH_FIND_RATE=1: after the run, steps of BENCH_STEP_SECONDS (15) at a paced total rate
// from BENCH_RATE_START (100) up by BENCH_RATE_STEP (50), at most BENCH_RATE_STEPS (8), until one
// kind's p95 passes 200 ms or the server falls 10% behind the pace; prints the highest rate that held.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { studioTimeZone, weekOf } from '@estudio/core';
import { app_config } from '@estudio/db/schema/app-config';
import { loadStudioSettings } from '../server/src/services/schedule/studio-settings.ts';
import { createBookers, newClass } from '../server/test/support/reservations-fixtures.ts';
import { freshDatabase, percentile, startChild } from './child-server.ts';

const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const duration = Number(process.env.BENCH_DURATION ?? 60);
const totalConnections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const customerCount = Number(process.env.BENCH_CUSTOMERS ?? 2000);
const classCount = Number(process.env.BENCH_CLASSES ?? 40);
const port = Number(process.env.BENCH_PORT ?? 3300);
const secret = 'banco-de-carga-del-estudio-con-32-caracteres-o-mas';
const pacedRate = Number(process.env.BENCH_RATE ?? 0) || undefined;
const findRate = process.env.BENCH_FIND_RATE === '1';
const stepSeconds = Number(process.env.BENCH_STEP_SECONDS ?? 15);
const rateStart = Number(process.env.BENCH_RATE_START ?? 100);
const rateStep = Number(process.env.BENCH_RATE_STEP ?? 50);
const rateSteps = Number(process.env.BENCH_RATE_STEPS ?? 8);
/** The p95 every kind must keep for a paced rate to count as held. */
const p95Budget = 200;

const share = (weight: number) => Math.max(1, Math.round(totalConnections * weight));
const connections = {
  anonWeek: share(0.36),
  signedWeek: share(0.24),
  book: share(0.2),
  mine: share(0.1),
  videos: share(0.1),
};

/** Refusals the studio's rules give (4xx with a domain code): not server errors, but the data should have made them impossible. */
const isBusinessRefusal = (key: string) => /^4\d\d (booking|reservation|video|class)\//.test(key);

interface KindStats {
  latencies: number[];
  refusals: Record<string, number>;
}
interface MixResult {
  seconds: number;
  stats: Record<string, KindStats>;
  errors: number;
  errorSamples: Record<string, number>;
  timeouts: number;
  stillBooked: number[];
  /** Paced runs: the latencies of the requests due in each second of the run, all kinds together. */
  bySecond: number[][];
}

const db = await freshDatabase(adminUrl, 'bnch_load');
let failed = false;
try {
  console.log(`Preparando datos: ${customerCount} clientes, ${classCount} clases…`);
  const { db: orm, client: sql } = db.handle;
  await orm.insert(app_config).values({ key: 'max_cancels_per_available_class', value: '0' }).onConflictDoUpdate({
    target: app_config.key,
    set: { value: '0' },
  });
  const classIds: number[] = [];
  for (let i = 0; i < classCount; i++) {
    // Every 4 hours from 2 days ahead: always more than the 12 hours before a class that returns the credit.
    classIds.push(await newClass(orm, { minutesAhead: 2 * 24 * 60 + i * 4 * 60, capacity: customerCount + 1, classType: 'Yoga' }));
  }
  const bookers = await createBookers(orm, secret, customerCount, { credits: 5, prefix: 'bnch-carga' });
  const customerIds = sql(bookers.map((b) => b.customer_id));
  // Each credit comes from a purchase of the 5-class pack paid by transfer (money received, not in the drawer), so the invariant checker keeps its book
  // (classes left plus classes spent never above the 5 bought) through the run's bookings and cancellations.
  await sql`
    with bought as (
      insert into purchase (customer_id, class_package_id, title, amount, total_payment, class_amount, expiration_days, status, provider, paid_at, paid_with)
      select c.customer_id, p.class_package_id, p.title, p.price, p.price, 5, null, 'completed', 'cash', now(), 'transfer'
        from customer c cross join (
          select * from class_package where class_amount = 5 and not is_online and not is_special_event order by class_package_id limit 1) p
       where c.customer_id in ${customerIds}
      returning purchase_id, customer_id)
    update available_classes ac set purchase_id = bought.purchase_id from bought where ac.customer_id = bought.customer_id`;
  await sql`
    insert into purchase (customer_id, class_package_id, title, amount, total_payment, class_amount, expiration_days, status, provider, is_gift, expiration_date, paid_at)
    select c.customer_id, p.class_package_id, p.title, p.price, 0, 0, 30, 'active', 'admin', true, now() + interval '30 days', now()
      from customer c cross join (select * from class_package where is_online order by class_package_id limit 1) p
     where c.customer_id in ${customerIds}`;

  const tz = studioTimeZone(await loadStudioSettings(orm));
  const thisWeek = weekOf(new Date(), tz);
  const nextWeek = weekOf(new Date(Date.parse(`${thisWeek.end_date}T12:00:00Z`) + 2 * 86_400_000), 'UTC');

  const server = await startChild('server/src/main.ts', port, {
    DATABASE_URL: db.url,
    NODE_ENV: 'test',
    AUTH_SECRET: secret,
    // Not used by the mix (tokens are signed beforehand), raised so a sign-in added to it is not throttled per IP.
    AUTH_RATE_LIMIT_MAX: '1000000',
  });
  let result: MixResult;
  try {
    console.log(
      `Carga: ${duration} s, ${Object.values(connections).reduce((a, b) => a + b, 0)} conexiones ` +
        `(semana anónima ${connections.anonWeek}, semana con sesión ${connections.signedWeek}, reservar/cancelar ${connections.book}, ` +
        `mis reservaciones ${connections.mine}, videos ${connections.videos})…`,
    );
    const runMix = (seconds: number, rate: number | undefined, exclude: number[]) =>
      new Promise<MixResult>((resolve, reject) => {
        const worker = new Worker(new URL('./load-mix.mjs', import.meta.url), {
          workerData: {
            base: server.base,
            duration: seconds,
            tokens: bookers.map((b) => b.token),
            classIds,
            weeks: [thisWeek, thisWeek, nextWeek],
            connections,
            rate,
            exclude,
          },
        });
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    if (pacedRate) console.log(`Ritmo: ${pacedRate} req/s en total.`);
    result = await runMix(duration, pacedRate, []);
    if (pacedRate) {
      // The server starts cold (JIT, connections, statements prepared per connection): the first seconds apart.
      const seconds = result.bySecond.slice(0, 10).map((l) => `${percentile([...l].sort((x, y) => x - y), 95).toFixed(0)}`);
      console.log(`p95 ms de cada segundo, los primeros 10 (todos los tipos): ${seconds.join(' ')}`);
    }
    if (findRate) {
      // Each step leaves out the customers the steps before left booked, so no booking collides with a live one.
      let exclude = result.stillBooked;
      let held: number | null = null;
      console.log(`\nBuscando el ritmo más alto con p95 ≤ ${p95Budget} ms en cada tipo (pasos de ${stepSeconds} s):`);
      for (let i = 0, rate = rateStart; i < rateSteps; i++, rate += rateStep) {
        const step = await runMix(stepSeconds, rate, exclude);
        exclude = [...new Set([...exclude, ...step.stillBooked])];
        const answered = Object.values(step.stats).reduce((n, k) => n + k.latencies.length, 0) / step.seconds;
        const p95s = Object.entries(step.stats).map(([kind, k]) => [kind, percentile([...k.latencies].sort((x, y) => x - y), 95)] as const);
        const worst = Math.max(...p95s.map(([, p]) => p));
        const ok = worst <= p95Budget && answered >= 0.9 * rate && step.errors === 0 && step.timeouts === 0;
        console.log(
          `  ${String(rate).padStart(4)} req/s pedidas, ${answered.toFixed(0).padStart(4)} respondidas; p95 ms: ` +
            `${p95s.map(([kind, p]) => `${kind} ${p.toFixed(0)}`).join(', ')} → ${ok ? 'cumple' : 'no cumple'}`,
        );
        if (!ok) break;
        held = rate;
      }
      console.log(held === null ? `Ningún ritmo desde ${rateStart} req/s cumplió.` : `Ritmo más alto que cumplió: ${held} req/s en total.`);
    }
  } finally {
    await server.stop();
  }

  const order = ['semana (anónimo)', 'semana (con sesión)', 'reservar', 'cancelar', 'mis reservaciones', 'videos'];
  const total = Object.values(result.stats).reduce((n, s) => n + s.latencies.length, 0);
  console.log(`\n${total} respuestas en ${result.seconds.toFixed(1)} s (${(total / result.seconds).toFixed(0)} req/s en total)\n`);
  console.log('tipo                   peticiones   parte    req/s     p50 ms    p95 ms    p99 ms   no-2xx');
  const refusals: string[] = [];
  const errors: string[] = [];
  let fiveHundreds = 0;
  for (const kind of order) {
    const s = result.stats[kind];
    if (!s) {
      // Connections that got no answer in the whole run: requests hung (a lock, an exhausted pool).
      errors.push(`  ${kind}: ninguna respuesta en ${result.seconds.toFixed(0)} s`);
      continue;
    }
    const sorted = [...s.latencies].sort((a, b) => a - b);
    const n = sorted.length;
    const non2xx = Object.values(s.refusals).reduce((a, b) => a + b, 0);
    console.log(
      `${kind.padEnd(22)} ${String(n).padStart(10)}   ${((100 * n) / total).toFixed(0).padStart(3)}%  ${(n / result.seconds).toFixed(0).padStart(7)}` +
        `   ${percentile(sorted, 50).toFixed(1).padStart(7)}   ${percentile(sorted, 95).toFixed(1).padStart(7)}   ${percentile(sorted, 99).toFixed(1).padStart(7)}   ${String(non2xx).padStart(6)}`,
    );
    for (const [key, count] of Object.entries(s.refusals)) {
      const line = `  ${kind}: ${count} × ${key}`;
      if (key.startsWith('5')) fiveHundreds += count;
      (isBusinessRefusal(key) ? refusals : errors).push(line);
    }
  }
  console.log('');
  if (refusals.length) console.log(`Rechazos de negocio (no son errores del servidor, pero la mezcla debería evitarlos):\n${refusals.join('\n')}`);
  else console.log('Rechazos de negocio: ninguno.');
  if (errors.length) console.log(`Respuestas de error:\n${errors.join('\n')}`);
  else console.log('Respuestas de error: ninguna.');
  const network = Object.entries(result.errorSamples).map(([key, count]) => `  ${count} × ${key}`);
  console.log(network.length ? `Errores de red (${result.errors}, ${result.timeouts} por tiempo agotado):\n${network.join('\n')}` : 'Errores de red: ninguno.');
  if (fiveHundreds > 0 || result.errors > 0 || result.timeouts > 0) {
    failed = true;
    const log = server.output().trim();
    if (log) console.log(`\nLo que escribió el servidor (inicio):\n${log.split('\n').slice(0, 10).map((l) => l.slice(0, 400)).join('\n')}`);
  }
  if (errors.length) failed = true;

  const broken = await sql.unsafe<{ invariante: string; descripcion: string; cantidad: string }[]>(
    readFileSync(path.join(import.meta.dirname, 'invariants.sql'), 'utf8'),
  );
  if (broken.length === 0) console.log('\nInvariantes (bench/invariants.sql): los datos son consistentes.');
  else {
    failed = true;
    console.log('\nInvariantes (bench/invariants.sql) violados:');
    for (const row of broken) console.log(`  ${row.invariante}: ${row.cantidad} — ${row.descripcion}`);
  }
} finally {
  await db.drop();
}
if (failed) process.exitCode = 1;
