import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { localDate, studioInstant, studioTimeZone } from '@estudio/core';
import { and, eq, gt, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { scheduled_job } from '@estudio/db/schema/outbox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { messageContextOf } from '../messages/message-context.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { ClockContext, ClockJob, JobSchedule } from './job.ts';
import { clockJobs } from './jobs.ts';

/**
 * The studio's clock (decision 021): recurring jobs on the
 * scheduled_job table, the same on PGlite and PostgreSQL. Each process ticks;
 * a due job is claimed by one conditional UPDATE (a lease), so with several
 * processes on one database each run happens once; a run cut short by a crash
 * is run again when its lease lapses (jobs are idempotent).
 */

export const defaultLeaseMs = 120_000;

export interface Clock {
  /** Stops ticking and waits for a run in flight. */
  stop(): Promise<void>;
  /** One tick at `now`: registers the jobs, then runs each due one this process claims. Returns what each run did. */
  runDue(now?: Date): Promise<Record<string, number>>;
  /**
   * Runs one job now whether or not it is due (tests, and an admin's "run now"),
   * unless another process holds its lease: then null. A failure is recorded
   * like a tick's, then thrown.
   */
  runJob(name: string, now?: Date): Promise<number | null>;
}

export interface StartClockOptions {
  db: Db;
  config: Config;
  log: ClockContext['log'];
  /** The jobs (default: every registered one, jobs.ts). */
  jobs?: readonly ClockJob[];
  /** Tick by itself every CLOCK_TICK_MS (default true); tests pass false and call runDue/runJob. */
  timer?: boolean;
  /** Names this process in locked_by (default host:pid). */
  instance?: string;
  /** Told when each tick begins and ends (the process's readiness, decision 075). */
  heartbeat?: { start(): void; end(): void } | undefined;
}

/**
 * The first instant strictly after `after` at hour:minute on the studio's wall
 * clock: calendar arithmetic on the local date, then that wall time resolved in
 * the zone with its own offset that day (studioInstant; a time skipped by a DST
 * change lands just after it).
 */
export function nextDailyRun(after: Date, time: { hour: number; minute: number }, tz: string): Date {
  const [y, m, d] = localDate(after, tz).split('-').map(Number) as [number, number, number];
  const hhmm = `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
  for (let day = 0; day <= 2; day += 1) {
    const at = studioInstant(new Date(Date.UTC(y, m - 1, d + day)).toISOString().slice(0, 10), hhmm, tz);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('no daily run within two days');
}

/** When a job is due after finishing at `now`. */
export function nextRunAfter(schedule: JobSchedule, now: Date, settings: Record<string, string>): Date {
  if ('everyMs' in schedule) return new Date(now.getTime() + schedule.everyMs);
  return nextDailyRun(now, schedule.daily(settings), studioTimeZone(settings));
}

const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 2000);

export function startClock(options: StartClockOptions): Clock {
  const { db, config, log } = options;
  const jobs = options.jobs ?? clockJobs;
  const byName = new Map(jobs.map((job) => [job.name, job]));
  const instance = options.instance ?? `${hostname()}:${process.pid}`;
  const ctx: ClockContext = { db, config, log, messages: messageContextOf(config) };

  /** Registers every job (a row the first time) and re-aligns not-yet-due daily jobs with their setting's time. */
  async function register(now: Date): Promise<Record<string, string>> {
    const settings = await loadStudioSettings(db);
    const rows = jobs.map((job) => ({
      name: job.name,
      next_run_at: 'everyMs' in job.schedule ? now : nextRunAfter(job.schedule, now, settings),
    }));
    if (rows.length > 0) await db.insert(scheduled_job).values(rows).onConflictDoNothing({ target: scheduled_job.name });
    // A daily job waiting for a time the admin has since changed moves to the new time (never to the past: at most tomorrow).
    for (const job of jobs) {
      if ('everyMs' in job.schedule) continue;
      const next = nextRunAfter(job.schedule, now, settings);
      await db
        .update(scheduled_job)
        .set({ next_run_at: next })
        .where(and(eq(scheduled_job.name, job.name), gt(scheduled_job.next_run_at, now), ne(scheduled_job.next_run_at, next), isNull(scheduled_job.locked_until)));
    }
    return settings;
  }

  /** Claims, runs and records one job; null when the claim failed (not due, or another process holds it). */
  async function claimAndRun(job: ClockJob, now: Date, force: boolean): Promise<{ done: number } | { error: unknown } | null> {
    const leaseUntil = new Date(now.getTime() + (job.leaseMs ?? defaultLeaseMs));
    const claim = `${instance}:${randomUUID()}`;
    const free = or(isNull(scheduled_job.locked_until), lt(scheduled_job.locked_until, now));
    const [claimed] = await db
      .update(scheduled_job)
      .set({ locked_until: leaseUntil, locked_by: claim, last_started_at: now })
      .where(and(eq(scheduled_job.name, job.name), force ? free : and(lte(scheduled_job.next_run_at, now), free)))
      .returning({ name: scheduled_job.name });
    if (!claimed) return null;

    let done = 0;
    let failure: string | null = null;
    let thrown: unknown = null;
    try {
      done = await job.run(ctx, now);
    } catch (error) {
      thrown = error;
      failure = errorText(error);
      log.error({ err: error, job: job.name }, 'clock job failed');
    }
    const finished = new Date(Math.max(Date.now(), now.getTime()));
    const settings = await loadStudioSettings(db);
    // A failed run stays due, so the next tick retries it.
    const next = failure ? now : nextRunAfter(job.schedule, now, settings);
    // Fenced on this claim: a run whose lease lapsed and was taken over records nothing.
    await db
      .update(scheduled_job)
      .set({
        locked_until: null,
        locked_by: null,
        last_finished_at: finished,
        last_error: failure,
        runs: sql`${scheduled_job.runs} + 1`,
        next_run_at: next,
      })
      .where(and(eq(scheduled_job.name, job.name), eq(scheduled_job.locked_by, claim)));
    return failure ? { error: thrown } : { done };
  }

  async function runDue(now: Date = new Date()): Promise<Record<string, number>> {
    await register(now);
    const due = await db
      .select({ name: scheduled_job.name })
      .from(scheduled_job)
      .where(
        and(
          inArray(scheduled_job.name, [...byName.keys()]),
          lte(scheduled_job.next_run_at, now),
          or(isNull(scheduled_job.locked_until), lt(scheduled_job.locked_until, now)),
        ),
      );
    const done: Record<string, number> = {};
    for (const { name } of due) {
      const job = byName.get(name);
      // Stopping (SIGTERM): the run in flight finishes and hands its lease back; no other is claimed (decision 076).
      if (!job || stopped) continue;
      const result = await claimAndRun(job, now, false);
      if (result && 'done' in result) done[name] = result.done;
    }
    return done;
  }

  async function runJob(name: string, now: Date = new Date()): Promise<number | null> {
    const job = byName.get(name);
    if (!job) throw new Error(`unknown clock job ${name}`);
    await register(now);
    const result = await claimAndRun(job, now, true);
    if (!result) return null;
    if ('error' in result) throw result.error;
    return result.done;
  }

  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<unknown> = Promise.resolve();
  const tick = () => {
    timer = null;
    if (stopped) return;
    options.heartbeat?.start();
    inFlight = runDue()
      .then((done) => {
        if (Object.keys(done).length > 0) log.info({ jobs: done }, 'clock ran');
      })
      .catch((error: unknown) => log.error({ err: error }, 'clock tick failed'))
      .finally(() => {
        options.heartbeat?.end();
        if (!stopped) timer = setTimeout(tick, config.CLOCK_TICK_MS);
      });
  };
  if (options.timer !== false) timer = setTimeout(tick, 0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
    runDue,
    runJob,
  };
}
