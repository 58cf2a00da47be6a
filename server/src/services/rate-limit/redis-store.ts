import { Redis } from 'ioredis';
import { DomainError } from '@estudio/core';
import type { RateLimitStore } from './store.ts';

/**
 * Counts a call and answers [hits, milliseconds left]. The window starts at
 * the first call (INCR to 1) and is measured by Redis's clock (PEXPIRE), as
 * the database store measures it by the database's. A key left without an
 * expiry (a crash between INCR and PEXPIRE cannot happen inside a script, but
 * an operator may SET one) gets one instead of counting forever.
 */
const hitScript = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}
`;

/**
 * Counters in Redis (REDIS_URL), for deployments that already run one. A
 * Redis that does not answer refuses the limited calls with 'busy' (503)
 * instead of letting them through uncounted.
 */
export function createRedisRateLimitStore(url: string): RateLimitStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 5_000, lazyConnect: false });
  // Connection errors are retried by ioredis; a failing command answers 'busy' below. Keep them out of the process's unhandled errors.
  redis.on('error', () => {});
  return {
    async hit(key, windowMs) {
      let answer: unknown;
      try {
        answer = await redis.eval(hitScript, 1, `estudio:rate:${key}`, Math.max(1, Math.round(windowMs)));
      } catch {
        throw new DomainError('busy');
      }
      const [hits, ttl] = answer as [number, number];
      return { hits: Number(hits), resetInMs: Math.max(0, Number(ttl)) };
    },
    async close() {
      redis.disconnect();
    },
  };
}
