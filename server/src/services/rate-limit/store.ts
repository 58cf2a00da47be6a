/** One call counted against a limit: how many calls the window holds now, and when it ends. */
export interface RateLimitHit {
  hits: number;
  /** Milliseconds until the window ends, by the store's clock. */
  resetInMs: number;
}

/**
 * Where calls are counted, shared by every server process: the database
 * (rate_limit_counter) by default, Redis when REDIS_URL is set. A window
 * starts at the first call of a key and lasts `windowMs` by the store's own
 * clock, so processes with drifting clocks agree.
 */
export interface RateLimitStore {
  /** Counts one call of `key` atomically and answers the count including it. */
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  close(): Promise<void>;
}
