// A moved clock for tests, without a line of test code in the product (decision 010).
//
// libfaketime (Debian's `faketime` package) is preloaded into a process and
// shifts what the C library answers for the clocks by a fixed number of
// seconds. Every child inherits the environment, so the test runners, the
// server, PGlite (its now() reads JavaScript's Date), Chromium and a PostgreSQL
// started with it all agree on the time, and the time flows as usual from there.
//
// The clock only moves forward, and the monotonic clock moves with the wall
// clock: Chromium hangs now and then when only the wall clock moves (seen
// here), and a monotonic clock moved back could fall below zero on a machine
// that booted minutes ago.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const libraryCandidates = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1', '/usr/lib/faketime/libfaketimeMT.so.1'];

/** Path of libfaketime, or an error that says how to install it. */
export function faketimeLibrary() {
  const found = libraryCandidates.find((path) => existsSync(path));
  if (!found) throw new Error('No se encontró libfaketime: instala el paquete de Debian `faketime` (apt-get install -y faketime).');
  return found;
}

/**
 * The offset in seconds this process's clock already runs at (0 on the real
 * clock): a process started inside a moved run that moves the clock again
 * must count from the real time, because libfaketime does.
 */
export function currentClockOffsetSeconds(env = process.env) {
  if (!env.LD_PRELOAD?.includes('faketime') || !env.FAKETIME) return 0;
  const offset = Number(env.FAKETIME);
  return Number.isFinite(offset) ? offset : 0;
}

/**
 * Named instants for `--clock=NAME`, always ahead of the clock that reads them
 * so that CI can keep one for years.
 * - `fin-de-año`: the next 31 December that falls on a Sunday, 23:30 in Mexico
 *   City: a Sunday night, the last day of a month and of a year, and already
 *   Monday 1 January in UTC.
 */
export function namedInstant(name, now = new Date()) {
  if (name !== 'fin-de-año') return null;
  for (let year = now.getUTCFullYear(); ; year++) {
    const instant = `${year}-12-31T23:30:00-06:00`;
    if (new Date(`${year}-12-31T12:00:00Z`).getUTCDay() === 0 && Date.parse(instant) > now.getTime() + 3_600_000) return instant;
  }
}

/**
 * Environment that moves a child process's clock so that it reads `instant`
 * (an ISO date-time with its offset, e.g. 2028-12-31T23:30:00-06:00, or a
 * name from `namedInstant`) now. The instant must be ahead of the real time.
 */
export function testClockEnv(instant, env = process.env) {
  const iso = namedInstant(instant) ?? instant;
  const target = Date.parse(iso);
  if (!Number.isFinite(target) || !/(Z|[+-]\d\d:\d\d)$/.test(iso)) {
    throw new Error(`Reloj inválido: «${instant}». Usa una fecha y hora ISO con su zona, p. ej. 2028-12-31T23:30:00-06:00, o «fin-de-año».`);
  }
  const realNow = Date.now() - currentClockOffsetSeconds(env) * 1000;
  const offset = Math.round((target - realNow) / 1000);
  if (offset < 0) throw new Error(`El reloj de prueba solo avanza: «${iso}» ya pasó. Elige un instante futuro.`);
  return {
    LD_PRELOAD: faketimeLibrary(),
    FAKETIME: `+${offset}`,
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function postgresBin() {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => existsSync(join(d, 'initdb')));
  if (!dir) throw new Error('No se encontró PostgreSQL (initdb): instala el paquete `postgresql`.');
  return dir;
}

/**
 * A throw-away PostgreSQL whose clock is the moved clock of `env` (its now()
 * must agree with the server's), on a free loopback port. Runs as the
 * `postgres` user when started as root, as PostgreSQL requires.
 */
export async function startClockedPostgres(env = process.env) {
  const bin = postgresBin();
  // Under the system's temporary folder: the postgres user must be able to reach it.
  const dir = mkdtempSync(join(tmpdir(), 'estudio-pg-reloj-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const run = (command, args) => {
    // As root, the user switch itself runs on the real clock and the postgres
    // user's processes keep libfaketime's shared clock of their own: a root
    // process's (FAKETIME_SHARED) cannot be opened by them, and libfaketime
    // then gives up when a stale file sits under the new process's id.
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', 'env', '-u', 'FAKETIME_SHARED', ...clockVars(env), command, ...args]] : [command, args];
    const result = spawnSync(full[0], full[1], { stdio: ['ignore', 'ignore', 'inherit'], env: asRoot ? withoutClock(env) : env });
    if (result.status !== 0) throw new Error(`${command} terminó con ${result.status}`);
  };
  run(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  run(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        run(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function withoutClock(env) {
  const { LD_PRELOAD: _preload, FAKETIME: _offset, FAKETIME_SHARED: _shared, ...rest } = env;
  return rest;
}

/**
 * Removes the shared clocks (semaphore and memory in /dev/shm) that
 * libfaketime left behind for processes that are gone: it names them after a
 * process id and a killed process never removes its own, so over many runs a
 * new process can meet a stale one under its id. Those of live processes stay.
 */
export function removeStaleFaketimeFiles(dir = '/dev/shm') {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const pid = /^(?:sem\.faketime_sem|faketime_shm)_(\d+)$/.exec(name)?.[1];
    if (!pid || existsSync(`/proc/${pid}`)) continue;
    try {
      rmSync(join(dir, name), { force: true });
    } catch {
      // Another user's file in the shared folder: theirs to remove.
    }
  }
}

/** The clock's variables, passed explicitly where a user switch could drop them. */
function clockVars(env) {
  return ['LD_PRELOAD', 'FAKETIME'].flatMap((name) => (env[name] ? [`${name}=${env[name]}`] : []));
}

function userIds(name) {
  const id = (flag) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}
