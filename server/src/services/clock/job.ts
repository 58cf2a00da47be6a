import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import type { Log } from '../log.ts';
import type { MessageContext } from '../messages/message-context.ts';

/** What a clock job receives (decision 021). */
export interface ClockContext {
  db: Db;
  config: Config;
  messages: MessageContext;
  log: Pick<Log, 'info' | 'warn' | 'error'>;
}

/**
 * When a job is due again after a run: every so many milliseconds, or daily
 * at a time of the studio's day (its time zone setting). `setting` names app
 * config keys a job reads to decide its own timing (the daily summary's hour).
 */
export type JobSchedule = { everyMs: number } | { daily: (settings: Record<string, string>) => { hour: number; minute: number } };

/**
 * A recurring job. `run` must be idempotent: a run cut short by a crash is
 * run again once its lease lapses, and must neither lose nor repeat its
 * effects (messages carry dedupe keys; state changes are conditional).
 * It returns how much it did, for the log and the tests.
 */
export interface ClockJob {
  name: string;
  schedule: JobSchedule;
  run(ctx: ClockContext, now: Date): Promise<number>;
  /** How long a claim of this job holds before another process may run it again (default: the scheduler's, 2 minutes). */
  leaseMs?: number;
}
