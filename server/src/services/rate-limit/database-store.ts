import { lt, sql } from 'drizzle-orm';
import { rate_limit_counter } from '@estudio/db/schema/rate-limit';
import type { Db } from '../../db.ts';
import type { RateLimitStore } from './store.ts';

/** How often one process deletes the counters whose window has ended. */
const pruneEveryMs = 60_000;

/**
 * Counters in rate_limit_counter. One INSERT ... ON CONFLICT DO UPDATE per
 * call: PostgreSQL serialises the calls of one key on its row, so N parallel
 * calls from any number of processes read N different counts. Works on PGlite
 * (`npm start`) as on PostgreSQL.
 */
export function createDatabaseRateLimitStore(db: Db): RateLimitStore {
  let prunedAt = 0;
  return {
    async hit(key, windowMs) {
      const window = sql`make_interval(secs => ${windowMs / 1000}::double precision)`;
      const expired = sql`${rate_limit_counter.reset_at} <= now()`;
      const [row] = await db
        .insert(rate_limit_counter)
        .values({ key, hits: 1, reset_at: sql`now() + ${window}` })
        .onConflictDoUpdate({
          target: rate_limit_counter.key,
          // Both expressions read the row as it was before this call.
          set: {
            hits: sql`case when ${expired} then 1 else ${rate_limit_counter.hits} + 1 end`,
            reset_at: sql`case when ${expired} then now() + ${window} else ${rate_limit_counter.reset_at} end`,
          },
        })
        .returning({
          hits: rate_limit_counter.hits,
          resetInMs: sql<number>`greatest(0, ceil(extract(epoch from ${rate_limit_counter.reset_at} - now()) * 1000))::float8`.mapWith(Number),
        });
      if (Date.now() - prunedAt > pruneEveryMs) {
        prunedAt = Date.now();
        await db.delete(rate_limit_counter).where(lt(rate_limit_counter.reset_at, sql`now()`));
      }
      if (!row) throw new Error('rate_limit_counter: el conteo no devolvió fila');
      return row;
    },
    async close() {},
  };
}
