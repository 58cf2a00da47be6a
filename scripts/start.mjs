#!/usr/bin/env node
// Starts the product on its embedded defaults: builds the portal when it was
// never built from the sources as they are (scripts/source-stamp.mjs), then runs the server (PGlite in ./data, local sign-in,
// seeded demo studio on first start) and, once the server answers, the front
// desk in a browser tab (`desk:web`, its replica in ./desk-data). Pass
// --rebuild to rebuild the portal and the desk's screens; START_DESK=0 starts
// the server alone (the portal's Playwright run and the startup benchmark).
// The desk is its own process and outlives the server: stop the server and the
// desk keeps working offline (the console says so); Ctrl-C stops both.
//
// NODE_ENV=production runs the built server (`npm run build` first) with plain
// node, and nothing else: no build, no desk, no demo seed (decisions 073, 074).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { builtFrom, portalSources, recordStamp, sourceStamp } from './source-stamp.mjs';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// PORTAL_DIST (also read by the server) lets several copies run side by side, each with its own build.
const portalDist = resolve(root, process.env.PORTAL_DIST ?? join('portal', 'dist'));
const rebuild = process.argv.includes('--rebuild');
const withDesk = process.env.START_DESK !== '0';

if (process.env.NODE_ENV === 'production') {
  const built = join(root, 'server', 'dist', 'main.mjs');
  const missing = [built, join(portalDist, 'index.html')].filter((file) => !existsSync(file));
  if (missing.length) {
    // Relative to the repository when inside it; a PORTAL_DIST elsewhere is named whole.
    const shown = missing.map((file) => (relative(root, file).startsWith('..') ? file : relative(root, file)));
    console.error(`Falta la compilación (${shown.join(', ')}). Corre primero: npm run build`);
    process.exit(1);
  }
  const server = spawn(process.execPath, [built], { cwd: root, stdio: 'inherit', env: { ...process.env, PORTAL_DIST: portalDist } });
  // The server shuts down gracefully on SIGTERM (decision 076); this script passes the signal on and exits as it does.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  // What follows is the embedded demo's: this script waits here until the server's exit ends it.
  await new Promise(() => {});
}

const portalStamp = sourceStamp(root, portalSources);
if (rebuild || !builtFrom(portalDist, portalStamp)) {
  console.log('Construyendo el portal…');
  const args = ['run', 'build', '-w', '@estudio/portal', '--', '--outDir', portalDist, '--emptyOutDir'];
  const build = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  recordStamp(portalDist, portalStamp);
}

const children = new Set();
let desk = null;
let stopping = false;
let exitCode = 0;
/** Ends this script once the last child has exited (the server, and the desk, which may outlive it). */
const exitWhenAlone = () => {
  if (children.size === 0) process.exit(exitCode);
};
const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'src', 'main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORTAL_DIST: portalDist, NODE_ENV: process.env.NODE_ENV ?? 'development' },
});
children.add(server);
// Ctrl-C (or a SIGTERM to this script) stops both.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stopping = true;
    children.forEach((child) => child.kill(signal));
  });
server.on('exit', (code, signal) => {
  children.delete(server);
  exitCode = code ?? (signal ? 1 : 0);
  // The desk works offline: it outlives the server it talks to, so going offline can be shown with this one command.
  if (!stopping && desk && children.has(desk)) {
    console.log(
      `\nEl servidor se detuvo${signal ? ` (${signal})` : code ? ` (código ${code})` : ''}. La recepción sigue abierta y trabaja sin conexión: ` +
        'registra asistencias y ventas y las envía cuando el servidor vuelva. Para volver a iniciarlo, en otra terminal: START_DESK=0 npm start. ' +
        'Ctrl-C cierra la recepción.',
    );
    return;
  }
  stopping = true;
  children.forEach((child) => child.kill('SIGTERM'));
  exitWhenAlone();
});

if (withDesk) void startDesk();

/** The front desk, pointed at this server, once the server answers (a desk started first would only show "Sin conexión"). */
async function startDesk() {
  const serverUrl = `http://${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT ?? 3000}`;
  for (let tries = 0; tries < 600; tries++) {
    if (!children.has(server)) return;
    const up = await fetch(`${serverUrl}/api/health`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (stopping) return;
  desk = spawn(process.execPath, ['--import', 'tsx', join(root, 'desktop', 'src', 'web', 'main.ts'), ...(rebuild ? ['--rebuild'] : [])], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DESK_SERVER_URL: process.env.DESK_SERVER_URL ?? serverUrl, DESK_DATA_DIR: process.env.DESK_DATA_DIR ?? join(root, 'desk-data') },
  });
  children.add(desk);
  // The desk is an extra: if it stops, the portal and /api keep running.
  desk.on('exit', (code) => {
    children.delete(desk);
    if (code && children.has(server)) console.error(`La recepción se detuvo (código ${code}); el portal sigue en ${serverUrl}.`);
    exitWhenAlone();
  });
}
