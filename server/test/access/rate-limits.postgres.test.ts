import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaultDatabase, startServerProcess, type FaultDatabase } from '../support/fault-helpers.ts';
import { demoPassword, fakePortalDist } from '../support/helpers.ts';

/**
 * Limits shared across server processes (break 3): two real server
 * processes (`node --import tsx server/src/main.ts`) on one PostgreSQL
 * database, hit with real parallel HTTP requests and batched tRPC calls. A
 * per-address limit of 20 lets 20 calls through in total, not 20 per process
 * or per request; 200 parallel wrong guesses at one account, spread over both
 * processes, 20 addresses and batches, reach the password check exactly
 * LOGIN_FAILURE_MAX times, and the right password sent after them is refused.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
/** This file's ports. */
const ports = [3262, 3263] as const;
/** The i-th request goes to one process, the next to the other. */
const portOf = (i: number) => (i % 2 ? ports[1] : ports[0]);
const perAddress = 20;
const failureMax = 10;

interface Answer {
  status: number;
  code: string;
}

/** One call over real HTTP from `address` (the servers trust X-Forwarded-For): REST, or a batch of tRPC calls. */
async function post(port: number, address: string, url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function restLogin(port: number, address: string, email: string, password: string): Promise<Answer> {
  const res = await post(port, address, '/api/auth/login', { email, password });
  return { status: res.status, code: res.status === 200 ? 'ok' : (res.body as { code: string }).code };
}

async function batchLogin(port: number, address: string, email: string, passwords: string[]): Promise<Answer[]> {
  const url = `/trpc/${passwords.map(() => 'auth.login').join(',')}?batch=1`;
  const res = await post(port, address, url, Object.fromEntries(passwords.map((password, i) => [String(i), { email, password }])));
  return (res.body as { result?: unknown; error?: { data: { domainCode: string; httpStatus: number } } }[]).map((item) =>
    item.result ? { status: 200, code: 'ok' } : { status: item.error?.data.httpStatus ?? 0, code: item.error?.data.domainCode ?? '?' },
  );
}

const tally = (answers: Answer[]) => answers.reduce<Record<string, number>>((acc, a) => ({ ...acc, [a.code]: (acc[a.code] ?? 0) + 1 }), {});

describe.skipIf(!adminUrl)('limits shared by two server processes (PostgreSQL)', () => {
  let database: FaultDatabase | undefined;
  let sql: postgres.Sql | undefined;
  const children: ChildProcess[] = [];
  let dataDir = '';
  let portalDist = '';

  async function startServer(port: number): Promise<void> {
    if (!database) throw new Error('sin base de datos');
    const env = { TRUST_PROXY: 'true', AUTH_RATE_LIMIT_MAX: String(perAddress), LOGIN_FAILURE_MAX: String(failureMax) };
    children.push(await startServerProcess({ databaseUrl: database.url, port, dataDir, portalDist, env }));
  }

  beforeAll(async () => {
    if (!adminUrl) return;
    dataDir = mkdtempSync(path.join(tmpdir(), 'rl-procs-'));
    portalDist = fakePortalDist();
    database = await createFaultDatabase(adminUrl);
    sql = postgres(database.url, { max: 2, onnotice: () => {} });
    // One after the other: both migrate the same database on start.
    for (const port of ports) await startServer(port);
  }, 120_000);
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
    await sql?.end({ timeout: 5 });
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (portalDist) rmSync(portalDist, { recursive: true, force: true });
  });

  it(`a limit of ${perAddress} per address is ${perAddress} in total: 60 parallel requests and 2 batches of 20 over both processes`, async () => {
    const address = '198.51.100.7';
    const email = 'cliente@estudio.demo';
    const answers = (
      await Promise.all([
        ...Array.from({ length: 60 }, (_, i) => restLogin(portOf(i), address, email, `Incorrecta${i}`).then((a) => [a])),
        ...ports.map((port, k) => batchLogin(port, address, email, Array.from({ length: 20 }, (_, i) => `Lote${k}-${i}`))),
      ])
    ).flat();
    expect(answers).toHaveLength(100);
    // Every call was either checked (a wrong password, or the lockout once ten were wrong) or refused by the per-address limit.
    const counts = tally(answers);
    expect(counts['rate-limited']).toBe(100 - perAddress);
    expect((counts['auth/wrong-password'] ?? 0) + (counts['auth/too-many-requests'] ?? 0)).toBe(perAddress);
    // One shared counter; once a process has seen the window spent it refuses from memory without counting (decision 012).
    const [row] = await sql!<{ hits: number }[]>`select hits from rate_limit_counter where key like ${`signin:${perAddress}/%:${address}`}`;
    expect(row?.hits).toBeGreaterThan(perAddress);
    expect(row?.hits).toBeLessThanOrEqual(100);
  });

  it(`200 parallel wrong guesses from 20 addresses, REST and batched, over both processes: ${failureMax} are checked, then the right password is refused`, async () => {
    const email = 'nuevo@estudio.demo';
    const addresses = Array.from({ length: 20 }, (_, i) => `203.0.113.${i + 1}`);
    // 100 single requests and 10 batches of 10, each address sending 10 calls (half its allowance).
    const singles = Array.from({ length: 100 }, (_, i) => restLogin(portOf(i), addresses[i % 10]!, email, `Incorrecta${i}`).then((a) => [a]));
    const batches = Array.from({ length: 10 }, (_, k) => batchLogin(portOf(k), addresses[10 + k]!, email, Array.from({ length: 10 }, (_, i) => `Lote${k}-${i}`)));
    const answers = (await Promise.all([...singles, ...batches])).flat();
    expect(answers).toHaveLength(200);
    expect(tally(answers)).toEqual({ 'auth/wrong-password': failureMax, 'auth/too-many-requests': 200 - failureMax });
    const [failures] = await sql!<{ n: number }[]>`select count(*)::int as n from auth_login_failure where email = ${email}`;
    expect(failures?.n).toBe(failureMax);

    // The right password, on either process, from a fresh address: still locked.
    for (const port of ports) {
      expect(await restLogin(port, '192.0.2.50', email, demoPassword)).toEqual({ status: 429, code: 'auth/too-many-requests' });
    }
  });
});
