import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduled_job } from '@estudio/db/schema/outbox';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { testSecret } from '../support/helpers.ts';

/**
 * Two real processes (node --import tsx) run the studio's clock on one
 * PostgreSQL database, ticking every 20 ms, with one job due every 300 ms
 * that appends a row per run. Each period's run happens once: consecutive
 * runs are at least a period apart and the rows equal the runs the table
 * counts. Then one process is killed with SIGKILL and the other carries on
 * alone, again never running a period twice.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const everyMs = 300;

let testDb: TestDb;
const children: ChildProcess[] = [];

function startProbe(instance: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'server', 'test', 'support', 'clock-probe-process.ts')], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: testDb.url, AUTH_SECRET: testSecret, CLOCK_TICK_MS: '20', PROBE_EVERY_MS: String(everyMs), PROBE_INSTANCE: instance },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`probe ${instance} exited ${code}: ${stderr}`)));
  });
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runs(): Promise<{ at: number; instance: string }[]> {
  // PostgreSQL only: postgres.js answers the rows as an array.
  const rows = (await testDb.db.execute(sql`select run_at, instance from clock_probe order by run_at`)) as unknown as { run_at: string | Date; instance: string }[];
  return rows.map((r) => ({ at: new Date(r.run_at).getTime(), instance: r.instance }));
}

function gaps(list: { at: number }[]): number[] {
  return list.slice(1).map((r, i) => r.at - (list[i] as { at: number }).at);
}

describe.skipIf(!adminUrl)('the clock in two server processes (PostgreSQL)', () => {
  beforeAll(async () => {
    testDb = await createTestDb({ seed: false });
    await testDb.db.execute(sql`create table clock_probe (id serial primary key, run_at timestamptz not null, instance text not null)`);
  }, 60_000);
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await testDb?.close();
  });

  it('runs each period once, and carries on alone after the other process is killed', async () => {
    const [a, b] = await Promise.all([startProbe('a'), startProbe('b')]);
    await sleep(3_000);
    a.kill('SIGKILL');
    await exited(a);
    const killedAt = Date.now();
    await sleep(2_500);
    b.kill('SIGTERM');
    await exited(b);

    const list = await runs();
    const [job] = await testDb.db.select().from(scheduled_job).where(sql`${scheduled_job.name} = 'probe'`);
    // Both ticked the whole time; about one run per period happened, never two.
    expect(list.length).toBeGreaterThanOrEqual(8);
    expect(Math.min(...gaps(list))).toBeGreaterThanOrEqual(everyMs);
    // Every run recorded its end, except at most the one SIGKILL cut short.
    expect(job?.runs).toBeGreaterThanOrEqual(list.length - 1);
    expect(job?.runs).toBeLessThanOrEqual(list.length);
    // The survivor kept the schedule after the kill.
    expect(list.filter((r) => r.at > killedAt && r.instance === 'b').length).toBeGreaterThanOrEqual(3);
    expect(job?.locked_until).toBeNull();
  }, 60_000);
});
