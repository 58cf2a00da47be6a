import { afterAll, beforeAll } from 'vitest';
import { login, startTestServer, type TestServer } from './helpers.ts';

/** The demo studio's accounts (seeded with the demo password). */
export const demoAccounts = ['admin', 'recepcion', 'cliente', 'nuevo', 'ilimitado'] as const;
export type DemoAccount = (typeof demoAccounts)[number];

export interface DemoStudio<A extends DemoAccount> {
  server: TestServer;
  /** An ID token of each account asked for. */
  tokens: Record<A, string>;
}

/**
 * One test file's studio: a freshly migrated and seeded database with the
 * real app over it, started before the file's tests and closed after them,
 * and the ID tokens of the demo accounts the file asks for. `ready` receives
 * them once started; files keep them in their own module variables, which the
 * file's helpers read:
 *
 *   let server: TestServer;
 *   let admin: string;
 *   demoStudio(['admin'], (s) => ({ server, tokens: { admin } } = s));
 *
 * A hook rather than a `test.extend` fixture: most files' helpers are
 * module-level functions that read the server, and would otherwise take it
 * as a parameter everywhere (decision 096).
 */
export function demoStudio<A extends DemoAccount>(
  accounts: readonly A[],
  ready: (studio: DemoStudio<A>) => void,
  env: Record<string, string> = {},
): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(env);
    const app = server.app;
    const tokens = Object.fromEntries(await Promise.all(accounts.map(async (a) => [a, (await login(app, `${a}@estudio.demo`)).idToken] as const))) as Record<A, string>;
    ready({ server, tokens });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });
}
