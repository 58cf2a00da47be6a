import { preparePgliteDump, prepareTestDatabases, pruneTestDbCache } from '../src/testing.ts';

/** Builds the seeded test database once per run, so test files only clone it. */
export default async function setup(): Promise<void> {
  const started = Date.now();
  await prepareTestDatabases();
  if (!process.env.TEST_DATABASE_URL) pruneTestDbCache([await preparePgliteDump()]);
  if (process.env.DEBUG_TEST_DB) console.info(`test database ready in ${Date.now() - started} ms`);
}
