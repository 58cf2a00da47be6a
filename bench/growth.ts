// Growth (part C): do the hot operations stay flat as the studio's
// history grows? The same operations, against the real server (a child
// process) on PostgreSQL, at 1×, 10× and 100× the data, with the ratio of each
// figure to its 1× figure in the same run; at each size the shared blocks each
// operation's statements touch (auto_explain with ANALYZE and BUFFERS: a figure
// the machine's load does not move), and the plans at the largest size.
//
//   nice -n 10 npx tsx bench/growth.ts
//
// Data: a fresh copy of the seeded demo studio (bnch_growth_<pid> on
// TEST_DATABASE_URL, default postgres://postgres:postgres@127.0.0.1:5432/postgres,
// dropped at the end), grown with set-based SQL (INSERT … SELECT over
// generate_series) by units of history. One unit is 2,000 customers (each with
// a sign-in identity), 4,000 paid purchases of the 10-class pack in cash (one
// spent on ten attended classes, one left to expire unused), their 4,000
// credits, 18 days of classes (16 a day, one coach each, 80 places) with
// 20,000 reservations, and 2,000 audit rows (the desk booking a tenth of
// them); the sync triggers log every row into sync_change as the product's
// writes do. Size k is k units: 100× is 200,000 customers, 2,000,000
// reservations and five years of classes. The units are history (the newest
// ends 10 days ago), so what a read of this week, today or this month should
// find is the same at every size: the question is whether finding it costs
// more as the tables grow. bench/invariants.sql is checked after growing. The
// reports ask for this month, no further back than 27 days, so no unit but the
// newest is in their answer on any day of the month.
//
// Operations (one request each, sequential then BENCH_CONCURRENCY at once):
// the anonymous week (GET /api/single_class, this week), the same signed in,
// a booking (POST /api/class_reservations, a different customer each time, in a
// class with room), `mine` (GET /api/class_reservations/mine, customers of the
// first unit: the same history at every size), the admin's customer search
// (GET /api/customer/admin/all: one person's e-mail, and a common last name),
// and the console's reports (cash-up of today, customers and sales of this
// month).
//
// Knobs: BENCH_GROWTH (1,10,100), BENCH_SEQUENTIAL (40 requests per operation,
// after 5 to warm up), BENCH_CONCURRENT (120 requests per operation at
// BENCH_CONCURRENCY 8; each phase cut at BENCH_PHASE_SECONDS, 10), BENCH_PORT (3361), BENCH_EXPLAIN=0 (skip the plans),
// BENCH_KEEP=1 (keep the database, print its name), BENCH_DROP_INDEXES (names, comma-separated: dropped
// after the server has migrated, to measure without them).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { studioTimeZone, weekOf } from '@estudio/core';
import { createIdTokenSigner } from '../server/src/services/auth/id-token.ts';
import { loadStudioSettings } from '../server/src/services/schedule/studio-settings.ts';
import { createBookers, newClass } from '../server/test/support/reservations-fixtures.ts';
import { freshDatabase, percentile, startChild, type ChildServer } from './child-server.ts';

const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const sizes = (process.env.BENCH_GROWTH ?? '1,10,100')
  .split(',')
  .map(Number)
  .filter((n) => n >= 1)
  .sort((a, b) => a - b);
const sequential = Number(process.env.BENCH_SEQUENTIAL ?? 40);
const concurrentRequests = Number(process.env.BENCH_CONCURRENT ?? 120);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const port = Number(process.env.BENCH_PORT ?? 3361);
const phaseSeconds = Number(process.env.BENCH_PHASE_SECONDS ?? 10);
const explain = process.env.BENCH_EXPLAIN !== '0';
const dropIndexes = (process.env.BENCH_DROP_INDEXES ?? '').split(',').map((n) => n.trim()).filter(Boolean);
const keep = process.env.BENCH_KEEP === '1';
const warmUp = 5;
const secret = 'banco-de-crecimiento-del-estudio-con-32-caracteres';
const postgresLog = process.env.BENCH_PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';

/** One unit of history: customers, and days of classes (16 a day). */
const unitCustomers = 2000;
const unitDays = 18;
const classesPerDay = 16;
const unitClasses = unitDays * classesPerDay;
/** Days between today and the newest unit's last day: history only, nothing of this week or month. */
const newestGap = 10;

interface Operation {
  name: string;
  request(i: number): { method: string; path: string; token?: string | undefined; body?: unknown };
}
interface Figure {
  p50: number;
  p95: number;
  rps: number;
  /** Requests measured (both phases). */
  n: number;
}

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const db = await freshDatabase(adminUrl, 'bnch_growth');
const dbName = new URL(db.url).pathname.slice(1);
const sql = db.handle.client;
const orm = db.handle.db;
let failed = false;

/**
 * Adds units `from`..`to` (1-based) of history, in batches of 10 units per statement so the
 * after-trigger queue of the sync log stays bounded. Every row is valid for the product:
 * foreign keys, a spent credit's ten reservations (bench/invariants.sql: credito-libro), places within capacity.
 */
async function grow(from: number, to: number, day: string) {
  const [ids] = await sql<{ pack: number; cash: number; location: number; types: number[]; coaches: number[]; admin: number }[]>`
    select (select class_package_id from class_package where class_amount = 10 and not is_online and not is_special_event order by class_package_id limit 1) as pack,
           (select payment_method_id from payment_method where name = 'Efectivo' limit 1) as cash,
           (select min(location_id) from location) as location,
           (select array_agg(class_type_id order by class_type_id) from class_type where name <> 'Pilates Reformer') as types,
           (select array_agg(instructor_id order by instructor_id) from instructor) as coaches,
           (select customer_id from customer where role = 'admin' order by customer_id limit 1) as admin`;
  if (!ids) throw new Error('the seed has no catalogue');
  for (let a = from; a <= to; a += 10) {
    const b = Math.min(to, a + 9);
    const t0 = Date.now();
    await sql.begin(async (sql) => {
    // Row triggers off for the batch (session_replication_role replica: the sync log's and the foreign keys'); the
    // rows are valid by construction (checked by bench/invariants.sql after growing) and their change-log rows are
    // written below in one statement per table, as the triggers would write them (db/migrations/0005_sync_triggers.sql).
    await sql`set local session_replication_role = replica`;
    const [before] = await sql<{ sc: number; cu: number; pu: number; ac: number; cr: number }[]>`
      select coalesce((select max(single_class_id) from single_class), 0) as sc, coalesce((select max(customer_id) from customer), 0) as cu,
             coalesce((select max(purchase_id) from purchase), 0) as pu, coalesce((select max(available_class_id) from available_classes), 0) as ac,
             coalesce((select max(class_reservation_id) from class_reservation), 0) as cr`;
    if (!before) throw new Error('no max ids');
    // Unit g's classes are on days newestGap+18(g-1)+1 … newestGap+18g before `day`, 06:00 to 21:00 in Mexico City (12:00 to 03:00 UTC).
    await sql`
      insert into single_class (class_date, duration_minutes, capacity, location_id, class_type_id, description, created_at, updated_at)
      select d.at, 50, 80, ${ids.location}, (${ids.types}::int[])[1 + c % cardinality(${ids.types}::int[])], 'crece', d.at - interval '30 days', d.at - interval '30 days'
        from generate_series(${a}::int, ${b}::int) g
        cross join generate_series(0, ${unitClasses - 1}) c
        cross join lateral (select ${day}::timestamptz - make_interval(days => ${newestGap} + ${unitDays} * (g - 1) + 1 + c / ${classesPerDay}) + make_interval(hours => 12 + c % ${classesPerDay}) as at) d`;
    await sql`
      insert into single_class_instructor (single_class_id, instructor_id)
      select s.single_class_id, (${ids.coaches}::int[])[1 + s.single_class_id % cardinality(${ids.coaches}::int[])]
        from single_class s
       where s.description = 'crece'
         and s.class_date < ${day}::timestamptz - make_interval(days => ${newestGap} + ${unitDays} * (${a}::int - 1))
         and s.class_date >= ${day}::timestamptz - make_interval(days => ${newestGap} + ${unitDays} * ${b}::int)`;
    // Customers n = 2000g + i: created the day before their unit's first class, with a sign-in identity.
    await sql`
      insert into auth_user (uid, email, password_hash)
      select 'crece-' || n, 'crece-' || n || '@crece.demo', 'sin-contraseña'
        from generate_series(${a * unitCustomers}::int, ${(b + 1) * unitCustomers - 1}::int) n`;
    await sql`
      insert into customer (uid, name, last_name, email, phone, created_at, updated_at)
      select 'crece-' || n,
             (array['Ana','Luis','María','José','Sofía','Diego','Valeria','Carlos','Fernanda','Jorge','Camila','Miguel','Daniela','Andrés','Lucía','Ricardo','Paola','Héctor','Ximena','Emilio'])[1 + n % 20],
             (array['García','Hernández','Martínez','López','González','Pérez','Rodríguez','Sánchez','Ramírez','Cruz','Flores','Gómez','Morales','Vázquez','Reyes','Jiménez','Torres','Díaz','Gutiérrez','Ruiz','Mendoza','Aguilar','Ortiz','Moreno','Castillo','Romero','Álvarez','Méndez','Chávez','Rivera'])[1 + (n / 20) % 30]
               || ' ' || (array['Núñez','Domínguez','Herrera','Medina','Castro','Vargas','Ramos','Salazar','Guerrero','Rojas','Luna','Ortega','Delgado','Campos','Fuentes','Cabrera','Ríos','Acosta','Peña','Soto'])[1 + (n / 600) % 20],
             'crece-' || n || '@crece.demo',
             '55' || lpad(n::text, 8, '0'),
             ${day}::timestamptz - make_interval(days => ${newestGap} + ${unitDays} * (n / ${unitCustomers}) + 1) + make_interval(secs => n % ${unitCustomers}),
             ${day}::timestamptz - make_interval(days => ${newestGap} + ${unitDays} * (n / ${unitCustomers}) + 1) + make_interval(secs => n % ${unitCustomers})
        from generate_series(${a * unitCustomers}::int, ${(b + 1) * unitCustomers - 1}::int) n`;
    // Two paid packs each, bought an hour and two after signing up, in cash; access ends after the unit's last class.
    await sql`
      insert into purchase (customer_id, class_package_id, payment_method_id, title, amount, total_payment, class_amount, expiration_days, status, provider, expiration_date, created_at, updated_at)
      select c.customer_id, p.class_package_id, ${ids.cash}, p.title, p.price, p.price, 10, 30, 'completed', 'cash',
             ${day}::timestamptz - make_interval(days => ${newestGap} + ${unitDays} * (substr(c.uid, 7)::int / ${unitCustomers} - 1)) + interval '6 hours',
             c.created_at + make_interval(hours => k), c.created_at + make_interval(hours => k)
        from customer c
        cross join generate_series(1, 2) k
        cross join (select * from class_package where class_package_id = ${ids.pack}) p
       where c.uid like 'crece-%' and substr(c.uid, 7)::int between ${a * unitCustomers} and ${(b + 1) * unitCustomers - 1}`;
    // The first pack's credit is spent (0 left, ten reservations below); the second expires with its 10.
    await sql`
      insert into available_classes (customer_id, purchase_id, available_classes, expiration_date, created_at, updated_at)
      select p.customer_id, p.purchase_id, case when p.created_at = c.created_at + interval '1 hour' then 0 else 10 end, p.expiration_date, p.created_at, p.created_at
        from purchase p join customer c on c.customer_id = p.customer_id
       where c.uid like 'crece-%' and substr(c.uid, 7)::int between ${a * unitCustomers} and ${(b + 1) * unitCustomers - 1}`;
    // Customer i of a unit books classes (10i + j) mod 288, j = 0..9: ten distinct classes, at most 70 of 80 places each.
    await sql`
      insert into class_reservation (single_class_id, customer_id, available_class_id, attend, attended_at, credit_returned, created_at, updated_at, access_code)
      select s.single_class_id, c.customer_id, ac.available_class_id, j < 9, case when j < 9 then s.class_date end, null, s.class_date - interval '1 day', s.class_date,
             -- Unique and in the codes' alphabet (0-9 are in it), without reservation_access_code()'s per-row cost.
             'Z' || lpad((10 * substr(c.uid, 7)::int + j)::text, 9, '0')
        from customer c
        cross join lateral (select substr(c.uid, 7)::int / ${unitCustomers} as g, substr(c.uid, 7)::int % ${unitCustomers} as i) u
        join available_classes ac on ac.customer_id = c.customer_id and ac.available_classes = 0 and ac.purchase_id is not null
        cross join generate_series(0, 9) j
        join single_class s on s.description = 'crece'
         and s.class_date = ${day}::timestamptz
             - make_interval(days => ${newestGap} + ${unitDays} * (u.g - 1) + 1 + ((10 * u.i + j) % ${unitClasses}) / ${classesPerDay})
             + make_interval(hours => 12 + ((10 * u.i + j) % ${unitClasses}) % ${classesPerDay})
       where c.uid like 'crece-%' and substr(c.uid, 7)::int between ${a * unitCustomers} and ${(b + 1) * unitCustomers - 1}`;
    // The desk booked a tenth of them: audit rows as staff-booking.ts writes them.
    await sql`
      insert into audit_log (customer_id, action, entity, entity_id, changes, created_at)
      select ${ids.admin}, 'create', 'class_reservation', r.class_reservation_id::text, jsonb_build_object('customer_id', r.customer_id, 'single_class_id', r.single_class_id), r.created_at
        from class_reservation r join customer c on c.customer_id = r.customer_id
       where c.uid like 'crece-%' and substr(c.uid, 7)::int between ${a * unitCustomers} and ${(b + 1) * unitCustomers - 1}
         and r.class_reservation_id % 10 = 0`;
    // One change-log row per new row, in this transaction, as sync_log_change() writes it.
    await sql`
      insert into sync_change (txid, table_name, row_key)
      select pg_current_xact_id()::text::bigint, t, k from (
                  select 'single_class' as t, jsonb_build_object('single_class_id', single_class_id) as k from single_class where single_class_id > ${before.sc}
        union all select 'single_class_instructor', jsonb_build_object('single_class_id', single_class_id, 'instructor_id', instructor_id) from single_class_instructor where single_class_id > ${before.sc}
        union all select 'customer', jsonb_build_object('customer_id', customer_id) from customer where customer_id > ${before.cu}
        union all select 'purchase', jsonb_build_object('purchase_id', purchase_id) from purchase where purchase_id > ${before.pu}
        union all select 'available_classes', jsonb_build_object('available_class_id', available_class_id) from available_classes where available_class_id > ${before.ac}
        union all select 'class_reservation', jsonb_build_object('class_reservation_id', class_reservation_id) from class_reservation where class_reservation_id > ${before.cr}) x`;
    });
    console.log(`  unidades ${a}–${b}: ${((Date.now() - t0) / 1000).toFixed(0)} s (${elapsed()} en total)`);
  }
  await sql.unsafe('vacuum analyze');
}

async function call(base: string, op: Operation, i: number): Promise<number> {
  const r = op.request(i);
  const t0 = performance.now();
  const res = await fetch(`${base}${r.path}`, {
    method: r.method,
    headers: {
      ...(r.token ? { authorization: `Bearer ${r.token}` } : {}),
      ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(r.body !== undefined ? { body: JSON.stringify(r.body) } : {}),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${op.name}: ${r.method} ${r.path} → ${res.status} ${text.slice(0, 300)}`);
  return ms;
}

/**
 * Warm-up, `sequential` one after another (p50, p95), then `concurrentRequests` with `concurrency` in flight (req/s).
 * Each phase stops early after `phaseSeconds` (at least 5 sequential requests), so an operation that does not stay
 * flat cannot stretch the run: its figures come from fewer requests, and say so (`n`).
 */
async function measure(base: string, op: Operation): Promise<Figure> {
  let i = 0;
  for (let w = 0; w < warmUp; w++) await call(base, op, i++);
  const times: number[] = [];
  const seqUntil = performance.now() + phaseSeconds * 1000;
  for (let s = 0; s < sequential && (s < 5 || performance.now() < seqUntil); s++) times.push(await call(base, op, i++));
  times.sort((x, y) => x - y);
  const t0 = performance.now();
  const until = t0 + phaseSeconds * 1000;
  let left = concurrentRequests;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0 && performance.now() < until) {
        await call(base, op, i++);
        done++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { p50: percentile(times, 50), p95: percentile(times, 95), rps: done / seconds, n: times.length + done };
}

/** The operations at one size: fresh bookers and a fresh class with room, the rest shared. */
async function operations(size: number): Promise<Operation[]> {
  const tz = studioTimeZone(await loadStudioSettings(orm));
  const now = new Date();
  const week = weekOf(now, tz);
  const studioDate = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
  const today = studioDate.format(now);
  // The reports' month, from its first day, but no more than the last 27 days: the second-newest unit's packs expire
  // 28 days before `day`, so on the 29th to the 31st the month held them too, and its answer doubled from 1x (one
  // unit) to 10x (decision 062's run measured 2.83 times the blocks for twice the customers, not for more history).
  const firstOfMonth = `${today.slice(0, 8)}01`;
  const lastDays = studioDate.format(new Date(now.getTime() - 26 * 24 * 3600_000));
  const monthStart = firstOfMonth > lastDays ? firstOfMonth : lastDays;
  const perOperation = warmUp + sequential + concurrentRequests;
  const classId = await newClass(orm, { minutesAhead: 3 * 24 * 60, capacity: perOperation + 10, classType: 'Yoga' });
  const bookers = await createBookers(orm, secret, perOperation, { prefix: `bnch-crece-${size}` });
  const signer = createIdTokenSigner(secret, 3600);
  // Customers of the first unit: the same ten past reservations at every size.
  const regulars = await Promise.all(
    Array.from({ length: 50 }, (_, i) => signer.sign({ uid: `crece-${unitCustomers + i * 37}`, email: `crece-${unitCustomers + i * 37}@crece.demo` })),
  );
  const [admin] = await sql<{ uid: string; email: string }[]>`select uid, email from customer where role = 'admin' and uid is not null order by customer_id limit 1`;
  if (!admin) throw new Error('the seed has no admin');
  const adminToken = await signer.sign({ uid: admin.uid, email: admin.email });
  const weekPath = `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`;
  return [
    { name: 'semana (anónimo)', request: () => ({ method: 'GET', path: weekPath }) },
    { name: 'semana (con sesión)', request: (i) => ({ method: 'GET', path: weekPath, token: regulars[i % regulars.length] }) },
    { name: 'reservar', request: (i) => ({ method: 'POST', path: '/api/class_reservations', token: bookers[i]?.token, body: { single_class_id: classId } }) },
    { name: 'mis reservaciones', request: (i) => ({ method: 'GET', path: '/api/class_reservations/mine?page=1&filter=all', token: regulars[i % regulars.length] }) },
    // One person, by a piece of the e-mail (what a desk types). A text with digits also finds the phones that have
    // them: 'crece-2053@' is her row at 1x, and 12 rows at 10x and 40 at 100x (phones 55 + the number on 8 digits).
    {
      name: 'buscar cliente (uno)',
      request: (i) => ({ method: 'GET', path: `/api/customer/admin/all?query=crece-${unitCustomers + ((i * 53) % unitCustomers)}%40&page=1&limit=20`, token: adminToken }),
    },
    // A common last name: matches a thirtieth of the customers, so its total grows with them.
    { name: 'buscar cliente (común)', request: () => ({ method: 'GET', path: '/api/customer/admin/all?query=mendoza&page=1&limit=20', token: adminToken }) },
    { name: 'corte de caja (hoy)', request: () => ({ method: 'GET', path: `/api/reports/cash_up?date=${today}`, token: adminToken }) },
    { name: 'reporte clientes (mes)', request: () => ({ method: 'GET', path: `/api/reports/customers?start_date=${monthStart}&end_date=${today}`, token: adminToken }) },
    { name: 'reporte ventas (mes)', request: () => ({ method: 'GET', path: `/api/reports/sales?start_date=${monthStart}&end_date=${today}`, token: adminToken }) },
  ];
}

async function startServer(extra: Record<string, string> = {}): Promise<ChildServer> {
  const server = await startChild('server/src/main.ts', port, {
    DATABASE_URL: db.url,
    NODE_ENV: 'test',
    AUTH_SECRET: secret,
    AUTH_RATE_LIMIT_MAX: '1000000',
    ...extra,
  });
  // The server migrates at start: indexes to measure without are dropped after it (the "before" run of decision 044).
  for (const name of dropIndexes) await sql.unsafe(`drop index if exists "${name}"`);
  return server;
}

interface Explained {
  blocks: number;
  ms: number;
  lines: string[];
}

/**
 * Each operation once more through a server whose sessions load auto_explain (ANALYZE, BUFFERS), the delivery worker
 * and the clock off so only the operation's statements are logged; per operation, the shared blocks its statements
 * touched (a figure the machine's load does not move), their time in the database and each statement's plan summary.
 */
async function explainAll(size: number): Promise<Map<string, Explained>> {
  const out = new Map<string, Explained>();
  await sql.unsafe(
    `alter database "${dbName}" set session_preload_libraries = 'auto_explain'; ` +
      `alter database "${dbName}" set auto_explain.log_min_duration = 0; alter database "${dbName}" set auto_explain.log_analyze = on; ` +
      `alter database "${dbName}" set auto_explain.log_buffers = on; alter database "${dbName}" set auto_explain.log_format = 'json'`,
  );
  const server = await startServer({ MESSAGES_WORKER: 'off', CLOCK: 'off' });
  try {
    for (const op of await operations(size * 1000)) {
      await call(server.base, op, 0);
      await new Promise((r) => setTimeout(r, 200));
      const offset = statSync(postgresLog).size;
      await call(server.base, op, 1);
      await new Promise((r) => setTimeout(r, 300));
      const entry: Explained = { blocks: 0, ms: 0, lines: [] };
      for (const p of readPlans(offset)) {
        const text = p.text.replace(/\s+/g, ' ').trim();
        if (/^(begin|commit|rollback|set |select 1$)/i.test(text)) continue;
        entry.blocks += (p.plan['Shared Hit Blocks'] ?? 0) + (p.plan['Shared Read Blocks'] ?? 0);
        entry.ms += p.ms;
        entry.lines.push(`    ${p.ms.toFixed(2).padStart(8)} ms  ${text.slice(0, 110)}`, `                 ${summarize(p.plan)}`);
      }
      out.set(op.name, entry);
    }
  } finally {
    await server.stop();
    await sql.unsafe(`alter database "${dbName}" reset all`);
  }
  return out;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Total Time'?: number;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Sort Key'?: string[];
  Plans?: PlanNode[];
}

/** What auto_explain wrote for this database since `offset`: each statement's text and plan. */
function readPlans(offset: number): { text: string; ms: number; plan: PlanNode }[] {
  const size = statSync(postgresLog).size;
  const fd = openSync(postgresLog, 'r');
  const buf = Buffer.alloc(size - offset);
  readSync(fd, buf, 0, buf.length, offset);
  closeSync(fd);
  const out: { text: string; ms: number; plan: PlanNode }[] = [];
  const entries = buf.toString('utf8').split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/);
  for (const entry of entries) {
    const head = entry.match(new RegExp(`@${dbName} LOG:  duration: ([\\d.]+) ms  plan:\\n`));
    if (!head) continue;
    try {
      const json = JSON.parse(entry.slice((head.index ?? 0) + head[0].length)) as { 'Query Text': string; Plan: PlanNode };
      out.push({ text: json['Query Text'], ms: Number(head[1]), plan: json.Plan });
    } catch {
      // A plan cut by the log's rotation: skipped.
    }
  }
  return out;
}

function summarize(plan: PlanNode): string {
  const seq: string[] = [];
  const notes: string[] = [];
  const walk = (n: PlanNode) => {
    if (n['Node Type'] === 'Seq Scan') seq.push(`${n['Relation Name']} (${n['Actual Rows']} filas, ${n['Actual Total Time']?.toFixed(1)} ms)`);
    if (n['Node Type'] === 'Sort') notes.push(`Sort ${(n['Sort Key'] ?? []).join(',').slice(0, 60)}`);
    if (n['Index Name']) notes.push(`${n['Node Type']} ${n['Index Name']}`);
    n.Plans?.forEach(walk);
  };
  walk(plan);
  const blocks = (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
  return (
    `${plan['Node Type']}, ${blocks} bloques; ` +
    (seq.length ? `Seq Scan en ${seq.join(', ')}` : 'sin Seq Scan') +
    (notes.length ? `; ${[...new Set(notes)].join('; ')}` : '')
  );
}

const results = new Map<number, Map<string, Figure>>();
const explained = new Map<number, Map<string, Explained>>();
try {
  const day = (await sql<{ day: string }[]>`select date_trunc('day', now())::text as day`)[0]?.day ?? '';
  let grown = 0;
  const names: string[] = [];
  for (const size of sizes) {
    console.log(`\nTamaño ${size}×: creciendo de ${grown} a ${size} unidades…`);
    await grow(grown + 1, size, day);
    grown = size;
    const [counts] = await sql<{ customers: number; reservations: number; classes: number; changes: number; audit: number }[]>`
      select (select count(*) from customer)::int as customers, (select count(*) from class_reservation)::int as reservations,
             (select count(*) from single_class)::int as classes, (select count(*) from sync_change)::int as changes,
             (select count(*) from audit_log)::int as audit`;
    console.log(
      `  ${counts?.customers} clientes, ${counts?.reservations} reservaciones, ${counts?.classes} clases, ${counts?.changes} cambios en sync_change, ${counts?.audit} filas de auditoría`,
    );
    const ops = await operations(size);
    const server = await startServer();
    const figures = new Map<string, Figure>();
    try {
      for (const op of ops) {
        figures.set(op.name, await measure(server.base, op));
        if (!names.includes(op.name)) names.push(op.name);
      }
    } finally {
      await server.stop();
    }
    results.set(size, figures);
    if (explain) {
      const plans = await explainAll(size);
      explained.set(size, plans);
      if (size === sizes[sizes.length - 1]) {
        console.log(`\nPlanes a ${size}× (auto_explain, ANALYZE y BUFFERS; la segunda petición de cada operación):`);
        for (const [name, entry] of plans) console.log(`\n  ${name}:\n${entry.lines.join('\n')}`);
      }
    }
    console.log(`  medido (${elapsed()}; carga de la máquina, 1 min: ${loadavg()[0]?.toFixed(1)} en ${cpus().length} núcleos)`);
  }

  const base = results.get(sizes[0] ?? 1);
  console.log(`\nCifras por tamaño (p50 y p95 de ${sequential} peticiones seguidas, ms; req/s de ${concurrentRequests} con ${concurrency} a la vez) y razón a ${sizes[0]}×:`);
  console.log(`${'operación'.padEnd(24)} ${sizes.map((s) => `${`${s}×`.padStart(6)} p50    p95   req/s  razón p50 req/s`).join(' | ')}`);
  for (const name of names) {
    const b = base?.get(name);
    const cells = sizes.map((s) => {
      const f = results.get(s)?.get(name);
      if (!f || !b) return ''.padEnd(40);
      return `${f.p50.toFixed(1).padStart(9)} ${f.p95.toFixed(1).padStart(6)} ${f.rps.toFixed(0).padStart(6)}  ${(f.p50 / b.p50).toFixed(2).padStart(5)} ${(b.rps / f.rps).toFixed(2).padStart(5)}${f.n < sequential + concurrentRequests ? '*' : ' '}`;
    });
    console.log(`${name.padEnd(24)} ${cells.join(' | ')}`);
  }
  console.log('(razón p50: p50 a ese tamaño / p50 a 1×; razón req/s: req/s a 1× / req/s a ese tamaño. 1.5 es el límite.');
  console.log(` * : cortada a los ${phaseSeconds} s por fase, con menos peticiones.)`);

  const first = explained.get(sizes[0] ?? 1);
  if (first) {
    console.log(`\nBloques compartidos que tocan las sentencias de una petición (auto_explain BUFFERS) y su tiempo en la base, y razón a ${sizes[0]}×:`);
    for (const name of names) {
      const b = first.get(name);
      const cells = sizes.map((s) => {
        const e = explained.get(s)?.get(name);
        if (!e || !b) return '';
        return `${`${s}×`.padStart(5)} ${String(e.blocks).padStart(7)} bloques ${e.ms.toFixed(1).padStart(7)} ms  razón ${(e.blocks / Math.max(1, b.blocks)).toFixed(2).padStart(6)}`;
      });
      console.log(`${name.padEnd(24)} ${cells.join(' | ')}`);
    }
  }

  const broken = await sql.unsafe<{ invariante: string; cantidad: string }[]>(readFileSync(path.join(import.meta.dirname, 'invariants.sql'), 'utf8'));
  if (broken.length === 0) console.log('\nInvariantes (bench/invariants.sql): los datos son consistentes.');
  else {
    failed = true;
    console.log(`\nInvariantes violados: ${broken.map((r) => `${r.invariante} ${r.cantidad}`).join(', ')}`);
  }
  console.log(`Duración total: ${elapsed()}`);
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  if (keep) {
    console.log(`Base conservada: ${dbName}`);
    await db.handle.close();
  } else await db.drop();
}
if (failed) process.exitCode = 1;
