import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import { auth_login_failure } from '@estudio/db/schema/identity';
import type { Db } from '../../db.ts';

/**
 * Failed sign-ins per account, to stop password guessing against one e-mail
 * from many addresses (the per-address limit cannot see that). The count lives
 * in auth_login_failure, so every server process sees the same one.
 * Only accounts that exist are recorded (an unknown e-mail fails before the
 * password is checked), so the table is bounded by accounts × (max + calls in flight).
 */
export interface LoginFailureStore {
  /**
   * Takes one of the account's attempts before its password is checked:
   * under a lock on the account's failures, counts the window's failures and,
   * below the limit, records this attempt as one more. Answers a `settle` to
   * call once the password is known, or null when the account is locked.
   * Check and record are one step, so of any number of parallel attempts, on
   * any number of processes, at most `max` per window reach the password
   * check (decision 012).
   */
  begin(db: Db, email: string, ip?: string | null): Promise<LoginAttempt | null>;
}

export interface LoginAttempt {
  /** The right password forgets the account's failures; a wrong one leaves this attempt recorded. */
  settle(db: Db, passwordMatched: boolean): Promise<void>;
  /** Forgets this attempt only: its password was never checked (the server was busy). */
  withdraw(db: Db): Promise<void>;
}

/** Key space of the advisory lock that serialises the attempts of one account (two-int form: this, then hashtext(email)). */
const ATTEMPT_LOCK = 15_012;

/**
 * `max` failures within `windowMs` lock the account. The window is measured
 * with the database clock, the one that stamps created_at, so processes with
 * drifting clocks still agree. The transaction holds the lock for three short
 * statements, never while the password is hashed.
 */
export function createLoginFailureStore(max: number, windowMs: number): LoginFailureStore {
  const windowStart = () => sql`now() - make_interval(secs => ${windowMs / 1000}::double precision)`;
  return {
    async begin(db, email, ip = null) {
      const id = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${ATTEMPT_LOCK}, hashtext(${email}))`);
        await tx.delete(auth_login_failure).where(and(eq(auth_login_failure.email, email), lt(auth_login_failure.createdAt, windowStart())));
        const [row] = await tx
          .select({ n: count() })
          .from(auth_login_failure)
          .where(and(eq(auth_login_failure.email, email), gt(auth_login_failure.createdAt, windowStart())));
        // Refused attempts are not recorded: the lock ends when the window passes the failures that caused it.
        if ((row?.n ?? 0) >= max) return null;
        const [own] = await tx.insert(auth_login_failure).values({ email, ip }).returning({ id: auth_login_failure.auth_login_failure_id });
        return own?.id ?? null;
      });
      if (id === null) return null;
      return {
        async settle(tx, passwordMatched) {
          if (passwordMatched) await tx.delete(auth_login_failure).where(eq(auth_login_failure.email, email));
        },
        async withdraw(tx) {
          await tx.delete(auth_login_failure).where(eq(auth_login_failure.auth_login_failure_id, id));
        },
      };
    },
  };
}
