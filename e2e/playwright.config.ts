import { defineConfig, devices } from '@playwright/test';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// E2E_PORT lets two suites run side by side (e.g. a CI rehearsal while developing).
const port = Number(process.env.E2E_PORT ?? 3100);
// E2E_BASE_URL points the suite at a server that is already running (no webServer is started then).
const externalServer = process.env.E2E_BASE_URL;
const baseURL = externalServer ?? `http://127.0.0.1:${port}`;
// A throw-away embedded database: every run starts from the freshly seeded demo studio.
const dataDir = path.join(root, '.tmp', `e2e-data-${port}`);

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
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: externalServer
    ? undefined
    : {
        // --rebuild: the tests always run against the portal as it is in the tree.
        command: `rm -rf "${dataDir}" && npm start -- --rebuild`,
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
        },
      },
});
