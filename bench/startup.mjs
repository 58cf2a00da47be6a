#!/usr/bin/env node
// Measures the README's start command: time from launch to the first
// successful answer of GET /api/appconfig.
//   cold: an empty data dir (PGlite created, migrated and the demo studio seeded)
//   warm: the same data dir again (PGlite opened, nothing to migrate or seed)
// The portal is built before timing so the build is not counted; run
// `npm run build` first if you changed it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 3);
const port = Number(process.env.BENCH_PORT ?? 3201);
const dataDir = join(root, '.tmp', 'bench-startup-data');

if (!existsSync(join(root, 'portal', 'dist', 'index.html'))) {
  spawnSync('npm', ['run', 'build', '-w', '@estudio/portal'], { cwd: root, stdio: 'inherit' });
}

async function timeOneStart() {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', START_DESK: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/appconfig`);
        if (res.ok && (await res.json()).config?.length > 0) return performance.now() - started;
      } catch { /* not listening yet */ }
      if (performance.now() - started > 120_000) throw new Error('no answer within 120 s');
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  }
}

const results = { cold: [], warm: [] };
for (let i = 0; i < runs; i++) {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dirname(dataDir), { recursive: true });
  results.cold.push(await timeOneStart());
  results.warm.push(await timeOneStart());
}
rmSync(dataDir, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(`Arranque hasta la primera respuesta de /api/appconfig (${runs} corridas, mediana; min–max):`);
for (const kind of ['cold', 'warm']) {
  const xs = results[kind];
  console.log(`  ${kind === 'cold' ? 'base vacía (migrar + sembrar)' : 'base existente'}: ${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`);
}
