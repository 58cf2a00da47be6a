#!/usr/bin/env node
// Runs every test of the product, in this order, and ends with one
// "N passed, N failed" line:
//   1. type check, lint, and the Electron desk's build (electron-vite)
//   2. unit and integration tests on PGlite (the embedded default)
//   3. the same tests on PostgreSQL (TEST_DATABASE_URL, default the local server)
//   4. the Firebase sign-in test against the Firebase Auth emulator
//   5. Playwright tests of the portal and the desk (desk:web) in Chromium
// Every step runs even when an earlier one failed, so one run shows everything.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import postgres from 'postgres';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(root, '.tmp', 'test-results');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

const only = process.argv.slice(2); // e.g. `npm test -- unit e2e`
const wanted = (step) => only.length === 0 || only.includes(step);
const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
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
    run('Pruebas en PostgreSQL', 'npx', vitestArgs(out), { env: { TEST_DATABASE_URL: postgresUrl } });
    countVitest(out);
  }
}

if (wanted('firebase')) {
  const out = join(tmp, 'vitest-firebase.json');
  const inner = ['npx', ...vitestArgs(out), '--root', '..', 'server/test/firebase.emulator.test.ts', 'portal/test/firebase-auth-client.test.ts'].join(' ');
  run('Firebase Auth (emulador)', 'npx', ['firebase', 'emulators:exec', '--only', 'auth', '--project', 'demo-estudio', inner], {
    cwd: join(root, 'server'),
    env: { TEST_DATABASE_URL: '', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
  });
  countVitest(out);
}

if (wanted('e2e')) {
  const out = join(tmp, 'playwright.json');
  run('Portal en Chromium (Playwright)', 'npx', ['playwright', 'test', '--reporter=list,json'], {
    cwd: join(root, 'e2e'),
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  });
  countPlaywright(out);
}

const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log(`\nTiempo total: ${minutes} min${failedSteps.length ? ` — pasos con fallas: ${failedSteps.join(', ')}` : ''}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length === 0 && totals.failed === 0 ? 0 : 1);
