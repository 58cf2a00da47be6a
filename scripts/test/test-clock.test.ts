import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentClockOffsetSeconds, faketimeLibrary, namedInstant, removeStaleFaketimeFiles, startClockedPostgres, testClockEnv } from '../test-clock.mjs';

const library = { LD_PRELOAD: '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1' };

describe('the test clock (decision 010)', () => {
  it("names the next Sunday 31 December at 23:30 in Mexico City 'fin-de-año', always ahead", () => {
    expect(namedInstant('fin-de-año', new Date('2026-11-23T12:00:00Z'))).toBe('2028-12-31T23:30:00-06:00');
    // Once that night has come, the next one: 2034.
    expect(namedInstant('fin-de-año', new Date('2029-01-01T05:00:00Z'))).toBe('2034-12-31T23:30:00-06:00');
    const instant = namedInstant('fin-de-año') as string;
    expect(new Date(instant).getUTCDay()).toBe(1); // already Monday in UTC
    expect(new Date(instant).toISOString().slice(5, 10)).toBe('01-01');
    expect(namedInstant('2027-02-28T23:50:00-06:00')).toBeNull();
  });

  it('moves a clock forward by whole seconds from the real time, also from inside a moved run', () => {
    const target = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const fromReal = Number(testClockEnv(target, {}).FAKETIME);
    expect(fromReal).toBeGreaterThan(3 * 86_400 - 5);
    expect(fromReal).toBeLessThanOrEqual(3 * 86_400);
    // A process already 100 s ahead still gets the offset from the real clock, which libfaketime adds to.
    const inside = { ...library, FAKETIME: '+100' };
    expect(currentClockOffsetSeconds(inside)).toBe(100);
    expect(Math.abs(Number(testClockEnv(target, inside).FAKETIME) - (fromReal + 100))).toBeLessThanOrEqual(1);
  });

  it('refuses an instant in the past and one without its zone, in Spanish', () => {
    expect(() => testClockEnv('2020-01-01T00:00:00-06:00', {})).toThrow(/solo avanza/);
    expect(() => testClockEnv('2030-01-01T00:00:00', {})).toThrow(/Reloj inválido/);
  });

  // libfaketime names its shared clock after a process id and leaves the files
  // behind when a process is killed. A root process's clock, passed along to the
  // postgres user, cannot be opened there; initdb then makes its own, and when a
  // stale file sits under its id it gave up: CI's clocked pass failed so.
  const canRunAsPostgres = process.getuid?.() === 0 && existsSync('/usr/lib/postgresql') && existsSync('/dev/shm') && (() => {
    try {
      return Boolean(faketimeLibrary());
    } catch {
      return false;
    }
  })();

  it.skipIf(!canRunAsPostgres)('starts a clocked PostgreSQL as the postgres user beside a root clock and stale files under the next process ids', async () => {
    // Counted from the real time, so that it also holds inside a run on a moved clock.
    const clock = testClockEnv(new Date(Date.now() + 86_400_000).toISOString());
    // A root process on the moved clock: its shared clock is root's alone.
    const rootProcess = spawn('sleep', ['60'], { env: { ...process.env, ...clock }, stdio: 'ignore' });
    const rootFiles = [`/dev/shm/sem.faketime_sem_${rootProcess.pid}`, `/dev/shm/faketime_shm_${rootProcess.pid}`];
    const rootShared = `/faketime_sem_${rootProcess.pid} /faketime_shm_${rootProcess.pid}`;
    const lastPid = Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'));
    const planted: string[] = [];
    for (let pid = lastPid + 1; pid <= lastPid + 400; pid++) {
      for (const name of [`/dev/shm/sem.faketime_sem_${pid}`, `/dev/shm/faketime_shm_${pid}`]) {
        if (existsSync(name)) continue;
        writeFileSync(name, Buffer.alloc(32), { mode: 0o600 });
        planted.push(name);
      }
    }
    // Not this process's own environment: libfaketime rereads FAKETIME there, and a clock moved back crashes Node.
    try {
      const clocked = await startClockedPostgres({ ...process.env, ...clock, FAKETIME_SHARED: rootShared });
      await clocked.stop();
    } finally {
      rootProcess.kill('SIGKILL');
      // Killed, it leaves its own pair behind too.
      for (const name of [...planted, ...rootFiles]) rmSync(name, { force: true });
    }
  }, 60_000);

  it.skipIf(!existsSync('/dev/shm'))('removes the shared clocks of processes that are gone and keeps those of live ones', () => {
    let gone = 30_000 + Math.floor(Math.random() * 2_000);
    while (existsSync(`/proc/${gone}`)) gone++;
    const files = [`/dev/shm/sem.faketime_sem_${gone}`, `/dev/shm/faketime_shm_${gone}`];
    for (const name of files) writeFileSync(name, Buffer.alloc(32), { mode: 0o600 });
    const live = [`/dev/shm/sem.faketime_sem_${process.pid}`, `/dev/shm/faketime_shm_${process.pid}`];
    const plantedLive = live.filter((name) => !existsSync(name));
    for (const name of plantedLive) writeFileSync(name, Buffer.alloc(32), { mode: 0o600 });
    try {
      removeStaleFaketimeFiles();
      for (const name of files) expect(existsSync(name)).toBe(false);
      for (const name of live) expect(existsSync(name)).toBe(true);
    } finally {
      for (const name of [...files, ...plantedLive]) rmSync(name, { force: true });
    }
  });
});
