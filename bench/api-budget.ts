// Performance budget: the product's /api beside a bare Fastify 5 +
// postgres.js server running the same SQL (bench/bare-server.ts), in one run on
// one fresh seeded PostgreSQL database, for
//   (a) GET /api/single_class for this week, anonymous (the portal's calendar);
//   (a') the same week signed in (a different customer each request) and
//        sent again with the ETag it answered (304), on the product only:
//        the rush compares both with the bare server's anonymous week (a);
//   (b) POST /api/class_reservations (a booking), where every in-flight
//       request is a different customer with credits booking a different class
//       with places to spare, so both servers really book.
// Both servers run in child processes and autocannon in a worker thread
// (bench/api-budget-load.mjs), with the same connections and duration for
// both; each pair is preceded by a short warm-up of both servers. The bare
// server verifies nothing (no token, no rules, no ORM, no validation) and, for
// a booking, skips the two identity look-ups the product makes per signed-in
// request: the ratio is what the product's layers cost over its SQL. Prints
// req/s, p50 and p95 of each and the ratios api / bare. Both week answers are
// compared first, so the bare server is known to give the same JSON.
//
//   npx tsx bench/api-budget.ts
//
// Uses TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres)
// for a fresh seeded database (bnch_budget_<pid>), dropped at the end. Knobs:
// BENCH_DURATION (15 s per server and route), BENCH_WARMUP (3 s), BENCH_CONNECTIONS (20),
// BENCH_CUSTOMERS (2000 per server), BENCH_CLASSES (49 per server, coprime with
// BENCH_CUSTOMERS), BENCH_PORT (3301; the bare server takes the next port),
// BARE_PREPARE=1 (the bare server prepares its statements; drizzle does not),
// BENCH_ROUTES (week,signed,304,book: which rows to measure).
import { get as httpGet } from 'node:http';
import { loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { Worker } from 'node:worker_threads';
import { studioTimeZone, weekOf } from '@estudio/core';
import { loadStudioSettings } from '../server/src/services/schedule/studio-settings.ts';
import { createBookers, newClass, type Booker } from '../server/test/support/reservations-fixtures.ts';
import { freshDatabase, percentile, startChild } from './child-server.ts';

const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const duration = Number(process.env.BENCH_DURATION ?? 15);
const warmup = Number(process.env.BENCH_WARMUP ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const customerCount = Number(process.env.BENCH_CUSTOMERS ?? 2000);
const classCount = Number(process.env.BENCH_CLASSES ?? 49);
const port = Number(process.env.BENCH_PORT ?? 3301);
const routes = new Set((process.env.BENCH_ROUTES ?? 'week,signed,304,book').split(','));
const secret = 'banco-de-presupuesto-del-estudio-con-32-caracteres';

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
if (gcd(customerCount, classCount) !== 1) throw new Error('BENCH_CUSTOMERS and BENCH_CLASSES must be coprime (no customer books a class twice)');

interface LoadResult {
  seconds: number;
  turns: number;
  ok: number;
  latencies: number[];
  refusals: Record<string, number>;
  errors: number;
  timeouts: number;
}
interface Side {
  base: string;
  bare: boolean;
  bookers: Booker[];
  classIds: number[];
  /** The next booking's turn (customer turn mod K, class turn mod C). */
  turn: number;
}
type Kind = 'week' | 'week-signed' | 'week-304' | 'book';

function drive(side: Side, kind: Kind, seconds: number, week: { start_date: string; end_date: string }, etag = ''): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./api-budget-load.mjs', import.meta.url), {
      workerData: {
        base: side.base,
        bare: side.bare,
        kind,
        duration: seconds,
        connections,
        week,
        bookers: side.bookers.map((b) => ({ token: b.token, customer_id: b.customer_id })),
        classIds: side.classIds,
        firstTurn: side.turn,
        etag,
      },
    });
    worker.once('message', (result: LoadResult) => {
      side.turn = result.turns;
      if (side.turn >= customerCount * classCount) reject(new Error('every customer booked every class: raise BENCH_CUSTOMERS'));
      resolve(result);
    });
    worker.once('error', reject);
  });
}

const db = await freshDatabase(adminUrl, 'bnch_budget');
let failed = false;
try {
  const { db: orm } = db.handle;
  const week = weekOf(new Date(), studioTimeZone(await loadStudioSettings(orm)));
  console.log(`Preparando datos: ${customerCount} clientes y ${classCount} clases por servidor…`);
  /** Classes three weeks ahead and on: outside the week that is read, with a place for every customer. */
  const makeSide = async (label: string, offsetDays: number) => {
    const classIds: number[] = [];
    for (let i = 0; i < classCount; i++) {
      classIds.push(await newClass(orm, { minutesAhead: (offsetDays * 24 + i) * 60, capacity: customerCount, classType: 'Yoga' }));
    }
    const bookers = await createBookers(orm, secret, customerCount, { credits: classCount, prefix: `bnch-presupuesto-${label}` });
    return { classIds, bookers };
  };
  const apiData = await makeSide('api', 21);
  const bareData = await makeSide('bare', 28);

  const apiServer = await startChild('server/src/main.ts', port, { DATABASE_URL: db.url, NODE_ENV: 'test', AUTH_SECRET: secret });
  const bareServer = await startChild('bench/bare-server.ts', port + 1, { DATABASE_URL: db.url });
  try {
    const api: Side = { base: apiServer.base, bare: false, turn: 0, ...apiData };
    const bare: Side = { base: bareServer.base, bare: true, turn: 0, ...bareData };

    const path = `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`;
    const [apiWeek, bareWeek] = await Promise.all([api, bare].map((s) => fetch(`${s.base}${path}`).then((r) => r.json())));
    const same = isDeepStrictEqual(apiWeek, bareWeek);
    console.log(`Semana ${week.start_date}–${week.end_date}: ${(apiWeek as { single_classes: unknown[] }).single_classes.length} clases; respuesta del servidor base ${same ? 'idéntica' : 'DISTINTA'} a la del producto.`);
    if (!same) {
      failed = true;
      const ours = apiWeek as { single_classes?: Record<string, unknown>[] };
      const theirs = bareWeek as { single_classes?: Record<string, unknown>[] };
      const first = ours.single_classes?.[0] ?? {};
      const keys = Object.keys(first).filter((k) => !isDeepStrictEqual(first[k], theirs.single_classes?.[0]?.[k]));
      console.log(`  primera clase distinta en: ${keys.join(', ') || '(otra parte de la respuesta)'}`);
    }

    const etag = (await fetch(`${api.base}${path}`)).headers.get('etag') ?? '';
    const revalidated = await fetch(`${api.base}${path}`, { headers: { 'if-none-match': etag } });
    console.log(`ETag de la semana anónima: ${etag || 'NINGUNO'}; con If-None-Match responde ${revalidated.status}.`);
    if (!etag || revalidated.status !== 304) failed = true;
    // Bytes on the wire of the anonymous week by Accept-Encoding (decision 047), read raw: fetch would decode them.
    const wire = (acceptEncoding: string) =>
      new Promise<{ bytes: number; coding: string }>((resolve, reject) => {
        httpGet(`${api.base}${path}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve({ bytes, coding: String(res.headers['content-encoding'] ?? 'identity') }));
        }).on('error', reject);
      });
    const sizes = [];
    for (const accept of ['', 'gzip', 'gzip, deflate, br']) sizes.push(await wire(accept));
    console.log(`Semana anónima en la red: ${sizes.map((s) => `${s.coding} ${s.bytes.toLocaleString('es-MX')} B`).join(', ')}.`);

    /** Rows measured on the product only are compared with the bare server's anonymous week. */
    const rows: { route: string; api: LoadResult; bare: LoadResult | null; against: string }[] = [];
    let bareWeekResult: LoadResult | null = null;
    for (const [route, kind, key] of [
      ['GET /api/single_class (semana)', 'week', 'week'],
      ['  con sesión', 'week-signed', 'signed'],
      ['  304 (If-None-Match)', 'week-304', '304'],
      ['POST /api/class_reservations', 'book', 'book'],
    ] as const) {
      if (!routes.has(key)) continue;
      const withBare = kind === 'week' || kind === 'book';
      if (warmup > 0) {
        await drive(api, kind, warmup, week, etag);
        if (withBare) await drive(bare, kind, warmup, week);
      }
      console.log(`${route.trim()}: ${duration} s por servidor, ${connections} conexiones…`);
      const apiResult = await drive(api, kind, duration, week, etag);
      const bareResult = withBare ? await drive(bare, kind, duration, week) : null;
      if (kind === 'week') bareWeekResult = bareResult;
      rows.push({ route, api: apiResult, bare: bareResult ?? bareWeekResult, against: withBare ? '' : ' (base: semana anónima)' });
    }

    const fmt = (r: LoadResult) => {
      const sorted = [...r.latencies].sort((a, b) => a - b);
      return { rps: r.ok / r.seconds, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
    };
    console.log(`\nPresupuesto de la API: ${connections} conexiones, ${duration} s por servidor y ruta (prepared statements en el base: ${process.env.BARE_PREPARE === '1' ? 'sí' : 'no'}; carga de la máquina: ${loadavg().map((l) => l.toFixed(1)).join(' ')})\n`);
    console.log('ruta                            servidor        req/s     p50 ms    p95 ms');
    for (const row of rows) {
      const a = fmt(row.api);
      const b = row.bare ? fmt(row.bare) : null;
      const lines: [string, ReturnType<typeof fmt>][] = [['/api (producto)', a]];
      if (row.bare && !row.against) lines.push(['base (Fastify)', b!]);
      for (const [label, f] of lines) {
        console.log(`${row.route.padEnd(31)} ${label.padEnd(15)} ${f.rps.toFixed(0).padStart(6)}   ${f.p50.toFixed(1).padStart(7)}   ${f.p95.toFixed(1).padStart(7)}`);
      }
      if (b) {
        console.log(
          `${''.padEnd(31)} api / base:     ${(a.rps / b.rps).toFixed(2).padStart(6)}   ${(a.p50 / b.p50).toFixed(2).padStart(7)}   ${(a.p95 / b.p95).toFixed(2).padStart(7)}${row.against}\n`,
        );
      }
      for (const [label, r] of [
        ['/api', row.api],
        ...(row.bare && !row.against ? ([['base', row.bare]] as const) : []),
      ] as const) {
        const bad = Object.entries(r.refusals);
        if (bad.length || r.errors || r.timeouts || r.ok === 0) {
          failed = true;
          const notes = [...bad.map(([k, n]) => `${n} × ${k}`), r.ok === 0 ? 'ninguna respuesta 2xx' : '', r.errors ? `${r.errors} errores de red` : '', r.timeouts ? `${r.timeouts} por tiempo agotado` : ''];
          console.log(`  ${label}: ${notes.filter(Boolean).join('; ')}`);
        }
      }
    }
    if (failed) {
      const log = apiServer.output().trim() || bareServer.output().trim();
      if (log) console.log(`Lo que escribieron los servidores (inicio):\n${log.split('\n').slice(0, 10).map((l) => l.slice(0, 400)).join('\n')}`);
    }
  } finally {
    await apiServer.stop();
    await bareServer.stop();
  }
} finally {
  await db.drop();
}
if (failed) process.exitCode = 1;
