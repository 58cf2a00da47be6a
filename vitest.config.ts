import { defineConfig } from 'vitest/config';

// One run over every workspace's tests. The global setup builds the migrated,
// seeded test database once (a PGlite dump, or a PostgreSQL template when
// TEST_DATABASE_URL is set); each test file then starts from a copy of it.
export default defineConfig({
  test: {
    include: ['*/test/**/*.test.{ts,tsx}'],
    // The Firebase tests skip themselves unless the emulator runs (npm test starts it).
    exclude: ['**/node_modules/**', 'e2e/**'],
    globalSetup: ['db/test/global-setup.ts'],
    // PGlite needs ~700 MB per instance; two workers fit a 2-core machine.
    maxWorkers: 2,
    // A worker runs its files one after another in one module graph: the server's modules load and compile once
    // per worker, not once per file (decision 101). Files close what they open and reset what they change.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
