import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { backupEmbedded, backupEmbeddedStopped, restoreEmbedded } from '../../src/operations/backups.ts';
import { DataDirBusyError, lockDataDir, lockFile } from '../../src/operations/data-dir-lock.ts';

/**
 * The embedded studio's backups (decision 077), on PGlite's own folder: the
 * copy its server takes while it runs is the database at that instant, a
 * restore puts it back and keeps what was there beside it, only the newest
 * are kept, and the folder is one process's at a time.
 */
const work = mkdtempSync(path.join(tmpdir(), 'respaldo-integrado-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function names(dataDir: string): Promise<string[]> {
  const db = await PGlite.create({ dataDir });
  try {
    return (await db.query<{ name: string }>('select name from clase order by name')).rows.map((r) => r.name);
  } finally {
    await db.close();
  }
}

describe("the embedded studio's backup and restore", () => {
  it('copies the running database at one instant, restores it, and keeps what was there', async () => {
    const dataDir = path.join(work, 'data');
    const dir = path.join(work, 'respaldos');
    const db = await PGlite.create({ dataDir });
    await db.exec(`create table clase (name text); insert into clase values ('Yoga')`);
    writeFileSync(path.join(dataDir, 'estudio.pid'), `${process.pid}\n`);
    const backup = await backupEmbedded(db, { dataDir, dir, keep: 3, now: new Date('2026-01-06T09:30:00Z') });
    // After the backup: gone once it is restored.
    await db.exec(`insert into clase values ('Pilates')`);
    await db.close();
    expect(path.basename(backup)).toBe('estudio-20260106-093000');
    // The lock is the running process's, never part of a backup.
    expect(existsSync(path.join(backup, 'estudio.pid'))).toBe(false);

    const previous = restoreEmbedded({ backup, dataDir, now: new Date('2026-01-07T10:00:00Z') });
    expect(previous).toBe(`${dataDir}.antes-de-restaurar-20260107-100000`);
    expect(await names(dataDir)).toEqual(['Yoga']);
    expect(await names(previous as string)).toEqual(['Pilates', 'Yoga']);
    // Four PGlite opens and a copy of its folder: well over the default on a busy machine.
  }, 120_000);

  it('keeps the newest backups only, and refuses a folder that is not one', () => {
    const dataDir = path.join(work, 'data');
    const dir = path.join(work, 'respaldos');
    for (const day of ['08', '09', '10']) backupEmbeddedStopped({ dataDir, dir, keep: 3, now: new Date(`2026-01-${day}T09:30:00Z`) });
    expect(readdirSync(dir).sort()).toEqual(['estudio-20260108-093000', 'estudio-20260109-093000', 'estudio-20260110-093000']);
    expect(() => restoreEmbedded({ backup: work, dataDir })).toThrow(/no es un respaldo del estudio integrado/);
  });

  it('is one live process\'s at a time: a command is refused while the server runs, and takes the folder once it is gone', async () => {
    const dataDir = path.join(work, 'data');
    const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((resolve) => server.once('spawn', resolve));
    writeFileSync(lockFile(dataDir), `${server.pid}\n`);
    expect(() => lockDataDir(dataDir)).toThrow(DataDirBusyError);
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
    // A crashed server's pid file is taken over.
    const release = lockDataDir(dataDir);
    release();
    expect(existsSync(lockFile(dataDir))).toBe(false);
  });
});
