import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { scheduled_job } from '@estudio/db/schema/outbox';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import type { ClockJob } from '../../src/services/clock/job.ts';
import { nextDailyRun, startClock } from '../../src/services/clock/scheduler.ts';
import { testConfig } from '../support/helpers.ts';

/**
 * The studio's clock (decision 021) on a real migrated database, PGlite or
 * PostgreSQL: each due run happens once with two schedulers on one database,
 * a failure is recorded and retried, the schedule survives a restart, a
 * crashed run's lease lapses, and daily jobs land at the studio's hour.
 * Time is simulated by passing `now` (relative to the real clock).
 */
const silent = { info() {}, warn() {}, error() {} };
const minute = 60_000;

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb({ seed: false });
});
afterAll(async () => {
  await testDb?.close();
});

function clockWith(jobs: ClockJob[], instance: string) {
  return startClock({ db: testDb.db, config: testConfig(), log: silent, jobs, timer: false, instance });
}

async function rowOf(name: string) {
  const [row] = await testDb.db.select().from(scheduled_job).where(eq(scheduled_job.name, name));
  return row;
}

describe('the studio clock', () => {
  it('runs a due job once when two schedulers tick at the same moment', async () => {
    let runs = 0;
    const job: ClockJob = {
      name: 'test-once',
      schedule: { everyMs: 10 * minute },
      async run() {
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return 1;
      },
    };
    const a = clockWith([job], 'a');
    const b = clockWith([job], 'b');
    const now = new Date();
    const [ranA, ranB] = await Promise.all([a.runDue(now), b.runDue(now)]);
    expect(runs).toBe(1);
    expect({ ...ranA, ...ranB }).toEqual({ 'test-once': 1 });
    // Not due again until its period has passed, whoever ticks.
    await Promise.all([a.runDue(new Date(now.getTime() + 5 * minute)), b.runDue(new Date(now.getTime() + 9 * minute))]);
    expect(runs).toBe(1);
    await Promise.all([a.runDue(new Date(now.getTime() + 10 * minute)), b.runDue(new Date(now.getTime() + 10 * minute))]);
    expect(runs).toBe(2);
    const row = await rowOf('test-once');
    expect(row?.runs).toBe(2);
    expect(row?.locked_until).toBeNull();
    expect(row?.next_run_at.getTime()).toBe(now.getTime() + 20 * minute);
  });

  it('records a failure and tries again at the next tick', async () => {
    let fail = true;
    let attempts = 0;
    const job: ClockJob = {
      name: 'test-failing',
      schedule: { everyMs: 30 * minute },
      async run() {
        attempts += 1;
        if (fail) throw new Error('smtp down');
        return 3;
      },
    };
    const clock = clockWith([job], 'a');
    const now = new Date();
    expect(await clock.runDue(now)).toEqual({});
    let row = await rowOf('test-failing');
    expect(row?.last_error).toContain('smtp down');
    expect(row?.locked_until).toBeNull();
    fail = false;
    expect(await clock.runDue(new Date(now.getTime() + 5_000))).toEqual({ 'test-failing': 3 });
    expect(attempts).toBe(2);
    row = await rowOf('test-failing');
    expect(row?.last_error).toBeNull();
    expect(row?.runs).toBe(2);
    // runJob throws the failure to its caller after recording it.
    fail = true;
    await expect(clock.runJob('test-failing', new Date(now.getTime() + 6_000))).rejects.toThrow('smtp down');
    expect((await rowOf('test-failing'))?.last_error).toContain('smtp down');
  });

  it('keeps the schedule across a restart, and runs a crashed run again once its lease lapses', async () => {
    let runs = 0;
    const job: ClockJob = { name: 'test-restart', schedule: { everyMs: 60 * minute }, leaseMs: 2 * minute, run: async () => ++runs };
    const now = new Date();
    await clockWith([job], 'first').runDue(now);
    expect(runs).toBe(1);
    // A new process (new scheduler) does not run it before its time.
    const second = clockWith([job], 'second');
    expect(await second.runDue(new Date(now.getTime() + 30 * minute))).toEqual({});
    expect(runs).toBe(1);
    // A process claims it at its time and dies mid-run: nobody runs it while the lease holds, someone does after.
    const due = new Date(now.getTime() + 60 * minute);
    await testDb.db
      .update(scheduled_job)
      .set({ locked_until: new Date(due.getTime() + 2 * minute), locked_by: 'dead:1' })
      .where(eq(scheduled_job.name, 'test-restart'));
    expect(await second.runDue(new Date(due.getTime() + minute))).toEqual({});
    expect(await second.runJob('test-restart', new Date(due.getTime() + minute))).toBeNull();
    expect(await second.runDue(new Date(due.getTime() + 2 * minute + 1))).toEqual({ 'test-restart': 2 });
    const row = await rowOf('test-restart');
    expect(row?.locked_by).toBeNull();
    expect(row?.runs).toBe(2);
  });

  it('a run whose lease was taken over records nothing over the new claim', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const job: ClockJob = {
      name: 'test-fence',
      schedule: { everyMs: 60 * minute },
      leaseMs: 1_000,
      async run(_ctx, now) {
        runs += 1;
        if (runs === 1) await gate;
        return now.getTime();
      },
    };
    const now = new Date();
    const slow = clockWith([job], 'slow').runDue(now);
    // Wait until the slow run holds its claim.
    for (let i = 0; i < 100 && runs === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const later = new Date(now.getTime() + 2_000);
    expect(await clockWith([job], 'fast').runDue(later)).toEqual({ 'test-fence': later.getTime() });
    release();
    await slow;
    const row = await rowOf('test-fence');
    // The takeover's record stands: one run counted by the fence, next run an hour after the takeover.
    expect(row?.runs).toBe(1);
    expect(row?.next_run_at.getTime()).toBe(later.getTime() + 60 * minute);
  });

  it('runs daily jobs at the hour of the studio (Mexico City), whatever UTC says', async () => {
    const tz = 'America/Mexico_City';
    // 31 December 23:30 in Mexico City is 1 January 05:30 UTC: the next 07:00 is 1 January 13:00 UTC.
    expect(nextDailyRun(new Date('2029-01-01T05:30:00Z'), { hour: 7, minute: 0 }, tz).toISOString()).toBe('2029-01-01T13:00:00.000Z');
    // 06:59 in Mexico City: the same day's 07:00; 07:00 itself: the next day's (Mexico City has no daylight saving since 2022).
    expect(nextDailyRun(new Date('2026-04-05T12:59:00Z'), { hour: 7, minute: 0 }, tz).toISOString()).toBe('2026-04-05T13:00:00.000Z');
    expect(nextDailyRun(new Date('2026-04-05T13:00:00Z'), { hour: 7, minute: 0 }, tz).toISOString()).toBe('2026-04-06T13:00:00.000Z');
    expect(nextDailyRun(new Date('2026-11-01T13:30:00Z'), { hour: 23, minute: 15 }, tz).toISOString()).toBe('2026-11-02T05:15:00.000Z');
    // A zone with daylight saving resolves each day's own offset.
    expect(nextDailyRun(new Date('2026-03-08T12:00:00Z'), { hour: 9, minute: 0 }, 'America/New_York').toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(nextDailyRun(new Date('2026-03-07T15:00:00Z'), { hour: 9, minute: 0 }, 'America/New_York').toISOString()).toBe('2026-03-08T13:00:00.000Z');
    // 02:30 does not exist in New York on 8 March 2026 (02:00 jumps to 03:00): the run lands just after the gap, at 03:30 EDT.
    expect(nextDailyRun(new Date('2026-03-08T05:00:00Z'), { hour: 2, minute: 30 }, 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z');

    const ran: Date[] = [];
    const job: ClockJob = {
      name: 'test-daily',
      schedule: { daily: (settings) => ({ hour: Number(settings.owner_summary_hour ?? 7), minute: 0 }) },
      run: async (_ctx, now) => ran.push(now),
    };
    await testDb.db.insert(app_config).values({ key: 'owner_summary_hour', value: '7' }).onConflictDoUpdate({ target: app_config.key, set: { value: '7' } });
    const clock = clockWith([job], 'a');
    const now = new Date();
    await clock.runDue(now);
    expect(ran).toEqual([]);
    const first = (await rowOf('test-daily'))?.next_run_at as Date;
    expect(first.getTime()).toBe(nextDailyRun(now, { hour: 7, minute: 0 }, tz).getTime());
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit' }).format(first)).toBe('07:00');
    expect(await clock.runDue(first)).toEqual({ 'test-daily': 1 });
    const second = (await rowOf('test-daily'))?.next_run_at as Date;
    expect(second.getTime() - first.getTime()).toBe(24 * 60 * minute);
    // The admin moves the summary to 09:00: the waiting run moves with it.
    await testDb.db.update(app_config).set({ value: '9' }).where(eq(app_config.key, 'owner_summary_hour'));
    await clock.runDue(new Date(first.getTime() + minute));
    const moved = (await rowOf('test-daily'))?.next_run_at as Date;
    expect(moved.getTime() - first.getTime()).toBe(2 * 60 * minute);
  });
});
