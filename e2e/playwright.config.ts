import { defineConfig, devices } from '@playwright/test';
import path from 'node:path';
import { chromiumLaunchOptions } from './chromium.ts';

const root = path.resolve(import.meta.dirname, '..');
// E2E_PORT lets two suites run side by side (e.g. a CI rehearsal while developing).
const port = Number(process.env.E2E_PORT ?? 3100);
// E2E_BASE_URL points the suite at a server that is already running (no webServer is started then).
const externalServer = process.env.E2E_BASE_URL;
const baseURL = externalServer ?? `http://127.0.0.1:${port}`;
// A throw-away embedded database: every run starts from the freshly seeded demo studio.
const dataDir = path.join(root, '.tmp', `e2e-data-${port}`);
// The desk tests start their own server and desk:web (they stop and restart the server), so a run of only
// those (`playwright test tests/desk.spec.ts` or `--project desk`) does not need the portal's server.
const deskSpec = /(desk|admin-console|admin-activity|admin-settings|admin-money|admin-videos|admin-products|import-invitations)[^/]*\.spec\.ts$/;
const cliArgs = process.argv.slice(2);
const positional = cliArgs.filter((a, i) => !a.startsWith('-') && !cliArgs[i - 1]?.startsWith('--project') && a !== 'test');
const projectArgs = cliArgs.flatMap((a, i) => (a.startsWith('--project=') ? [a.slice(10)] : a === '--project' ? [cliArgs[i + 1] ?? ''] : []));
const deskOnly = (positional.length > 0 && positional.every((a) => /desk|admin-console|admin-settings|admin-money|admin-videos|admin-products|import-invitations/.test(a))) || (projectArgs.length > 0 && projectArgs.every((p) => p === 'desk'));

/**
 * End-to-end tests of the portal against the real server on its embedded
 * defaults. Chromium is the system's (Debian package); no browser is downloaded.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: path.join(root, '.tmp', `e2e-results-${port}`),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    // As someone whose device asks for less motion (the portal's and the desk's themes respect it): dialogs, menus
    // and alerts appear without their transitions, so no step waits for one to end (decision 104).
    // E2E_MOTION=full runs with them, as bench/test-suite.mjs compares.
    reducedMotion: process.env.E2E_MOTION === 'full' ? 'no-preference' : 'reduce',
    // The portal's service worker keeps the account area for a visit with no connection (decision 106); it would
    // answer the suite's routed and counted requests itself, so only offline-pass.spec lets it run.
    serviceWorkers: 'block',
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: deskSpec,
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunchOptions,
      },
    },
    {
      // The front desk (desk:web) in Chromium: the spec starts its own server and desk processes.
      name: 'desk',
      testMatch: deskSpec,
      timeout: 240_000,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        launchOptions: chromiumLaunchOptions,
      },
    },
  ],
  webServer: externalServer || deskOnly
    ? undefined
    : {
        // The portal is built unless its build was made from the tree as it is (scripts/source-stamp.mjs): the
        // tests run against the portal in the tree, and CI's second pass does not build the same one again.
        command: `rm -rf "${dataDir}" && npm start`,
        cwd: root,
        url: `${baseURL}/api/health`,
        timeout: 180_000,
        reuseExistingServer: false,
        stdout: 'ignore',
        stderr: 'pipe',
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          PORTAL_DIST: path.join(root, '.tmp', `portal-dist-${port}`),
          LOG_LEVEL: 'warn',
          NODE_ENV: 'test',
          // Every test signs in; the per-IP sign-in limit is for the internet, not for this suite.
          AUTH_RATE_LIMIT_MAX: '1000',
          // The portal's tests need the server only; the desk specs start their own desk.
          START_DESK: '0',
        },
      },
});
