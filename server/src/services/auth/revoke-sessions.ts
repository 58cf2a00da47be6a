import { and, eq, isNull, sql } from 'drizzle-orm';
import { auth_user, refresh_token } from '@estudio/db/schema/identity';
import type { Db } from '../../db.ts';

/**
 * Ends every session of the identity ("sign out everywhere", and after a
 * password change or reset): revokes its refresh tokens and refuses the ID
 * tokens already issued, by setting auth_user.tokens_valid_after.
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
}
