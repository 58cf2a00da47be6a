import { and, eq, isNull, sql } from 'drizzle-orm';
import { refresh_token } from '@estudio/db/schema/identity';
import type { Db } from '../../db.ts';

/**
 * Revokes every refresh token of the identity ("sign out everywhere").
 * ID tokens already issued stay valid until they expire (ID_TOKEN_TTL_SECONDS),
 * as with Firebase.
 */
export async function revokeSessions(db: Db, uid: string): Promise<void> {
  await db
    .update(refresh_token)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refresh_token.uid, uid), isNull(refresh_token.revokedAt)));
}
