import { and, eq, isNull, sql } from 'drizzle-orm';
import { auth_user, email_change, password_reset, refresh_token } from '@estudio/db/schema/identity';
import type { Db } from '../../db.ts';

/**
 * Ends every session of the identity ("sign out everywhere", and after a
 * password change, a reset or an e-mail change): revokes its refresh tokens,
 * refuses the ID tokens already issued, by setting auth_user.tokens_valid_after,
 * and spends every outstanding mailed code (password reset links and e-mail
 * change links), so a link sent before cannot undo what was just done: after
 * one reset the other reset links are dead, and a password change kills the
 * reset links an intruder may have asked for.
 *
 * The instant is this process's clock truncated to the second, because a
 * token's iat is whole seconds from the same clock: a token issued after this
 * call (the fresh session of changePassword) has iat >= the value and stays
 * valid, while older tokens have iat < it. A token issued earlier within the
 * same second survives, as with Firebase's tokensValidAfterTime.
 */
export async function revokeSessions(db: Db, uid: string): Promise<void> {
  const validAfter = new Date(Math.floor(Date.now() / 1000) * 1000);
  await db
    .update(refresh_token)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refresh_token.uid, uid), isNull(refresh_token.revokedAt)));
  // greatest(): never moves back, should a process with a slower clock revoke after one with a faster clock.
  await db
    .update(auth_user)
    .set({ tokens_valid_after: sql`greatest(${auth_user.tokens_valid_after}, ${validAfter.toISOString()}::timestamptz)` })
    .where(eq(auth_user.uid, uid));
  await db.update(password_reset).set({ usedAt: sql`now()` }).where(and(eq(password_reset.uid, uid), isNull(password_reset.usedAt)));
  await db.update(email_change).set({ usedAt: sql`now()` }).where(and(eq(email_change.uid, uid), isNull(email_change.usedAt)));
}
