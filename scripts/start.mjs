#!/usr/bin/env node
// Starts the product on its embedded defaults: builds the portal once if it has
// never been built, then runs the server (PGlite in ./data, local sign-in,
// seeded demo studio on first start). Pass --rebuild to rebuild the portal.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// PORTAL_DIST (also read by the server) lets several copies run side by side, each with its own build.
const portalDist = resolve(root, process.env.PORTAL_DIST ?? join('portal', 'dist'));

if (process.argv.includes('--rebuild') || !existsSync(join(portalDist, 'index.html'))) {
  console.log('Construyendo el portal…');
  const args = ['run', 'build', '-w', '@estudio/portal', '--', '--outDir', portalDist, '--emptyOutDir'];
  const build = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'src', 'main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORTAL_DIST: portalDist, NODE_ENV: process.env.NODE_ENV ?? 'development' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
