// Runs bench/desk-memory.ts (the desk service alone in its own process) for the benches: as TypeScript through the
// loader of a development run, or bundled as the packaged desk runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deskServiceV8Flags } from '../desktop/src/service/process-protocol.ts';

const root = path.resolve(import.meta.dirname, '..');

export interface MemoryFigures {
  rss: number;
  heap: number;
  heapTotal: number;
  external: number;
  /** The resident set by kind (bench/desk-memory.ts, residentParts), MB. */
  files: number;
  malloc: number;
  anonymous: number;
}

export interface DeskMemoryFigures {
  loaded: MemoryFigures;
  opened: MemoryFigures;
  synced: MemoryFigures;
  scanned: MemoryFigures;
  /** Opening the replica (and creating it at a first start), ms. */
  startMs: number;
  /** From signing in until the first sync ended, ms. */
  syncMs: number;
  scans: number;
  /** Each scan's time in this desk, ms (the codes' order). */
  scanTimes: number[];
}

/**
 * bench/desk-memory.ts bundled as the packaged desk's main process is (electron.vite.config.ts: the workspace and
 * its libraries in one file, PGlite beside it, the migrations at ../migrations): a desk at a studio runs that, not
 * the TypeScript loader of a development run. `from`: the checkout to bundle (another commit's, to compare).
 */
export async function bundleDeskMemory(from = root): Promise<string> {
  const dir = path.join(root, '.tmp', `bench-desk-bundle-${process.pid}-${from === root ? 'this' : path.basename(from)}`);
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(from, 'bench/desk-memory.ts')],
    outfile: path.join(dir, 'main', 'desk-memory.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['@electric-sql/pglite', 'electron'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  cpSync(path.join(from, 'db/migrations'), path.join(dir, 'migrations'), { recursive: true });
  return path.join(dir, 'main', 'desk-memory.mjs');
}

/** What a resident set is made of, in words for the benches' lines. */
export function residentLine(f: MemoryFigures): string {
  return (
    `de los ${f.rss} MB: archivos mapeados (el código del ejecutable) ${f.files} MB, malloc ${f.malloc} MB, memoria anónima ${f.anonymous} MB ` +
    `(el montículo de JS ${f.heapTotal} MB; lo demás, las páginas de PGlite que PostgreSQL tocó de sus ${f.external} MB y el código máquina de su WebAssembly)`
  );
}

/** Starts bench/desk-memory.ts (as TypeScript, or its bundle) against the server, with the desk's V8 flags unless told otherwise. */
function spawnDeskMemory(serverUrl: string, dataDir: string, codesFile: string | null, bundle: string | undefined, v8Flags: readonly string[], env: Record<string, string> = {}) {
  const args = bundle ? ['--expose-gc', ...v8Flags, bundle] : ['--expose-gc', ...v8Flags, '--import', 'tsx', 'bench/desk-memory.ts'];
  const child = spawn(process.execPath, [...args, serverUrl, dataDir, ...(codesFile ? [codesFile] : [])], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  let out = '';
  // The port the desk serves its screens on, from its '{"serving": port}' line (BENCH_DESK_WEB_DIST).
  let servingAt: (port: number) => void = () => {};
  const serving = new Promise<number>((resolve) => (servingAt = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const line = /^\{"serving":(\d+)\}$/m.exec(out);
    if (line) servingAt(Number(line[1]));
  });
  const figures = new Promise<DeskMemoryFigures>((resolve, reject) => {
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`la recepción sola terminó con ${code}: ${out}`));
      resolve(JSON.parse(line));
    });
  });
  return { child, figures, serving };
}

/** Runs bench/desk-memory.ts (as TypeScript, or its bundle) against the server and reads its figures. */
export function deskMemory(
  serverUrl: string,
  dataDir: string,
  codesFile: string | null,
  bundle?: string,
  v8Flags: readonly string[] = deskServiceV8Flags,
): Promise<DeskMemoryFigures> {
  const run = spawnDeskMemory(serverUrl, dataDir, codesFile, bundle, v8Flags);
  run.child.stdin.end();
  return run.figures;
}

/**
 * The packaged desk alone in its own process, as a studio runs it (bench/desk-memory.ts bundled, the desk's V8
 * flags), serving the screens in `distDir` once its first sync is done: its address and key for Chromium, and
 * `finish()` to end it and read its figures.
 */
export async function serveDeskAlone(serverUrl: string, dataDir: string, bundle: string, distDir: string): Promise<{ url: string; key: string; finish(): Promise<DeskMemoryFigures> }> {
  const key = `bench-alone-${process.pid}`;
  const run = spawnDeskMemory(serverUrl, dataDir, null, bundle, deskServiceV8Flags, { BENCH_DESK_WEB_DIST: distDir, BENCH_DESK_WEB_KEY: key });
  const port = await Promise.race([
    run.serving,
    run.figures.then(() => Promise.reject(new Error('la recepción sola terminó sin servir sus pantallas'))),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    finish: () => {
      run.child.stdin.end();
      return run.figures;
    },
  };
}


/**
 * The studio's server for a desk bench, in a child process on a loopback port (its database from `env`: DATABASE_URL,
 * or DATA_DIR for the embedded one with the demo seed); resolves once it answers.
 */
export async function startBenchServer(env: Record<string, string>): Promise<{ url: string; process: ChildProcess; stop(): Promise<void> }> {
  const port = 3700 + Math.floor(Math.random() * 290);
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      AUTH_SECRET: 'banco-de-pruebas-de-la-recepcion-32+caracteres',
      AUTH_RATE_LIMIT_MAX: '1000',
      PORTAL_DIST: path.join(tmpdir(), 'sin-portal'),
      ...env,
    },
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  const until = Date.now() + 180_000;
  while ((await fetch(`${url}/api/health`).catch(() => null))?.ok !== true) {
    if (Date.now() > until || child.exitCode !== null) {
      await stop();
      throw new Error('el servidor no arrancó');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, process: child, stop };
}
