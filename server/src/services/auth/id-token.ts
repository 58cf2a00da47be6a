import { errors, jwtVerify, SignJWT } from 'jose';
import { DomainError } from '@estudio/core';

const issuer = 'estudio-local';
const audience = 'estudio';

export interface IdTokenClaims {
  uid: string;
  email: string;
}

/** The claims of a token whose signature, issuer, audience and expiry were checked. */
export interface VerifiedIdTokenClaims extends IdTokenClaims {
  /** Issued-at, whole seconds since the epoch (JWT `iat`). */
  iat: number;
}

export interface IdTokenSigner {
  sign(claims: IdTokenClaims, ttlSeconds?: number): Promise<string>;
  /**
   * Checks the token alone (no database): throws DomainError
   * 'auth/id-token-expired' or 'auth/invalid-id-token'. Revocation is checked
   * by verifyLocalIdToken.
   */
  verify(token: string): Promise<VerifiedIdTokenClaims>;
  readonly ttlSeconds: number;
}

/**
 * ID tokens of the local provider: HS256 JWTs shaped like Firebase's
 * (sub and user_id = uid, email), valid for `ttlSeconds`. The signature is
 * checked by any server process holding AUTH_SECRET; whether the session was
 * ended since (auth_user.tokens_valid_after) is checked in verify-id-token.ts.
 */
export function createIdTokenSigner(secret: string, ttlSeconds: number): IdTokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    ttlSeconds,
    async sign({ uid, email }, ttl = ttlSeconds) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ email, user_id: uid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(uid)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt(now)
        .setExpirationTime(now + ttl)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer, audience, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.email !== 'string' || typeof payload.iat !== 'number') {
          throw new DomainError('auth/invalid-id-token');
        }
        return { uid: payload.sub, email: payload.email, iat: payload.iat };
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new DomainError('auth/id-token-expired');
        if (error instanceof DomainError) throw error;
        throw new DomainError('auth/invalid-id-token');
      }
    },
  };
}
