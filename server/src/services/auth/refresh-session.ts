import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { auth_user, refresh_token } from '@estudio/db/schema/identity';
import { DomainError, type AuthTokens } from '@estudio/core';
import type { Db } from '../../db.ts';
import { issueSession, type SessionSettings } from './issue-session.ts';
import { hashToken } from './tokens.ts';

/**
 * Rotates a refresh token: the old one is revoked by a conditional UPDATE
 * (so two concurrent uses cannot both succeed) and a new one is issued in
 * the same transaction.
 */
export async function refreshSession(db: Db, settings: SessionSettings, refreshToken: string): Promise<AuthTokens> {
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(refresh_token)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(refresh_token.token_hash, hashToken(refreshToken)),
          isNull(refresh_token.revokedAt),
          gt(refresh_token.expires_at, sql`now()`),
        ),
      )
      .returning({ uid: refresh_token.uid });
    if (!revoked) throw new DomainError('auth/invalid-refresh-token');
    const [user] = await tx.select().from(auth_user).where(eq(auth_user.uid, revoked.uid)).limit(1);
    if (!user) throw new DomainError('auth/invalid-refresh-token');
    if (user.disabledAt) throw new DomainError('auth/user-disabled');
    return issueSession(tx, settings, { uid: user.uid, email: user.email });
  });
}
