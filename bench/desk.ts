// Front-desk figures, on PostgreSQL with 20,000 customers and
// 50,000 reservations:
//   1. replica first sync (snapshot, and replaying the log from its start);
//   2. scan-to-screen check-in time in the desk service (p50, p95 over 500
//      scans of different reservations: read the QR link, find its access code in the
//      replica, record the optimistic check-in and its outbox row, answer);
//   3. server write → replica with the poke (p50, p95): a write committed on
//      the server until the desk's replica shows it;
//   4. customer search latency per keystroke over the 20,000 customers (every
//      prefix of names, surnames, phone digits and an e-mail, typed without accents),
//      and of names typed with a slip ('ramires', 'alvares pena');
//   5. the desk's memory (resident set of this process, which runs only the
//      desk: the server runs in a child process);
//   6. the same desk in Chromium (desk:web, bench/desk-screen.ts), on classes of
//      25 people: a scan typed into the page until the verdict with the name is
//      painted, and a server write until the Today screen paints it; and the
//      scans again with the packaged desk alone in its own process (6b), as a
//      studio runs it, on other reservations of the same classes. With
//      BENCH_SCREENS_BEFORE (screens built from an earlier commit), those
//      screens are scanned too, on the same desk, for a before/after ratio.
//      With BENCH_DESK_BEFORE (a checkout of an earlier commit, its
//      node_modules installed), that commit's packaged desk is served alone
//      too, with this commit's screens, in alternating halves with this one's;
//   7. the rosters read again after one reservation was written (what the
//      Today screen asks after each change), and with BENCH_DESK_BEFORE the
//      earlier commit's read of them on the same replica, alternately.
//
//   npx tsx bench/desk.ts
//
// Uses TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres)
// for a fresh seeded database, dropped at the end. Knobs: BENCH_CUSTOMERS (20000),
// BENCH_RESERVATIONS (50000), BENCH_SCANS (500), BENCH_WRITES (200), BENCH_SCREEN_SCANS (100),
// BENCH_SCREEN_WRITES (50).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql as drizzleSql } from 'drizzle-orm';
import { searchKey } from '@estudio/core';
import { class_reservation } from '@estudio/db';
import { createTestDb } from '@estudio/db/testing';
import { DeskService } from '../desktop/src/service/desk-service.ts';
import { syncDeps } from '../desktop/src/service/sync-deps.ts';
import { createHttpServerLink } from '../sync/src/client/http-link.ts';
import { openReplica } from '../sync/src/client/replica.ts';
import { bundleDeskMemory, deskMemory, residentLine, serveDeskAlone, startBenchServer, type DeskMemoryFigures } from './desk-memory-run.ts';
import { buildDeskScreens, measureDeskScreen, measureDeskScreenHere, type DeskScreenFigures } from './desk-screen.ts';
import { createSyncClient } from '../sync/src/client/sync-client.ts';
import { deskServiceV8Flags } from '../desktop/src/service/process-protocol.ts';
import { classesBetween, todayClasses } from '../desktop/src/service/queries/today.ts';

// The desk measured here runs in this process: with the V8 flags the desk's service process starts with in Electron
// (BENCH_V8_DEFAULTS=1 keeps V8's own, to compare).
if (!process.env.BENCH_V8_DEFAULTS && !deskServiceV8Flags.every((flag) => process.execArgv.includes(flag))) {
  const again = spawnSync(process.execPath, [...deskServiceV8Flags, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

process.env.TEST_DATABASE_URL ||= 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const customers = Number(process.env.BENCH_CUSTOMERS ?? 20_000);
const reservations = Number(process.env.BENCH_RESERVATIONS ?? 50_000);
const scans = Number(process.env.BENCH_SCANS ?? 500);
const writes = Number(process.env.BENCH_WRITES ?? 200);
const screenScans = Number(process.env.BENCH_SCREEN_SCANS ?? 100);
const screenWrites = Number(process.env.BENCH_SCREEN_WRITES ?? 50);
// The desk's screens built from an earlier commit (bench/README.md): scanned on the same desk after this commit's,
// on rosters of their own, for a before/after ratio in one run.
const screensBefore = process.env.BENCH_SCREENS_BEFORE;
// A checkout of an earlier commit: its packaged desk alone, and its read of today's rosters, beside this one's.
const deskBefore = process.env.BENCH_DESK_BEFORE ? path.resolve(process.env.BENCH_DESK_BEFORE) : undefined;
const screenRosterSets = 2 + (screensBefore ? 1 : 0) + (deskBefore ? 1 : 0);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const ratioOf = (these: number[], earlier: number[], p: number) =>
  (percentile([...these].sort((a, b) => a - b), p) / percentile([...earlier].sort((a, b) => a - b), p)).toFixed(2);
function summary(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(1)} ms, p95 ${percentile(s, 95).toFixed(1)} ms, max ${(s.at(-1) ?? NaN).toFixed(1)} ms (n=${s.length})`;
}
const joinedScreens = (a: DeskScreenFigures, b: DeskScreenFigures): DeskScreenFigures => ({
  scanToScreen: [...a.scanToScreen, ...b.scanToScreen],
  scanPhases: [...a.scanPhases, ...b.scanPhases],
  writeToScreen: [...a.writeToScreen, ...b.writeToScreen],
  backToToday: [...a.backToToday, ...b.backToToday],
  opened: [...a.opened, ...b.opened],
});
const rssMb = () => (process.memoryUsage().rss / 1024 / 1024).toFixed(0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`tiempo agotado: ${what}`);
    await sleep(5);
  }
}

// ---------------------------------------------------------------- data
const testDb = await createTestDb();
if (testDb.kind !== 'postgres' || !testDb.url) throw new Error('bench/desk.ts necesita PostgreSQL (TEST_DATABASE_URL)');
const sql = testDb.client;
console.log('Preparando datos…');
// Real names, with their accents, so the search is measured on what staff type without them.
const firstNames = ['Sofía', 'María José', 'Andrea', 'Luis', 'Jorge', 'Fernanda', 'Héctor', 'Valentina', 'Diego', 'Camila', 'José Luis', 'Ximena', 'Regina', 'Iñaki', 'Ana'];
const surnames = ['García', 'Hernández', 'López', 'Martínez', 'Pérez', 'Rodríguez', 'Sánchez', 'Ramírez', 'Torres', 'Flores', 'Gómez', 'Díaz', 'Álvarez', 'Romero', 'Núñez', 'Peña', 'Castro', 'Ortiz', 'Jiménez', 'Ruiz'];
await sql.begin(async (tx) => {
  const [{ n = 0 } = {}] = await tx<{ n: number }[]>`select count(*)::int as n from customer`;
  await tx`
    insert into customer (name, last_name, email, phone)
    select (${firstNames}::text[])[1 + g % ${firstNames.length}],
      (${surnames}::text[])[1 + (g * 7) % ${surnames.length}] || ' ' || (${surnames}::text[])[1 + (g * 13) % ${surnames.length - 1}],
      'banco' || g || '@estudio.demo', (7700000000 + (g * 7919) % 99999999)::text
    from generate_series(1, ${Math.max(0, customers - n)}) g`;
  const [{ r = 0 } = {}] = await tx<{ r: number }[]>`select count(*)::int as r from class_reservation`;
  // Past classes of 25 people fill the history; every customer books several.
  const needed = Math.max(0, reservations - r - scans);
  const classes = Math.ceil(needed / 25);
  await tx`
    insert into single_class (class_date, capacity, location_id, class_type_id)
    select now() - (g || ' hours')::interval - interval '2 days', 25,
      (select min(location_id) from location), (select min(class_type_id) from class_type)
    from generate_series(1, ${classes}) g`;
  await tx`
    insert into class_reservation (single_class_id, customer_id, attend, created_at)
    select c.single_class_id, cu.customer_id, true, c.class_date - interval '1 day'
    from (select single_class_id, class_date, row_number() over (order by single_class_id) as n
          from single_class where capacity = 25 and class_date < now() - interval '2 days') c
    cross join lateral (
      select customer_id from customer order by customer_id offset ((c.n * 25) % ${customers - 25}) limit 25
    ) cu
    limit ${needed}`;
  // Today: one large class with a reservation per scan, each of a different customer: a third for the desk in this
  // process, a third each for the desk's own process with and without its V8 flags (2b).
  await tx`
    insert into single_class (class_date, capacity, location_id, class_type_id)
    values (now() + interval '5 minutes', ${scans * 3 + 50}, (select min(location_id) from location), (select min(class_type_id) from class_type))`;
  await tx`
    insert into class_reservation (single_class_id, customer_id)
    select (select max(single_class_id) from single_class), customer_id from customer
    where email like 'banco%' order by customer_id limit ${scans * 3}`;
  // For the scans in Chromium: classes of a real size (25 people, capacity 30) later this morning, in one location,
  // so the screen shows what a receptionist's does, not a 500-person roster.
  await tx`
    insert into single_class (class_date, capacity, location_id, class_type_id)
    select now() + interval '10 minutes' + (g || ' minutes')::interval, 30, (select max(location_id) from location), (select min(class_type_id) from class_type)
    from generate_series(1, ${Math.ceil(screenScans / 25) * screenRosterSets}) g`;
  await tx`
    insert into class_reservation (single_class_id, customer_id)
    select c.single_class_id, cu.customer_id
    from (select single_class_id, row_number() over (order by single_class_id) as n from single_class where capacity = 30 and class_date > now()) c
    cross join lateral (
      select customer_id from customer where email like 'banco%' order by customer_id offset ${scans * 3} + (c.n - 1) * 25 limit 25
    ) cu`;
});
const [counts] = await sql<{ customers: number; reservations: number; changes: number }[]>`
  select (select count(*)::int from customer) as customers, (select count(*)::int from class_reservation) as reservations,
    (select count(*)::int from sync_change) as changes`;
console.log(`Datos: ${counts?.customers} clientes, ${counts?.reservations} reservaciones, ${counts?.changes} cambios en el log`);

// ---------------------------------------------------------------- server (child process)
const server = await startBenchServer({ DATABASE_URL: testDb.url });
const serverUrl = server.url;

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-desk-'));
  dirs.push(dir);
  return dir;
};

try {
  // ---------------------------------------------------------------- 1. first sync
  const rssBefore = rssMb();
  // BENCH_REPLICA_SHARED_BUFFERS compares the replica's buffers ('128MB' is PGlite's own default).
  const buffers = process.env.BENCH_REPLICA_SHARED_BUFFERS;
  const deps = buffers ? { ...syncDeps, openReplica: (dir: string) => openReplica({ dataDir: dir, sharedBuffers: buffers }) } : syncDeps;
  const desk = new DeskService({ dataDir: tempDir(), serverUrl }, deps);
  await desk.start();
  let t0 = performance.now();
  await desk.signIn('recepcion@estudio.demo', 'Demo1234!');
  await waitFor(() => desk.status().ready && !desk.status().syncing, 600_000, 'primera sincronización');
  const snapshotMs = performance.now() - t0;
  const rssAfterSync = rssMb();

  // ---------------------------------------------------------------- 2. scan to screen
  const today = await desk.today();
  const big = today.locations.flatMap((l) => l.classes).sort((a, b) => b.roster.length - a.roster.length)[0];
  if (!big || big.roster.length < scans * 3) throw new Error('no está la clase grande de hoy en la réplica');
  // The QR's link carries the reservation's random access code (decision 016); the desk finds it by that code.
  const codes = new Map(
    (
      await desk.db
        .select({ id: class_reservation.class_reservation_id, code: class_reservation.access_code })
        .from(class_reservation)
        .where(eq(class_reservation.single_class_id, big.single_class_id))
    ).map((r) => [r.id, r.code]),
  );
  const scanTimes: number[] = [];
  for (const entry of big.roster.slice(0, scans)) {
    const started = performance.now();
    const result = await desk.scan(`http://127.0.0.1:3000/admin/reservaciones/${entry.class_reservation_id}/${codes.get(entry.class_reservation_id)}`);
    scanTimes.push(performance.now() - started);
    if (!result.checkedIn) throw new Error(`no se registró ${entry.class_reservation_id}`);
  }
  await waitFor(() => desk.status().pending === 0, 120_000, 'envío de los check-ins');

  // ---------------------------------------------------------------- 2b. the desk's memory on its own
  // A second desk in its own process (bench/desk-memory.ts): this one also seeded the data and holds the
  // server's client, so its own figures overstate the desk. It scans the same codes (already checked in).
  const scanUrls = big.roster.slice(0, scans).map((e) => `http://127.0.0.1:3000/admin/reservaciones/${e.class_reservation_id}/${codes.get(e.class_reservation_id)}`);
  const codesFile = path.join(tempDir(), 'codes.json');
  writeFileSync(codesFile, JSON.stringify(scanUrls));
  const aloneDir = tempDir();
  const alone = await deskMemory(serverUrl, aloneDir, codesFile);
  // The same desk started again on its replica, as every morning after the first: no initdb, the sync only catches up.
  const again = await deskMemory(serverUrl, aloneDir, codesFile);
  // As packaged: bundled, on a replica of its own, at its first start and again.
  const bundle = await bundleDeskMemory();
  dirs.push(path.dirname(path.dirname(bundle)));
  const packagedDir = tempDir();
  const packaged = await deskMemory(serverUrl, packagedDir, codesFile, bundle);
  const packagedAgain = await deskMemory(serverUrl, packagedDir, codesFile, bundle);
  // The scan timed in the desk's own process, packaged, each on reservations not yet checked in: with the V8 flags
  // Electron starts it with, and with V8's defaults (as it ran in Electron's main process before decision 134).
  const freshCodes = (from: number) => {
    const file = path.join(tempDir(), 'codes.json');
    const urls = big.roster.slice(from, from + scans).map((e) => `http://127.0.0.1:3000/admin/reservaciones/${e.class_reservation_id}/${codes.get(e.class_reservation_id)}`);
    writeFileSync(file, JSON.stringify(urls));
    return file;
  };
  const withFlags = await deskMemory(serverUrl, tempDir(), freshCodes(scans), bundle);
  const withDefaults = await deskMemory(serverUrl, tempDir(), freshCodes(scans * 2), bundle, []);

  // ---------------------------------------------------------------- 3. server write → replica
  const writeTimes: number[] = [];
  const target = big.roster[0]!;
  for (let i = 0; i < writes; i++) {
    const guest = `Invitado ${i}`;
    const arrived = new Promise<number>((resolve) => {
      const stop = desk.onChange(async () => {
        const [row] = await desk.db
          .select({ guest: class_reservation.guest })
          .from(class_reservation)
          .where(eq(class_reservation.class_reservation_id, target.class_reservation_id));
        if (row?.guest === guest) {
          stop();
          resolve(performance.now());
        }
      });
    });
    const started = performance.now();
    await sql`update class_reservation set guest = ${guest} where class_reservation_id = ${target.class_reservation_id}`;
    writeTimes.push((await arrived) - started);
  }

  // ---------------------------------------------------------------- 4. search
  // Per keystroke, as typed at the counter: every prefix of names and surnames
  // typed without accents, both surnames, name and surname, the last digits of
  // a phone, an e-mail. The first search after the sync is included.
  const searchTimes: number[] = [];
  const typed = await sql<{ name: string; last_name: string; phone: string; email: string }[]>`
    select name, last_name, phone, email from customer where email in ('banco1234@estudio.demo', 'banco777@estudio.demo', 'banco15001@estudio.demo', 'banco9999@estudio.demo')`;
  const queries = [
    'hernandez', 'lopez', 'alvarez', 'sofia', 'maria jose', 'inaki',
    ...typed.flatMap((c) => {
      const [first = '', second = ''] = c.last_name.split(' ');
      return [searchKey(`${c.name} ${first}`), searchKey(`${first} ${second}`), searchKey(second), c.phone.slice(-4), c.phone.slice(2, 8), c.email];
    }),
  ];
  let searchMisses = 0;
  for (let round = 0; round < 10; round++) {
    for (const q of queries) {
      for (let len = 1; len <= q.length; len++) {
        const started = performance.now();
        const hits = await desk.searchCustomers(q.slice(0, len));
        searchTimes.push(performance.now() - started);
        if (len === q.length && hits.length === 0) {
          searchMisses++;
          console.error(`sin resultados: ${q}`);
        }
      }
    }
  }
  if (searchMisses) throw new Error(`la búsqueda no encontró a nadie ${searchMisses} veces`);
  // With a slip, as Mexico spells its names every day: every keystroke of each, the whole of it must find someone.
  const typoTimes: number[] = [];
  const withSlips = ['ramires', 'hernandes', 'alvares pena', 'sofia gomes', 'jimenes ruis', 'fernanda martines', 'rodrigues', 'ximena nunes'];
  for (let round = 0; round < 10; round++) {
    for (const q of withSlips) {
      for (let len = 1; len <= q.length; len++) {
        const started = performance.now();
        const hits = await desk.searchCustomers(q.slice(0, len));
        typoTimes.push(performance.now() - started);
        if (len === q.length && hits.length === 0) throw new Error(`la búsqueda con una falta no encontró a nadie: ${q}`);
      }
    }
  }

  // The desk service's memory, before this process also builds the screens and drives Chromium.
  const rssEnd = rssMb();

  // ---------------------------------------------------------------- 7. the rosters read again after a change
  // After each change the Today screen reads today's classes and rosters again. Here one reservation of a
  // class of 25 is written (the same values, as a second write of a check-in would be), then the rosters are
  // read: the whole day, with the bench's 1,500-person class, and the classes of a real size alone. With an
  // earlier checkout, its read too, after a write of its own, in alternating order.
  type RosterReads = { todayClasses: typeof todayClasses; classesBetween: typeof classesBetween };
  const readsHere: RosterReads = { todayClasses, classesBetween };
  const readsBefore = deskBefore ? ((await import(path.join(deskBefore, 'desktop/src/service/queries/today.ts'))) as RosterReads) : undefined;
  const dayNow = await desk.today();
  const realSizedIds = dayNow.locations.flatMap((l) => l.classes).filter((c) => c.capacity === 30).map((c) => c.single_class_id);
  const writtenRow = dayNow.locations.flatMap((l) => l.classes).find((c) => c.capacity === 30)!.roster[0]!.class_reservation_id;
  const [dayStart, dayEnd] = [new Date(Date.now() - 86_400_000), new Date(Date.now() + 86_400_000)];
  const timedReads = (reads: RosterReads) => ({ reads, day: [] as number[], realSized: [] as number[] });
  const readsHereTimed = timedReads(readsHere);
  const readsBeforeTimed = readsBefore ? timedReads(readsBefore) : undefined;
  const timedRead = async ({ reads, day, realSized }: ReturnType<typeof timedReads>) => {
    await desk.db.execute(drizzleSql`update class_reservation set attend = attend where class_reservation_id = ${writtenRow}`);
    let started = performance.now();
    await reads.todayClasses(desk.db);
    day.push(performance.now() - started);
    await desk.db.execute(drizzleSql`update class_reservation set attend = attend where class_reservation_id = ${writtenRow}`);
    started = performance.now();
    await reads.classesBetween(desk.db, dayStart, dayEnd, realSizedIds);
    realSized.push(performance.now() - started);
  };
  for (let i = 0; i < 100; i++) {
    const both = readsBeforeTimed ? [readsHereTimed, readsBeforeTimed] : [readsHereTimed];
    for (const reads of i % 2 === 0 ? both : both.reverse()) await timedRead(reads);
  }

  // ---------------------------------------------------------------- 6. in Chromium
  const realSized = (await desk.today()).locations.flatMap((l) => l.classes).filter((c) => c.capacity === 30);
  // The first part for this desk, the second for the packaged desk alone (6b), the third for the earlier screens.
  const realRosters = realSized.flatMap((c) => c.roster);
  const screenEntries = realRosters.slice(0, screenScans);
  const aloneEntries = realRosters.slice(screenScans, screenScans * 2);
  const beforeEntries = realRosters.slice(screenScans * 2, screenScans * 3);
  const aloneBeforeEntries = realRosters.slice(screenScans * (screensBefore ? 3 : 2), screenScans * (screensBefore ? 4 : 3));
  if (aloneEntries.length < screenScans || (screensBefore && beforeEntries.length < screenScans) || (deskBefore && aloneBeforeEntries.length < screenScans)) {
    throw new Error('faltan reservaciones para escanear en Chromium');
  }
  const screenCodes = new Map(
    (
      await desk.db
        .select({ id: class_reservation.class_reservation_id, code: class_reservation.access_code })
        .from(class_reservation)
        .where(inArray(class_reservation.single_class_id, realSized.map((c) => c.single_class_id)))
    ).map((r) => [r.id, r.code]),
  );
  // A row of the last class scanned: its location is the one on screen.
  const screenTarget = screenEntries.at(-1)!;
  const screensDir = await buildDeskScreens();
  dirs.push(screensDir);
  const toScan = (entries: typeof screenEntries) =>
    entries.map((entry) => ({
      code: `http://127.0.0.1:3000/admin/reservaciones/${entry.class_reservation_id}/${screenCodes.get(entry.class_reservation_id)}`,
      name: `${entry.name} ${entry.last_name}`.replace(/\s+/g, ' ').trim(),
    }));
  const writeMarker = async (marker: string) => {
    await sql`update class_reservation set guest = ${marker} where class_reservation_id = ${screenTarget.class_reservation_id}`;
  };
  const scanWith = (distDir: string, entries: typeof screenEntries, screenWritesHere: number) =>
    measureDeskScreenHere({ desk, distDir, scans: toScan(entries), writes: screenWritesHere, write: writeMarker });
  let screen: DeskScreenFigures;
  let screenBefore: DeskScreenFigures | undefined;
  if (!screensBefore) {
    screen = await scanWith(screensDir, screenEntries, screenWrites);
  } else {
    // Half of each set, in the order this, earlier, earlier, this: neither set of screens is always the first
    // page on the desk nor always the last.
    // The writes too, half on each page of a set: the rosters' refresh drawn by both sets of screens.
    const half = Math.floor(screenScans / 2);
    const halfOfWrites = Math.ceil(screenWrites / 2);
    const firstOfThese = await scanWith(screensDir, screenEntries.slice(0, half), halfOfWrites);
    const firstOfEarlier = await scanWith(screensBefore, beforeEntries.slice(0, half), halfOfWrites);
    const restOfEarlier = await scanWith(screensBefore, beforeEntries.slice(half), screenWrites - halfOfWrites);
    const restOfThese = await scanWith(screensDir, screenEntries.slice(half), screenWrites - halfOfWrites);
    screen = joinedScreens(firstOfThese, restOfThese);
    screenBefore = joinedScreens(firstOfEarlier, restOfEarlier);
  }

  await desk.close();

  // ---------------------------------------------------------------- 6b. the packaged desk alone, in Chromium
  // As a studio runs it: bundled, in its own process with its V8 flags, nothing else of the bench in that process;
  // and as on every morning after the first, started again on its replica (the first sync was another day).
  // With an earlier checkout, its packaged desk too, on a replica of its own, in halves: this, earlier, earlier, this.
  const servedDir = tempDir();
  await (await serveDeskAlone(serverUrl, servedDir, bundle, screensDir)).finish();
  const scanAlone = async (bundleHere: string, dataDir: string, entries: typeof screenEntries) => {
    const served = await serveDeskAlone(serverUrl, dataDir, bundleHere, screensDir);
    try {
      return await measureDeskScreen({ url: served.url, key: served.key, scans: toScan(entries), writes: 0, write: async () => {} });
    } finally {
      await served.finish();
    }
  };
  let screenAlone: DeskScreenFigures;
  let screenAloneBefore: DeskScreenFigures | undefined;
  if (!deskBefore) {
    screenAlone = await scanAlone(bundle, servedDir, aloneEntries);
  } else {
    const bundleBefore = await bundleDeskMemory(deskBefore);
    dirs.push(path.dirname(path.dirname(bundleBefore)));
    const servedBeforeDir = tempDir();
    await (await serveDeskAlone(serverUrl, servedBeforeDir, bundleBefore, screensDir)).finish();
    const half = Math.floor(screenScans / 2);
    const firstOfThis = await scanAlone(bundle, servedDir, aloneEntries.slice(0, half));
    const firstOfEarlier = await scanAlone(bundleBefore, servedBeforeDir, aloneBeforeEntries.slice(0, half));
    const restOfEarlier = await scanAlone(bundleBefore, servedBeforeDir, aloneBeforeEntries.slice(half));
    const restOfThis = await scanAlone(bundle, servedDir, aloneEntries.slice(half));
    screenAlone = joinedScreens(firstOfThis, restOfThis);
    screenAloneBefore = joinedScreens(firstOfEarlier, restOfEarlier);
  }

  // ---------------------------------------------------------------- 1b. first sync from the log
  // The same first sync by replaying the log from its start (no desk service around it).
  const tokens = (await (
    await fetch(`${serverUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@estudio.demo', password: 'Demo1234!' }),
    })
  ).json()) as { idToken: string };
  const logReplica = await openReplica({ dataDir: tempDir() });
  const logClient = createSyncClient({
    replica: logReplica,
    link: createHttpServerLink({ url: `${serverUrl}/trpc`, getToken: async () => tokens.idToken }),
    clientId: crypto.randomUUID(),
    firstSync: 'log',
  });
  t0 = performance.now();
  await logClient.start();
  await waitFor(() => logClient.status().ready && !logClient.status().syncing, 900_000, 'sincronización desde el log');
  const logMs = performance.now() - t0;
  await logClient.stop();
  await logReplica.close();


  console.log('\nRecepción (PostgreSQL; servidor en otro proceso; escritorio en este):');
  console.log(`  primera sincronización, instantánea: ${(snapshotMs / 1000).toFixed(1)} s`);
  console.log(`  primera sincronización, log desde el inicio: ${(logMs / 1000).toFixed(1)} s`);
  console.log(`  escaneo → pantalla (check-in en el servicio de recepción): ${summary(scanTimes)}`);
  // Which scans were slow (the first ones, the page warming up, or any), and where a scan's time goes in the page:
  // before the request leaves, the desk's answer, React until the name, the paint.
  const onScreen = (label: string, figures: DeskScreenFigures) => {
    console.log(`  ${label}: ${summary(figures.scanToScreen)}`);
    const slowest = figures.scanToScreen.map((ms, i) => ({ ms, i })).sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(`    los más lentos (n.º de escaneo: ms): ${slowest.map((s) => `${s.i + 1}: ${s.ms.toFixed(0)}`).join(', ')}`);
    // Each of them in its phases (taken by the page / sent / the request / to the name / to the paint), to see which one made it slow.
    const phasesOf = (i: number) => {
      const p = figures.scanPhases[i]!;
      return [p.taken, p.sent - p.taken, p.answered - p.sent, p.shown - p.answered, figures.scanToScreen[i]! - p.shown].map((ms) => ms.toFixed(0)).join('/');
    };
    console.log(`    y sus fases (espera/salida/petición/nombre/pintado, ms): ${slowest.map((s) => `${s.i + 1}: ${phasesOf(s.i)}`).join(', ')}`);
    const phase = (pick: (p: DeskScreenFigures['scanPhases'][number], painted: number) => number) =>
      summary(figures.scanPhases.map((p, i) => pick(p, figures.scanToScreen[i] ?? NaN)));
    console.log(`    hasta que la página toma el escaneo (ocupada aún con el anterior): ${phase((p) => p.taken)}`);
    console.log(`    hasta que sale la petición: ${phase((p) => p.sent - p.taken)}`);
    console.log(`    la petición (red y servicio): ${phase((p) => p.answered - p.sent)}`);
    console.log(`    de la respuesta al nombre en la página: ${phase((p) => p.shown - p.answered)}`);
    console.log(`    del nombre en la página a pintado: ${phase((p, painted) => painted - p.shown)}`);
    console.log(`    de Clientes a Hoy, las listas pintadas otra vez: ${summary(figures.backToToday)}`);
    const openedOf = (pick: (o: DeskScreenFigures['opened'][number]) => number) => figures.opened.map((o) => `${pick(o).toFixed(0)} ms`).join(', ');
    console.log(`    la página abierta, por página: una sede pintada ${openedOf((o) => o.shown)}; todas las sedes dibujadas ${openedOf((o) => o.all)}`);
    if (figures.writeToScreen.length > 0) console.log(`    escritura en el servidor → pantalla de Hoy: ${summary(figures.writeToScreen)}`);
  };
  onScreen('escaneo → pantalla en Chromium (veredicto con el nombre pintado)', screen);
  if (screenBefore) {
    onScreen(`lo mismo con las pantallas de antes (${screensBefore}), en la misma recepción, por mitades alternadas`, screenBefore);
    const ratio = (p: number) => ratioOf(screen.scanToScreen, screenBefore.scanToScreen, p);
    console.log(`    estas pantallas ÷ las de antes: p50 ${ratio(50)}×, p95 ${ratio(95)}×`);
    console.log(`    de Clientes a Hoy, estas ÷ las de antes: p50 ${ratioOf(screen.backToToday, screenBefore.backToToday, 50)}×`);
    const openedRatio = (pick: (o: DeskScreenFigures['opened'][number]) => number) => ratioOf(screen.opened.map(pick), screenBefore.opened.map(pick), 50);
    console.log(`    la página abierta, estas ÷ las de antes (p50 de las páginas): una sede pintada ${openedRatio((o) => o.shown)}×, todas ${openedRatio((o) => o.all)}×`);
    const writesRatio = (p: number) => ratioOf(screen.writeToScreen, screenBefore.writeToScreen, p);
    console.log(`    escritura → pantalla de Hoy, estas ÷ las de antes: p50 ${writesRatio(50)}×, p95 ${writesRatio(95)}×`);
  }
  onScreen('lo mismo con la recepción empaquetada sola en su propio proceso, como la instala el estudio', screenAlone);
  if (screenAloneBefore) {
    onScreen(`lo mismo con la recepción empaquetada de antes (${deskBefore}), sola, con estas pantallas, por mitades alternadas`, screenAloneBefore);
    console.log(`    esta recepción ÷ la de antes: p50 ${ratioOf(screenAlone.scanToScreen, screenAloneBefore.scanToScreen, 50)}×, p95 ${ratioOf(screenAlone.scanToScreen, screenAloneBefore.scanToScreen, 95)}×`);
  }
  console.log(`  lectura de las listas de hoy tras escribir una reservación, el día entero (con la clase de ${big.roster.length}): ${summary(readsHereTimed.day)}`);
  console.log(`    solo las clases de tamaño real (${realSizedIds.length}): ${summary(readsHereTimed.realSized)}`);
  if (readsBeforeTimed) {
    const [thisRead, earlier] = [readsHereTimed, readsBeforeTimed];
    console.log(`    la de antes, el día entero: ${summary(earlier.day)}; solo las de tamaño real: ${summary(earlier.realSized)}`);
    console.log(
      `    esta ÷ la de antes: el día entero p50 ${ratioOf(thisRead.day, earlier.day, 50)}×, p95 ${ratioOf(thisRead.day, earlier.day, 95)}×; ` +
        `tamaño real p50 ${ratioOf(thisRead.realSized, earlier.realSized, 50)}×, p95 ${ratioOf(thisRead.realSized, earlier.realSized, 95)}×`,
    );
  }
  console.log(`  escritura en el servidor → réplica (poke): ${summary(writeTimes)}`);
  console.log(`  búsqueda de clientes por tecla (${counts?.customers} clientes): ${summary(searchTimes)}`);
  console.log(`  búsqueda con faltas de ortografía por tecla: ${summary(typoTimes)}`);
  console.log(`  memoria de este proceso (siembra, cliente del servidor y recepción): ${rssBefore} MB al abrir, ${rssAfterSync} MB tras sincronizar, ${rssEnd} MB al final`);
  console.log(
    `  memoria de la recepción sola (RSS, su propio proceso): ${alone.loaded.rss} MB con el código cargado, ${alone.opened.rss} MB con la réplica abierta, ` +
      `${alone.synced.rss} MB tras la primera sincronización, ${alone.scanned.rss} MB tras ${alone.scans} escaneos; ` +
      `de ello, memoria de PGlite (WebAssembly) ${alone.synced.external} MB y montículo de JS ${alone.synced.heap} MB`,
  );
  console.log(`  memoria de la recepción sola al arrancar otra vez sobre su réplica: ${again.opened.rss} MB abierta, ${again.synced.rss} MB al día, ${again.scanned.rss} MB tras ${again.scans} escaneos`);
  console.log(
    `  memoria de la recepción empaquetada (un solo archivo, como la instala el estudio): ${packaged.loaded.rss} MB con el código cargado, ` +
      `${packaged.synced.rss} MB tras la primera sincronización, ${packaged.scanned.rss} MB tras ${packaged.scans} escaneos; al arrancar otra vez ${packagedAgain.synced.rss} MB al día, ` +
      `${packagedAgain.scanned.rss} MB tras los escaneos`,
  );
  console.log(`    ${residentLine(packaged.synced)}`);
  const startAndSync = (f: DeskMemoryFigures) => `réplica nueva abierta en ${(f.startMs / 1000).toFixed(1)} s, primera sincronización en ${(f.syncMs / 1000).toFixed(1)} s`;
  console.log(`  escaneo en el proceso propio de la recepción, empaquetada, con sus opciones de V8 (${deskServiceV8Flags.join(' ')}): ${summary(withFlags.scanTimes)}; ${withFlags.synced.rss} MB tras la primera sincronización; ${startAndSync(withFlags)}`);
  console.log(`  lo mismo con las opciones de V8 por omisión: ${summary(withDefaults.scanTimes)}; ${withDefaults.synced.rss} MB tras la primera sincronización; ${startAndSync(withDefaults)}`);
  const p95 = (samples: number[]) => percentile([...samples].sort((a, b) => a - b), 95);
  console.log(`  razón del p95 del escaneo, con opciones / por omisión: ${(p95(withFlags.scanTimes) / p95(withDefaults.scanTimes)).toFixed(2)}×`);
  // The first scans after the first sync warm the JIT up: the tail without them is the collections' and the machine's.
  console.log(`  sin los primeros 50 escaneos: con opciones ${summary(withFlags.scanTimes.slice(50))}; por omisión ${summary(withDefaults.scanTimes.slice(50))}`);
  console.log(`  los primeros 50: con opciones ${summary(withFlags.scanTimes.slice(0, 50))}; por omisión ${summary(withDefaults.scanTimes.slice(0, 50))}`);
} finally {
  await server.stop();
  await testDb.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
