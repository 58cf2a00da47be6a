import { sql } from 'drizzle-orm';
import { createDb } from '@estudio/db';
import { loadConfig } from '../../src/config.ts';
import type { ClockJob } from '../../src/services/clock/job.ts';
import { startClock } from '../../src/services/clock/scheduler.ts';

/**
 * One "server process" of the clock's multi-process test
 * (clock-processes.postgres.test.ts): the real scheduler on a PostgreSQL
 * database with one job that appends a row per run to clock_probe (made by
 * the test). Env: DATABASE_URL, CLOCK_TICK_MS, PROBE_EVERY_MS, PROBE_INSTANCE.
 * Prints 'ready' once ticking; SIGTERM stops it cleanly.
 */
const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' });
const handle = await createDb(config.DATABASE_URL);
const instance = process.env.PROBE_INSTANCE ?? String(process.pid);
const probe: ClockJob = {
  name: 'probe',
  schedule: { everyMs: Number(process.env.PROBE_EVERY_MS ?? 300) },
  leaseMs: 1_000,
  async run(ctx, now) {
    await ctx.db.execute(sql`insert into clock_probe (run_at, instance) values (${now.toISOString()}::timestamptz, ${instance})`);
    // A run takes a while, so the two processes' ticks overlap it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return 1;
  },
};
const log = { info() {}, warn() {}, error: (o: unknown, m?: string) => console.error(m, o) };
const clock = startClock({ db: handle.db, config, log, jobs: [probe], instance });
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void clock
    .stop()
    .then(() => handle.close())
    .then(() => process.exit(0));
});
