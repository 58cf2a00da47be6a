// The desk service's memory on its own: a child process of bench/desk.ts that
// opens a replica with the desk's loopback server in front of it, as the desk's
// service process runs (desktop/src/web/service-process.ts, with its V8 flags),
// signs in as Recepción, waits for the first sync and says its
// resident set (RSS) and what part of it is PGlite's WebAssembly memory, at
// start, after the sync and after `scans` scans of the studio's access codes.
// Alone, so nothing the bench itself does (seeding, the server's client, the
// screens) is counted.
//
// Or, with BENCH_DESK_WEB_DIST, it also serves its screens to Chromium until told to end.
//
//   node --expose-gc --import tsx bench/desk-memory.ts <serverUrl> <dataDir> [codes.json]
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DeskService } from '../desktop/src/service/desk-service.ts';
import { startDeskWeb } from '../desktop/src/web/server.ts';
import { syncDeps } from '../desktop/src/service/sync-deps.ts';
import { openReplica } from '../sync/src/client/replica.ts';

const [serverUrl, dataDir, codesFile] = process.argv.slice(2);
if (!serverUrl || !dataDir) throw new Error('uso: desk-memory.ts <serverUrl> <dataDir> [codes.json]');
const mb = (n: number) => Math.round(n / 1024 / 1024);
const settle = async () => {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 300));
};
/**
 * Where the resident set is (Linux's /proc/self/smaps): mapped files (the executable's own code), malloc's heap,
 * and anonymous memory: the JS heap, the pages of PGlite's WebAssembly memory PostgreSQL has touched, and the
 * machine code V8 compiled PGlite's WebAssembly into.
 */
function residentParts(): { files: number; malloc: number; anonymous: number } {
  const parts = { files: 0, malloc: 0, anonymous: 0 };
  let part: keyof typeof parts = 'anonymous';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[1] ?? '';
      part = name === '[heap]' ? 'malloc' : name.startsWith('/') ? 'files' : 'anonymous';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) parts[part] += Number(rss[1]) * 1024;
  }
  return { files: mb(parts.files), malloc: mb(parts.malloc), anonymous: mb(parts.anonymous) };
}
const figures = () => {
  const m = process.memoryUsage();
  // PGlite's WebAssembly memory is an ArrayBuffer outside the JS heap: 'external' holds its size, not what is touched.
  return { rss: mb(m.rss), heap: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external), ...residentParts() };
};

const loaded = figures();
// BENCH_REPLICA_SHARED_BUFFERS compares the replica's buffers ('128MB' is PGlite's own default).
const buffers = process.env.BENCH_REPLICA_SHARED_BUFFERS;
const deps = buffers ? { ...syncDeps, openReplica: (dir: string) => openReplica({ dataDir: dir, sharedBuffers: buffers }) } : syncDeps;
const desk = new DeskService({ dataDir, serverUrl }, deps);
const startStarted = performance.now();
await desk.start();
const startMs = Math.round(performance.now() - startStarted);
// BENCH_DESK_WEB_DIST (the built screens) and BENCH_DESK_WEB_KEY: the desk serves its screens too, and stays up
// until its stdin ends, for Chromium (bench/desk-screen.ts). Otherwise the folder only has to exist.
const screens = process.env.BENCH_DESK_WEB_DIST;
const web = await startDeskWeb({ port: 0, distDir: screens ?? tmpdir(), desk, key: process.env.BENCH_DESK_WEB_KEY });
await settle();
const opened = figures();
const syncStarted = performance.now();
await desk.signIn('recepcion@estudio.demo', 'Demo1234!');
const until = Date.now() + 600_000;
while (!(desk.status().ready && !desk.status().syncing)) {
  if (Date.now() > until) throw new Error('la primera sincronización no terminó');
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const syncMs = Math.round(performance.now() - syncStarted);
await settle();
const synced = figures();
const codes: string[] = codesFile ? JSON.parse(readFileSync(codesFile, 'utf8')) : [];
const scanTimes: number[] = [];
for (const code of codes) {
  const started = performance.now();
  await desk.scan(code);
  scanTimes.push(performance.now() - started);
}
await settle();
const scanned = figures();
if (screens) {
  console.log(JSON.stringify({ serving: web.port }));
  await new Promise((resolve) => process.stdin.once('end', resolve).resume());
}
console.log(JSON.stringify({ loaded, opened, synced, scanned, startMs, syncMs, scans: codes.length, scanTimes }));
await web.close();
process.exit(0);
