import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * One process at a time on an embedded studio's data folder (decision 077):
 * PGlite has no lock of its own, and two processes writing one folder (a
 * second server, or an operator's command while the server runs) corrupt
 * it. The holder's pid is written to `estudio.pid`; a pid file of a process
 * that is gone (a crash) is taken over.
 */
export function lockFile(dataDir: string): string {
  return path.join(dataDir, 'estudio.pid');
}

/** The pid holding the folder, if that process still runs. */
export function dataDirHolder(dataDir: string): number | null {
  const file = lockFile(dataDir);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`Otro proceso (pid ${pid}) usa la carpeta de datos ${dataDir}. Detén el servidor del estudio antes de correr este comando.`);
  }
}

/** Takes the folder for this process; throws DataDirBusyError when a live process holds it. Answers the release. */
export function lockDataDir(dataDir: string): () => void {
  const holder = dataDirHolder(dataDir);
  if (holder !== null) throw new DataDirBusyError(dataDir, holder);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(lockFile(dataDir), `${process.pid}\n`);
  return () => {
    if (existsSync(lockFile(dataDir)) && readFileSync(lockFile(dataDir), 'utf8').trim() === String(process.pid)) rmSync(lockFile(dataDir), { force: true });
  };
}
