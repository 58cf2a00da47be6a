import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A new replica's PostgreSQL cluster created by a short-lived child process.
 * PGlite runs initdb in the process that opens a folder with no cluster, and
 * its WebAssembly memory never gives back what initdb used (about 90 MB the
 * desk would carry all day); a cluster already on disk opens without it. The
 * child is Node (or Electron run as Node) importing the same PGlite module.
 * Resolves false when it could not: the caller's PGlite then runs initdb itself.
 */
export async function initClusterApart(dataDir: string, timeoutMs = 120_000): Promise<boolean> {
  if (dataDir.startsWith('memory://') || existsSync(join(dataDir, 'PG_VERSION'))) return false;
  let pglite: string;
  try {
    pglite = import.meta.resolve('@electric-sql/pglite');
  } catch {
    return false;
  }
  const script = 'const { PGlite } = await import(process.argv[1]); const db = await PGlite.create(process.argv[2]); await db.close();';
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '--eval', script, pglite, dataDir], {
      stdio: 'ignore',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && existsSync(join(dataDir, 'PG_VERSION')));
    });
  });
}
