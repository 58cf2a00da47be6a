import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { auth_user, refresh_token } from '@estudio/db/schema/identity';
import { DomainError, type AuthTokens } from '@estudio/core';
import type { Db } from '../../db.ts';
import { issueSession, type SessionSettings } from './issue-session.ts';
import { hashToken, openWithToken, sealWithToken } from './tokens.ts';

/**
 * How long a rotated token still answers with its successor. A page that moves on while its refresh is in flight
 * loses the answer; the next page, seconds later, holds only the rotated token (decision 126).
 */
export const ROTATED_TOKEN_GRACE_SECONDS = 30;

/**
 * Rotates a refresh token: the old one is revoked by a conditional UPDATE and a new one is issued in the same
 * transaction, sealed in the old row under a key only the old token derives. Used again within the grace, while its
 * successor is unused, the old token answers with that same successor (and a new ID token): concurrent uses and a
 * lost answer end with one session, never two.
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
      .returning({ id: refresh_token.refresh_token_id, uid: refresh_token.uid });
    if (!revoked) return replayLostRotation(tx, settings, refreshToken);
    const user = await activeUser(tx, revoked.uid);
    const tokens = await issueSession(tx, settings, { uid: user.uid, email: user.email });
    await tx
      .update(refresh_token)
      .set({ successor_sealed: sealWithToken(refreshToken, tokens.refreshToken) })
      .where(eq(refresh_token.refresh_token_id, revoked.id));
    return tokens;
  });
}

/** The same successor again, when the token was rotated moments ago and its successor is still unused and live. */
async function replayLostRotation(tx: Db, settings: SessionSettings, refreshToken: string): Promise<AuthTokens> {
  const [rotated] = await tx
    .select({ uid: refresh_token.uid, sealed: refresh_token.successor_sealed })
    .from(refresh_token)
    .where(
      and(
        eq(refresh_token.token_hash, hashToken(refreshToken)),
        gt(refresh_token.revokedAt, sql.raw(`now() - interval '${ROTATED_TOKEN_GRACE_SECONDS} seconds'`)),
      ),
    )
    .limit(1);
  const successor = rotated?.sealed ? openWithToken(refreshToken, rotated.sealed) : null;
  if (!rotated || !successor) throw new DomainError('auth/invalid-refresh-token');
  const [live] = await tx
    .select({ id: refresh_token.refresh_token_id })
    .from(refresh_token)
    .where(
      and(
        eq(refresh_token.token_hash, hashToken(successor)),
        eq(refresh_token.uid, rotated.uid),
        isNull(refresh_token.revokedAt),
        gt(refresh_token.expires_at, sql`now()`),
      ),
    )
    .limit(1);
  if (!live) throw new DomainError('auth/invalid-refresh-token');
  const user = await activeUser(tx, rotated.uid);
  const idToken = await settings.signer.sign({ uid: user.uid, email: user.email });
  return { idToken, refreshToken: successor, expiresIn: String(settings.signer.ttlSeconds), localId: user.uid, email: user.email };
}

async function activeUser(tx: Db, uid: string) {
  const [user] = await tx.select().from(auth_user).where(eq(auth_user.uid, uid)).limit(1);
  if (!user) throw new DomainError('auth/invalid-refresh-token');
  if (user.disabledAt) throw new DomainError('auth/user-disabled');
  return user;
}
