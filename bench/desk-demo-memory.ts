// The front desk's memory on the demo studio (200 customers): a server on its
// embedded defaults (PGlite, the demo seed) in a child process, and the desk
// service alone in its own process (bench/desk-memory.ts) signed in as
// Recepción: its resident set after the first sync and when started again on
// its replica, as TypeScript (a development run) and bundled (as packaged).
//
//   npx tsx bench/desk-demo-memory.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleDeskMemory, deskMemory, type DeskMemoryFigures } from './desk-memory-run.ts';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'bench-desk-demo-'));
const port = 3900 + Math.floor(Math.random() * 90);
const serverUrl = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    DATA_DIR: path.join(work, 'server'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    AUTH_SECRET: 'banco-de-pruebas-de-la-recepcion-32+caracteres',
    AUTH_RATE_LIMIT_MAX: '1000',
    PORTAL_DIST: path.join(work, 'sin-portal'),
  },
});
let bundleDir: string | null = null;
try {
  const until = Date.now() + 180_000;
  while ((await fetch(`${serverUrl}/api/health`).catch(() => null))?.ok !== true) {
    if (Date.now() > until) throw new Error('el servidor no arrancó');
    await new Promise((r) => setTimeout(r, 250));
  }
  const bundle = await bundleDeskMemory();
  bundleDir = path.dirname(path.dirname(bundle));
  const line = (label: string, first: DeskMemoryFigures, again: DeskMemoryFigures) =>
    console.log(
      `  ${label}: ${first.loaded.rss} MB con el código cargado, ${first.synced.rss} MB tras la primera sincronización ` +
        `(PGlite ${first.synced.external} MB, montículo ${first.synced.heap} MB); al arrancar otra vez ${again.synced.rss} MB`,
    );
  console.log('\nRecepción sobre el estudio de demostración (RSS de su propio proceso):');
  for (const [label, file] of [['TypeScript (desarrollo)', undefined], ['empaquetada', bundle]] as const) {
    const dir = path.join(work, `replica-${file ? 'bundle' : 'tsx'}`);
    const first = await deskMemory(serverUrl, dir, null, file);
    const again = await deskMemory(serverUrl, dir, null, file);
    line(label, first, again);
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(work, { recursive: true, force: true });
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
}
