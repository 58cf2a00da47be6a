import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { LaunchOptions } from './fixtures.ts';
import { currentClockOffsetSeconds, type TestClockEnv } from '../../scripts/test-clock.mjs';
import { chromiumLaunchOptions } from '../chromium.ts';
import { finished, repoRoot, run, startingFromMigrated, stop, waitFor } from './desk-processes.ts';

/**
 * A studio whose clock reads a chosen instant: its own server (freshly seeded,
 * so the demo schedule is laid out around that instant) and a Chromium on the
 * same moved clock (decision 010). For specs that need a particular moment of
 * the week whatever day the suite runs: the portal's server and browser keep
 * the real clock.
 */
export interface PinnedStudio {
  url: string;
  stop: () => Promise<void>;
}

/** Chromium's launch options on a clock from `testClockEnv`, shared with the spec's server (for `test.use({ launchOptions })` at the top of a spec file). */
export function launchOptionsOn(clock: TestClockEnv): LaunchOptions {
  return { ...chromiumLaunchOptions, env: { ...process.env, ...clock } as Record<string, string> };
}

/** What the processes started on `clock` read as now (this test runner's own clock may be moved differently). */
export function nowOn(clock: TestClockEnv): Date {
  return new Date(Date.now() + (currentClockOffsetSeconds({ ...clock }) - currentClockOffsetSeconds()) * 1000);
}

const portalPort = Number(process.env.E2E_PORT ?? 3100);

/**
 * Starts the server on `port` with the clock moved. It serves the portal the
 * suite's own server built (`.tmp/portal-dist-PORT`), or builds one for itself
 * when the suite runs against an external server.
 */
export async function startPinnedStudio(clock: TestClockEnv, port: number): Promise<PinnedStudio> {
  const work = path.join(repoRoot, '.tmp', `e2e-pinned-${port}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  let portalDist = path.join(repoRoot, '.tmp', `portal-dist-${portalPort}`);
  if (!existsSync(path.join(portalDist, 'index.html'))) {
    portalDist = path.join(work, 'portal-dist');
    const build = run(['npm', 'run', 'build', '-w', '@estudio/portal', '--', '--outDir', portalDist, '--emptyOutDir', '--logLevel', 'warn'], {}, 'portal');
    await finished(build, 'La compilación del portal');
  }
  const server = run([process.execPath, '--import', 'tsx', 'server/src/main.ts'], {
    ...clock,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: startingFromMigrated(path.join(work, 'data')),
    PORTAL_DIST: portalDist,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    AUTH_RATE_LIMIT_MAX: '1000',
  }, `servidor ${port}`);
  const url = `http://127.0.0.1:${port}`;
  // A server that dies on start (its error is on stderr) ends the wait at once.
  const died = new Promise<never>((_, reject) => server.once('exit', (code) => reject(new Error(`El servidor de reloj fijo terminó al iniciar (código ${code}).`))));
  try {
    await Promise.race([waitFor(`${url}/api/health`, 120_000), died]);
  } catch (error) {
    await stop(server);
    throw error;
  }
  return { url, stop: () => stop(server) };
}
