#!/usr/bin/env node
// Starts the product on its embedded defaults: builds the portal once if it has
// never been built, then runs the server (PGlite in ./data, local sign-in,
// seeded demo studio on first start). Pass --rebuild to rebuild the portal.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const portalIndex = join(root, 'portal', 'dist', 'index.html');

if (process.argv.includes('--rebuild') || !existsSync(portalIndex)) {
  console.log('Construyendo el portal…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@estudio/portal'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'src', 'main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
