import { defineConfig } from 'vitest/config';

/** For running the db workspace alone: `npx vitest run --config db/vitest.config.ts` from the repo root. */
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['db/test/**/*.test.ts'],
    globalSetup: ['db/test/global-setup.ts'],
    // PGlite needs ~700 MB per instance; two workers fit a 2-core machine.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
