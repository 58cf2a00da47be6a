// The profile behind bench/api-budget.ts's week row (decision 041):
// runs server/src/main.ts of a source tree under `node --cpu-prof` on a fresh
// seeded PostgreSQL database, loads GET /api/single_class for this week
// (anonymous) with autocannon, stops the server and prints where the busy
// samples' self time went: by library (drizzle, zod, postgres.js, tRPC,
// Fastify, GC, V8/native) and the top functions. Start-up is in the profile
// too (module compilation shows as a few per cent).
//
//   npx tsx bench/api-budget-profile.ts [tree] [profile dir]
//
// tree: a checkout of the product (default: this one; a `git worktree` of an
// older commit with node_modules linked profiles the before). Knobs:
// BENCH_PORT (3312), BENCH_DURATION (15 s), BENCH_CONNECTIONS (20),
// TEST_DATABASE_URL as bench/api-budget.ts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { studioTimeZone, weekOf } from '@estudio/core';
import { loadStudioSettings } from '../server/src/services/schedule/studio-settings.ts';
import { freshDatabase } from './child-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const tree = path.resolve(process.argv[2] ?? root);
const profDir = process.argv[3] ?? mkdtempSync(path.join(tmpdir(), 'perfil-semana-'));
const port = Number(process.env.BENCH_PORT ?? 3312);
const duration = Number(process.env.BENCH_DURATION ?? 15);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

// autocannon ships no types (the other benches call it from .mjs); this is the one call made here.
const { default: autocannon } = (await import('autocannon' as string)) as {
  default: (options: { url: string; connections: number; duration: number }) => Promise<{ requests: { average: number }; '2xx': number; non2xx: number }>;
};

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

function bucketOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)') return name;
  if (url.includes('drizzle-orm')) return 'drizzle';
  if (/node_modules\/zod/.test(url)) return 'zod';
  if (url.includes('postgres/src')) return 'postgres.js';
  if (/trpc-to-openapi|@trpc/.test(url)) return 'tRPC / trpc-to-openapi';
  if (/fastify|find-my-way|light-my-request|avvio|pino/.test(url)) return 'Fastify / pino';
  if (url.includes('dayjs')) return 'dayjs';
  if (!url.includes('node_modules') && url.startsWith('file://')) return 'product code';
  if (url.startsWith('node:') || url === '') return 'V8 / native (JSON, sockets, crypto)';
  return 'other libraries';
}

/** Self time of the busy samples, by library and by function. */
function summarise(file: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const dt = profile.timeDeltas[i] ?? 0;
    if (!frame || frame.functionName === '(idle)') return;
    busy += dt;
    const bucket = bucketOf(frame.url, frame.functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + dt);
    const where = frame.url.replace(/.*node_modules\//, '').replace(`file://${tree}/`, '');
    const key = `${frame.functionName || '(anónima)'} ${where}:${frame.lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + dt);
  });
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)} %`;
  console.log(`\nTiempo ocupado: ${(busy / 1e6).toFixed(1)} s. Por biblioteca:`);
  for (const [name, t] of [...buckets].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(t)}  ${name}`);
  console.log('Funciones con más tiempo propio:');
  for (const [name, t] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(t)}  ${name.slice(0, 110)}`);
}

const db = await freshDatabase(adminUrl, 'bnch_perfil');
try {
  const week = weekOf(new Date(), studioTimeZone(await loadStudioSettings(db.handle.db)));
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--import', 'tsx', path.join(tree, 'server/src/main.ts')], {
    cwd: tree,
    stdio: 'inherit',
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      AUTH_SECRET: 'banco-de-presupuesto-del-estudio-con-32-caracteres',
      PORTAL_DIST: path.join(tmpdir(), 'sin-portal'),
    },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`el servidor terminó al arrancar (${child.exitCode})`);
    if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const url = `http://127.0.0.1:${port}/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`;
  const result = await autocannon({ url, connections, duration });
  console.log(`${tree}: ${result.requests.average} req/s, ${result['2xx']} respuestas 2xx, ${result.non2xx} otras`);
  child.kill('SIGTERM');
  await exited;
  // The main thread's profile is the largest (tsx's loader thread writes a small one too).
  const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
  const main = files.map((f) => path.join(profDir, f)).sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
  if (!main) throw new Error(`sin perfil en ${profDir}`);
  console.log(`Perfil: ${main}`);
  summarise(main);
} finally {
  await db.drop();
}
