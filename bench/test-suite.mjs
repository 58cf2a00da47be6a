#!/usr/bin/env node
// How long Vitest takes on a set of test files, beside the way it ran before (decision 101): every
// file in a fresh module graph (`--isolate`), and a worker running its files one after another in
// one graph (`--no-isolate`, the configuration). The two alternate, BENCH_ROUNDS times (default 1),
// so the machine's load falls on both alike.
//
//   node bench/test-suite.mjs                                  # server/test
//   BENCH_VITEST_FILES=a.test.ts,b.test.ts node bench/test-suite.mjs
//   BENCH_E2E_SPECS=tests/booking.spec.ts,tests/checkout.spec.ts node bench/test-suite.mjs   # Playwright, motion or not
// TEST_DATABASE_URL as for `npm test` (empty: PGlite).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);

function timed(label, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', process.env.BENCH_VERBOSE ? 'inherit' : 'ignore', 'inherit'], env: process.env });
  const seconds = (Date.now() - started) / 1000;
  // A failing run still took its time, but is not the same work: it is said beside its figure.
  console.log(`  ${label}: ${seconds.toFixed(1)} s${result.status === 0 ? '' : ` (terminó con ${result.status}: compárese con cuidado)`}`);
  return seconds;
}

function compare(name, before, after) {
  const totals = { before: 0, after: 0 };
  for (let round = 1; round <= rounds; round++) {
    console.log(`${name}, vuelta ${round}`);
    totals.before += timed(before.label, ...before.run);
    totals.after += timed(after.label, ...after.run);
  }
  console.log(`${name}: ${after.label} tarda ${(totals.after / totals.before).toFixed(2)}× lo de ${before.label}\n`);
}

if (process.env.BENCH_E2E_SPECS) {
  // Playwright with the transitions of dialogs, menus and alerts, and without them (decision 104). The portal's
  // build is made once before both (scripts/source-stamp.mjs), so each round times the specs and the server's start.
  const specs = process.env.BENCH_E2E_SPECS.split(',');
  const playwright = (motion) => ['env', [`E2E_MOTION=${motion}`, 'npx', 'playwright', 'test', '--config', 'e2e/playwright.config.ts', '--reporter=dot', ...specs]];
  compare(`Playwright (${specs.length} specs)`, { label: 'con transiciones', run: playwright('full') }, { label: 'con movimiento reducido', run: playwright('reduce') });
} else {
  const files = (process.env.BENCH_VITEST_FILES ?? 'server/test').split(',');
  const vitest = (isolate) => ['npx', ['vitest', 'run', isolate ? '--isolate' : '--no-isolate', ...files]];
  compare(`Vitest (${files.length} rutas)`, { label: 'un grafo por archivo', run: vitest(true) }, { label: 'un grafo por worker', run: vitest(false) });
}
