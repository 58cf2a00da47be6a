#!/usr/bin/env node
// Runs every test of the product, in this order, and ends with one
// "N passed, N failed" line:
//   1. type check, lint, and the Electron desk's build (electron-vite)
//   2. unit and integration tests on PGlite (the embedded default)
//   3. the same tests on PostgreSQL (TEST_DATABASE_URL, default the local server), but core's and the portal's,
//      which reach no database
//   4. the Firebase sign-in test against the Firebase Auth emulator
//   5. Playwright tests of the portal and the desk (desk:web) in Chromium
// Every step runs even when an earlier one failed, so one run shows everything.
//
// `npm test -- --clock=2028-12-31T23:30:00-06:00` (or `--clock=fin-de-año`, the next
// 31 December on a Sunday, 23:30 in Mexico City) runs the same steps with every
// process's clock moved forward to that instant (libfaketime; decision 010): the
// test runners, the server, PGlite, Chromium and a PostgreSQL started for the run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { namedInstant, removeStaleFaketimeFiles, startClockedPostgres, testClockEnv } from './test-clock.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(root, '.tmp', 'test-results');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

const args = process.argv.slice(2);
const clock = args.find((a) => a.startsWith('--clock='))?.slice('--clock='.length);
const only = args.filter((a) => !a.startsWith('--')); // e.g. `npm test -- unit e2e`
// `--e2e-specs=calendar,studio-time`: only the Playwright files whose names contain one of these (default: all).
const e2eSpecs = (args.find((a) => a.startsWith('--e2e-specs='))?.slice('--e2e-specs='.length) ?? '').split(',').filter(Boolean);
const wanted = (step) => only.length === 0 || only.includes(step);
let postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
let stopClockedPostgres = async () => {};
// Specs on a pinned clock and killed servers leave libfaketime's files behind; a run starts without them.
removeStaleFaketimeFiles();
if (clock) {
  // Every child inherits the moved clock; PostgreSQL must share it, so the run gets a server of its own.
  Object.assign(process.env, testClockEnv(clock));
  console.log(`\n⏰ Reloj de la corrida: ${namedInstant(clock) ?? clock} (${process.env.FAKETIME} s respecto al reloj real)`);
  if (wanted('postgres')) {
    const clocked = await startClockedPostgres();
    postgresUrl = clocked.url;
    process.env.TEST_DATABASE_URL = clocked.url;
    stopClockedPostgres = clocked.stop;
    // Stopped with the run (Ctrl-C or a kill reaches this once the running step has ended).
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void clocked.stop().finally(() => process.exit(130)));
  }
}
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
const started = Date.now();

function run(name, command, args, { env = {}, cwd = root } = {}) {
  console.log(`\n▶ ${name}`);
  const t0 = Date.now();
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  console.log(`${ok ? '✔' : '✘'} ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  if (!ok) failedSteps.push(name);
  return ok;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

const vitestArgs = (out) => ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];

if (wanted('static')) {
  run('Tipos (tsc)', 'npx', ['tsc', '-p', 'tsconfig.json']);
  run('Lint (eslint)', 'npx', ['eslint', '.']);
  // The Electron binary is not installed here; building main, preload and renderer proves they compile and bundle.
  run('Escritorio: electron-vite build', 'npm', ['run', 'desk:build']);
}

if (wanted('unit')) {
  const out = join(tmp, 'vitest-pglite.json');
  run('Pruebas en PGlite', 'npx', vitestArgs(out), { env: { TEST_DATABASE_URL: '' } });
  countVitest(out);
}

if (wanted('postgres')) {
  let reachable = false;
  const sql = postgres(postgresUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await sql`select 1`;
    reachable = true;
  } catch (error) {
    console.error(`\n✘ PostgreSQL no responde en ${postgresUrl}: ${error.message}`);
    console.error('  Inicia el servidor (pg_ctlcluster 15 main start) o define TEST_DATABASE_URL.');
    failedSteps.push('PostgreSQL');
  } finally {
    await sql.end({ timeout: 1 });
  }
  if (reachable) {
    const out = join(tmp, 'vitest-postgres.json');
    // The workspaces whose tests reach a database; core's rules and the portal's screens never do, and ran in step 2.
    const onDatabase = ['server/', 'db/', 'sync/', 'desktop/', 'scripts/'];
    run('Pruebas en PostgreSQL', 'npx', [...vitestArgs(out), ...onDatabase], { env: { TEST_DATABASE_URL: postgresUrl } });
    countVitest(out);
  }
}

if (wanted('firebase')) {
  const out = join(tmp, 'vitest-firebase.json');
  const inner = ['npx', ...vitestArgs(out), '--root', '..', 'server/test/auth/firebase.emulator.test.ts', 'portal/test/firebase-auth-client.test.ts'].join(' ');
  run('Firebase Auth (emulador)', 'npx', ['firebase', 'emulators:exec', '--only', 'auth', '--project', 'demo-estudio', inner], {
    cwd: join(root, 'server'),
    env: { TEST_DATABASE_URL: '', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
  });
  countVitest(out);
}

if (wanted('e2e')) {
  const out = join(tmp, 'playwright.json');
  run('Portal en Chromium (Playwright)', 'npx', ['playwright', 'test', '--reporter=list,json', ...e2eSpecs], {
    cwd: join(root, 'e2e'),
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  });
  countPlaywright(out);
}

await stopClockedPostgres();
const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nTiempo total: ${minutes} min${clock ? ` (reloj en ${clock})` : ''}${failedSteps.length ? ` — pasos con fallas: ${failedSteps.join(', ')}` : ''}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length === 0 && totals.failed === 0 ? 0 : 1);
