// The front desk's memory on the demo studio (200 customers): a server on its
// embedded defaults (PGlite, the demo seed) in a child process, and the desk
// service alone in its own process (bench/desk-memory.ts) signed in as
// Recepción: its resident set after the first sync and when started again on
// its replica, as TypeScript (a development run) and bundled (as packaged).
//
//   npx tsx bench/desk-demo-memory.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleDeskMemory, deskMemory, residentLine, startBenchServer, type DeskMemoryFigures } from './desk-memory-run.ts';

const work = mkdtempSync(path.join(tmpdir(), 'bench-desk-demo-'));
const server = await startBenchServer({ DATA_DIR: path.join(work, 'server'), PORTAL_DIST: path.join(work, 'sin-portal') });
const serverUrl = server.url;
let bundleDir: string | null = null;
try {
  const bundle = await bundleDeskMemory();
  bundleDir = path.dirname(path.dirname(bundle));
  const line = (label: string, first: DeskMemoryFigures, again: DeskMemoryFigures) =>
    console.log(
      `  ${label}: ${first.loaded.rss} MB con el código cargado, ${first.synced.rss} MB tras la primera sincronización ` +
        `(PGlite ${first.synced.external} MB, montículo ${first.synced.heap} MB); al arrancar otra vez ${again.synced.rss} MB\n    ${residentLine(first.synced)}`,
    );
  console.log('\nRecepción sobre el estudio de demostración (RSS de su propio proceso):');
  for (const [label, file] of [['TypeScript (desarrollo)', undefined], ['empaquetada', bundle]] as const) {
    const dir = path.join(work, `replica-${file ? 'bundle' : 'tsx'}`);
    const first = await deskMemory(serverUrl, dir, null, file);
    const again = await deskMemory(serverUrl, dir, null, file);
    line(label, first, again);
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
}
