// The production build against the TypeScript sources run through tsx (decision 073), in one run
// on PostgreSQL: the same server, the same database and the same traffic, started either as
//   built:  node server/dist/main.mjs   (scripts/build-server.mjs, into .tmp/bench-build-<pid>)
//   tsx:    node --import tsx server/src/main.ts
// For each start: the time from launch to the first 200 of GET /api/appconfig (migrations
// already applied, the warm-up of decision 057 included), the resident memory once idle, and the
// highest resident memory under bench/load.ts's mix of requests (bench/load-mix.mjs). Memory is
// the process's and its children's (tsx runs esbuild as a child process), read from /proc.
// BENCH_ROUNDS (3) rounds, the order alternating; medians and the ratio built / tsx.
//
//   npx tsx bench/production-build.ts        (TEST_DATABASE_URL, default postgres://postgres:postgres@127.0.0.1:5432/postgres)
//
// BENCH_IDLE_SECONDS (15): the wait before the idle reading. BENCH_LOAD_SECONDS (20) and
// BENCH_CONNECTIONS (20): the load. BENCH_PORT (3350).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { studioTimeZone, weekOf } from '@estudio/core';
import { app_config } from '@estudio/db/schema/app-config';
import { loadStudioSettings } from '../server/src/services/schedule/studio-settings.ts';
import { createBookers, newClass } from '../server/test/support/reservations-fixtures.ts';
import { freshDatabase } from './child-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
const loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const totalConnections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const port = Number(process.env.BENCH_PORT ?? 3350);
const secret = 'banco-de-la-compilacion-con-32-caracteres-o-mas';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const share = (weight: number) => Math.max(1, Math.round(totalConnections * weight));
const connections = { anonWeek: share(0.36), signedWeek: share(0.24), book: share(0.2), mine: share(0.1), videos: share(0.1) };

/** Resident memory of a process and all its descendants, in MB (0 once it is gone). */
function treeRssMb(pid: number): number {
  let kb = 0;
  const walk = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      kb += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        for (const child of children ? children.split(/\s+/) : []) walk(Number(child));
      }
    } catch {
      // The process ended while it was read.
    }
  };
  walk(pid);
  return kb / 1024;
}

interface Sample {
  startMs: number;
  idleMb: number;
  loadPeakMb: number;
  answered: number;
}

const build = path.join(root, '.tmp', `bench-build-${process.pid}`);
const variants: Record<string, string[]> = {
  built: [path.join(build, 'main.mjs')],
  tsx: ['--import', 'tsx', path.join(root, 'server', 'src', 'main.ts')],
};

const db = await freshDatabase(adminUrl, 'bnch_build');
try {
  const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-server.mjs'), '--outdir', path.relative(root, build)], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`la compilación falló: ${built.stderr}`);
  console.log(built.stdout.trim());

  const { db: orm } = db.handle;
  await orm.insert(app_config).values({ key: 'max_cancels_per_available_class', value: '0' }).onConflictDoUpdate({ target: app_config.key, set: { value: '0' } });
  const classIds: number[] = [];
  for (let i = 0; i < 10; i++) classIds.push(await newClass(orm, { minutesAhead: 2 * 24 * 60 + i * 4 * 60, capacity: 400, classType: 'Yoga' }));
  const bookers = await createBookers(orm, secret, 300, { credits: 5, prefix: 'bnch-compilacion' });
  const tz = studioTimeZone(await loadStudioSettings(orm));
  const thisWeek = weekOf(new Date(), tz);
  const nextWeek = weekOf(new Date(Date.parse(`${thisWeek.end_date}T12:00:00Z`) + 2 * 86_400_000), 'UTC');

  async function measure(name: string, exclude: number[]): Promise<Sample & { stillBooked: number[] }> {
    const launched = performance.now();
    const child = spawn(process.execPath, variants[name] as string[], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: db.url, AUTH_SECRET: secret, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PORTAL_DIST: path.join(tmpdir(), 'sin-portal') },
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const base = `http://127.0.0.1:${port}`;
    try {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`${name} terminó al arrancar: ${stderr}`);
        if (await fetch(`${base}/api/appconfig`).then((r) => r.ok, () => false)) break;
        if (performance.now() - launched > 120_000) throw new Error(`${name} no respondió en 120 s: ${stderr}`);
        await sleep(20);
      }
      const startMs = performance.now() - launched;
      await sleep(idleSeconds * 1000);
      const idleMb = treeRssMb(child.pid as number);
      let loadPeakMb = idleMb;
      const sampler = setInterval(() => (loadPeakMb = Math.max(loadPeakMb, treeRssMb(child.pid as number))), 200);
      const result = await new Promise<{ stats: Record<string, { latencies: number[] }>; stillBooked: number[] }>((resolve, reject) => {
        const worker = new Worker(new URL('./load-mix.mjs', import.meta.url), {
          workerData: { base, duration: loadSeconds, tokens: bookers.map((b) => b.token), classIds, weeks: [thisWeek, thisWeek, nextWeek], connections, exclude },
        });
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      clearInterval(sampler);
      const answered = Object.values(result.stats).reduce((n, s) => n + s.latencies.length, 0);
      return { startMs, idleMb, loadPeakMb, answered, stillBooked: result.stillBooked };
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    }
  }

  const samples: Record<string, Sample[]> = { built: [], tsx: [] };
  let exclude: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['built', 'tsx'] : ['tsx', 'built'];
    for (const name of order) {
      const sample = await measure(name, exclude);
      // Customers a run left booked stay out of the next one's bookings.
      exclude = [...new Set([...exclude, ...sample.stillBooked])];
      (samples[name] as Sample[]).push(sample);
      console.log(
        `  ronda ${round + 1}, ${name.padEnd(5)}: arranque ${(sample.startMs / 1000).toFixed(2)} s, en reposo ${sample.idleMb.toFixed(0)} MB, ` +
          `bajo carga hasta ${sample.loadPeakMb.toFixed(0)} MB, ${(sample.answered / loadSeconds).toFixed(0)} req/s`,
      );
    }
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const of = (name: string, key: keyof Sample) => median((samples[name] as Sample[]).map((s) => s[key]));
  console.log(`\nMedianas de ${rounds} rondas (compilado / tsx):`);
  const rows: [string, keyof Sample, (v: number) => string][] = [
    ['arranque hasta la primera respuesta', 'startMs', (v) => `${(v / 1000).toFixed(2)} s`],
    [`memoria en reposo (${idleSeconds} s después)`, 'idleMb', (v) => `${v.toFixed(0)} MB`],
    [`memoria máxima bajo carga (${loadSeconds} s, ${totalConnections} conexiones)`, 'loadPeakMb', (v) => `${v.toFixed(0)} MB`],
  ];
  for (const [label, key, format] of rows) {
    const b = of('built', key);
    const t = of('tsx', key);
    console.log(`  ${label}: ${format(b)} / ${format(t)} = ${(b / t).toFixed(2)}`);
  }
  const rate = (name: string) => of(name, 'answered') / loadSeconds;
  console.log(`  solicitudes respondidas por segundo bajo carga: ${rate('built').toFixed(0)} / ${rate('tsx').toFixed(0)} = ${(rate('built') / rate('tsx')).toFixed(2)}`);
} finally {
  rmSync(build, { recursive: true, force: true });
  await db.drop();
}
