import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The studio's backups (decision 077). PostgreSQL: `pg_dump --format=custom`
 * of the database, and a tar of the uploaded files; the embedded studio
 * (PGlite): a copy of its data folder taken while the database is held still.
 * Each backup is named by its instant (`estudio-20250106-033000…`), written
 * under a `.partial` name and renamed when complete, and only the newest
 * `keep` are kept.
 */

export const backupPrefix = 'estudio-';

/** `20250106-033000`: sorts as time does. */
export function backupStamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) throw new Error(`${what}: no se pudo ejecutar ${command} (${result.error.message}); instala el cliente de PostgreSQL (postgresql-client).`);
  if (result.status !== 0) throw new Error(`${what} terminó con ${result.status}: ${result.stderr.trim()}`);
}

/** Whether a folder holds anything. */
const hasEntries = (dir: string | undefined): dir is string => !!dir && existsSync(dir) && readdirSync(dir).length > 0;

/** Keeps the `keep` newest backups in `dir` (every file or folder of one stamp together); answers what it removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!existsSync(dir)) return [];
  const entries = readdirSync(dir).filter((name) => name.startsWith(backupPrefix) && !name.endsWith('.partial'));
  const stamps = [...new Set(entries.map((name) => name.slice(backupPrefix.length, backupPrefix.length + 15)))].sort().reverse();
  const old = new Set(stamps.slice(Math.max(0, keep)));
  const removed = entries.filter((name) => old.has(name.slice(backupPrefix.length, backupPrefix.length + 15)));
  for (const name of removed) rmSync(path.join(dir, name), { recursive: true, force: true });
  return removed;
}

export interface PostgresBackup {
  database: string;
  files: string | null;
}

/**
 * pg_dump of `url` into `dir` (custom format: compressed, restored with
 * pg_restore, table by table), and the uploaded files of `filesDir` as a
 * .tar.gz beside it. A consistent snapshot: pg_dump reads in one transaction
 * while the studio goes on.
 */
export function backupPostgres(options: { url: string; dir: string; filesDir?: string | undefined; keep: number; now?: Date }): PostgresBackup {
  mkdirSync(options.dir, { recursive: true });
  const stamp = backupStamp(options.now);
  const database = path.join(options.dir, `${backupPrefix}${stamp}.dump`);
  run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', `${database}.partial`, '--dbname', options.url], 'pg_dump');
  renameSync(`${database}.partial`, database);
  let files: string | null = null;
  if (hasEntries(options.filesDir)) {
    files = path.join(options.dir, `${backupPrefix}${stamp}-archivos.tar.gz`);
    run('tar', ['-czf', `${files}.partial`, '-C', options.filesDir, '.'], 'tar');
    renameSync(`${files}.partial`, files);
  }
  pruneBackups(options.dir, options.keep);
  return { database, files };
}

/** Parts of an embedded studio's data folder that are not its data: releases are re-copied, the lock is the running process's. */
const notData = new Set(['desk-releases', 'estudio.pid']);

function copyDataDir(dataDir: string, target: string, backupsDir: string): void {
  const skip = path.resolve(backupsDir);
  cpSync(dataDir, target, {
    recursive: true,
    filter: (source) => {
      const resolved = path.resolve(source);
      if (resolved === skip || resolved.startsWith(`${skip}${path.sep}`)) return false;
      const relative = path.relative(dataDir, resolved);
      return !notData.has(relative.split(path.sep)[0] ?? '');
    },
  });
}

/**
 * A backup of the embedded studio while its server runs: a checkpoint, then
 * a copy of the data folder (the database and the uploaded files) while
 * PGlite runs no query and no transaction (runExclusive), so the copy is
 * the database at one instant. Answers the backup's folder.
 */
export async function backupEmbedded(client: PGlite, options: { dataDir: string; dir: string; keep: number; now?: Date }): Promise<string> {
  mkdirSync(options.dir, { recursive: true });
  const target = path.join(options.dir, `${backupPrefix}${backupStamp(options.now)}`);
  await client.exec('checkpoint');
  await client.runExclusive(async () => copyDataDir(options.dataDir, `${target}.partial`, options.dir));
  renameSync(`${target}.partial`, target);
  pruneBackups(options.dir, options.keep);
  return target;
}

/** The same copy with the server stopped (the operator's command): nothing else has the folder open. */
export function backupEmbeddedStopped(options: { dataDir: string; dir: string; keep: number; now?: Date }): string {
  mkdirSync(options.dir, { recursive: true });
  const target = path.join(options.dir, `${backupPrefix}${backupStamp(options.now)}`);
  copyDataDir(options.dataDir, `${target}.partial`, options.dir);
  renameSync(`${target}.partial`, target);
  pruneBackups(options.dir, options.keep);
  return target;
}

/**
 * Restores a pg_dump into `url`, which must be an empty database (a new one:
 * restoring over a studio's data would mix two histories), and the files'
 * archive of the same backup into `filesDir` when there is one.
 */
export function restorePostgres(options: { url: string; dump: string; filesDir?: string | undefined }): { files: boolean } {
  run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', '--dbname', options.url, options.dump], 'pg_restore');
  const archive = options.dump.replace(/\.dump$/, '-archivos.tar.gz');
  if (options.filesDir && existsSync(archive)) {
    mkdirSync(options.filesDir, { recursive: true });
    run('tar', ['-xzf', archive, '-C', options.filesDir], 'tar');
    return { files: true };
  }
  return { files: false };
}

/**
 * Puts an embedded studio's backup folder in place of `dataDir` (the server
 * stopped). What was there is kept beside it, renamed, never deleted.
 * Answers where the previous data went, if there was any.
 */
export function restoreEmbedded(options: { backup: string; dataDir: string; now?: Date }): string | null {
  if (!existsSync(path.join(options.backup, 'PG_VERSION'))) throw new Error(`${options.backup} no es un respaldo del estudio integrado (falta PG_VERSION).`);
  let previous: string | null = null;
  if (hasEntries(options.dataDir)) {
    previous = `${options.dataDir.replace(/[\\/]$/, '')}.antes-de-restaurar-${backupStamp(options.now)}`;
    renameSync(options.dataDir, previous);
  }
  cpSync(options.backup, options.dataDir, { recursive: true });
  // The desk's installers are not in a backup (they are copied from a build): they stay where they were.
  const releases = previous ? path.join(previous, 'desk-releases') : null;
  if (releases && existsSync(releases)) cpSync(releases, path.join(options.dataDir, 'desk-releases'), { recursive: true });
  return previous;
}

/** Size of a backup (file or folder) in bytes, for what the command prints. */
export function sizeOf(target: string): number {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(target).reduce((sum, name) => sum + sizeOf(path.join(target, name)), 0);
}
