// Runs bench/desk-memory.ts (the desk service alone in its own process) for the benches: as TypeScript through the
// loader of a development run, or bundled as the packaged desk runs it.
import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export interface MemoryFigures {
  rss: number;
  heap: number;
  external: number;
}

export interface DeskMemoryFigures {
  loaded: MemoryFigures;
  opened: MemoryFigures;
  synced: MemoryFigures;
  scanned: MemoryFigures;
  scans: number;
}

/**
 * bench/desk-memory.ts bundled as the packaged desk's main process is (electron.vite.config.ts: the workspace and
 * its libraries in one file, PGlite beside it, the migrations at ../migrations): a desk at a studio runs that, not
 * the TypeScript loader of a development run.
 */
export async function bundleDeskMemory(): Promise<string> {
  const dir = path.join(root, '.tmp', `bench-desk-bundle-${process.pid}`);
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(root, 'bench/desk-memory.ts')],
    outfile: path.join(dir, 'main', 'desk-memory.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['@electric-sql/pglite', 'electron'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  cpSync(path.join(root, 'db/migrations'), path.join(dir, 'migrations'), { recursive: true });
  return path.join(dir, 'main', 'desk-memory.mjs');
}

/** Runs bench/desk-memory.ts (as TypeScript, or its bundle) against the server and reads its figures. */
export function deskMemory(
  serverUrl: string,
  dataDir: string,
  codesFile: string | null,
  bundle?: string,
): Promise<DeskMemoryFigures> {
  return new Promise((resolve, reject) => {
    const args = bundle ? ['--expose-gc', bundle] : ['--expose-gc', '--import', 'tsx', 'bench/desk-memory.ts'];
    const child = spawn(process.execPath, [...args, serverUrl, dataDir, ...(codesFile ? [codesFile] : [])], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`la recepción sola terminó con ${code}: ${out}`));
      resolve(JSON.parse(line));
    });
  });
}

