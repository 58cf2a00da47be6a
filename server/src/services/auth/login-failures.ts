import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import { auth_login_failure } from '@estudio/db/schema/identity';
import type { Db } from '../../db.ts';

/**
 * Failed sign-ins per account, to stop password guessing against one e-mail
 * from many addresses (the per-IP limiter cannot see that). The count lives
 * in auth_login_failure, so every server process sees the same one.
 * Only accounts that exist are recorded (an unknown e-mail fails before the
 * password is checked), so the table is bounded by accounts × max.
 */
export interface LoginFailureStore {
  /** True when the account has reached the limit inside the window. */
  isLocked(db: Db, email: string): Promise<boolean>;
  /** Records one failure and prunes this account's failures older than the window. */
  record(db: Db, email: string, ip?: string | null): Promise<void>;
  /** Forgets the account's failures (after a successful sign-in). */
  clear(db: Db, email: string): Promise<void>;
}

/**
 * `max` failures within `windowMs` lock the account. The window is measured
 * with the database clock, the one that stamps created_at, so processes with
 * drifting clocks still agree.
 */
export function createLoginFailureStore(max: number, windowMs: number): LoginFailureStore {
  const windowStart = () => sql`now() - make_interval(secs => ${windowMs / 1000}::double precision)`;
  return {
    async isLocked(db, email) {
      const [row] = await db
        .select({ n: count() })
        .from(auth_login_failure)
        .where(and(eq(auth_login_failure.email, email), gt(auth_login_failure.createdAt, windowStart())));
      return (row?.n ?? 0) >= max;
    },
    async record(db, email, ip = null) {
      await db.delete(auth_login_failure).where(and(eq(auth_login_failure.email, email), lt(auth_login_failure.createdAt, windowStart())));
      await db.insert(auth_login_failure).values({ email, ip });
    },
    async clear(db, email) {
      await db.delete(auth_login_failure).where(eq(auth_login_failure.email, email));
    },
  };
}
