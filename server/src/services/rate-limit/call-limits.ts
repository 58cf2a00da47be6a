import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { createDatabaseRateLimitStore } from './database-store.ts';
import type { LimitBucket } from './limited-procedures.ts';
import { createRedisRateLimitStore } from './redis-store.ts';
import type { RateLimitStore } from './store.ts';

/** The per-call limits, counted in a store every server process shares. */
export interface CallLimits {
  /**
   * Counts one call of `bucket` by `caller` (an address or a customer id).
   * Answers null when it is within the limit, else the seconds until the
   * window ends (for Retry-After).
   */
  take(bucket: LimitBucket, caller: string): Promise<number | null>;
  close(): Promise<void>;
}

/** At most this many spent windows are remembered; past it (a flood from very many addresses) calls go to the store again. */
const maxSpentKeys = 50_000;

interface Limit {
  max: number;
  windowMs: number;
}

/**
 * The store is Redis when REDIS_URL is set, else the app's database. A
 * counter's key names its limit ('signin:30/60000:<address>'): processes
 * with the same settings share it, and a changed setting starts afresh.
 */
export function createCallLimits(config: Config, db: Db, store: RateLimitStore = config.REDIS_URL ? createRedisRateLimitStore(config.REDIS_URL) : createDatabaseRateLimitStore(db)): CallLimits {
  const limits: Record<LimitBucket, Limit> = {
    signin: { max: config.AUTH_RATE_LIMIT_MAX, windowMs: config.AUTH_RATE_LIMIT_WINDOW_MS },
    refresh: { max: config.AUTH_RATE_LIMIT_MAX * 4, windowMs: config.AUTH_RATE_LIMIT_WINDOW_MS },
    discount: { max: config.DISCOUNT_RATE_LIMIT_MAX, windowMs: config.DISCOUNT_RATE_LIMIT_WINDOW_MS },
  };
  /**
   * Keys whose window is spent, with when it ends (this process's clock): a
   * flood of refused calls is answered from memory instead of costing a
   * store round trip each (an address past its limit sent 18 000 guesses in
   * 10 s in bench/signin-under-attack.ts). Calls refused here are not
   * counted; the window was already spent, so the count changes nothing.
   */
  const spent = new Map<string, number>();
  const forgetEnded = (now: number) => {
    for (const [key, until] of spent) if (until <= now) spent.delete(key);
  };
  return {
    async take(bucket, caller) {
      const { max, windowMs } = limits[bucket];
      const key = `${bucket}:${max}/${windowMs}:${caller}`;
      const now = Date.now();
      const until = spent.get(key);
      if (until !== undefined && until > now) return Math.max(1, Math.ceil((until - now) / 1000));
      const { hits, resetInMs } = await store.hit(key, windowMs);
      if (hits <= max) return null;
      if (spent.size >= maxSpentKeys) forgetEnded(now);
      if (spent.size < maxSpentKeys) spent.set(key, now + resetInMs);
      return Math.max(1, Math.ceil(resetInMs / 1000));
    },
    close: () => store.close(),
  };
}
