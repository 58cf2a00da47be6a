import { refresh_token } from '@estudio/db/schema/identity';
import type { AuthTokens } from '@estudio/core';
import type { Db } from '../../db.ts';
import type { IdTokenSigner } from './id-token.ts';
import { hashToken, randomToken } from './tokens.ts';

export interface SessionSettings {
  signer: IdTokenSigner;
  refreshTokenTtlDays: number;
}

/** Signs an ID token and stores a new refresh token for the identity. */
export async function issueSession(db: Db, settings: SessionSettings, identity: { uid: string; email: string }): Promise<AuthTokens> {
  const refreshToken = randomToken();
  await db.insert(refresh_token).values({
    uid: identity.uid,
    token_hash: hashToken(refreshToken),
    expires_at: new Date(Date.now() + settings.refreshTokenTtlDays * 86_400_000),
  });
  const idToken = await settings.signer.sign(identity);
  return {
    idToken,
    refreshToken,
    expiresIn: String(settings.signer.ttlSeconds),
    localId: identity.uid,
    email: identity.email,
  };
}
