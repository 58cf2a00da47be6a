import { errors, jwtVerify, SignJWT } from 'jose';
import { DomainError } from '@estudio/core';

const issuer = 'estudio-local';
const audience = 'estudio';
/** Verified tokens kept per server process (about 0.5 KB each). */
const verifiedTokensKept = 10_000;

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
  /**
   * Tokens whose signature and claims were checked, with their expiry: a
   * browser sends the same token for its hour, and checking the HMAC through
   * WebCrypto was 8–9 % of the server's CPU on a signed-in week (issue 21).
   * Keyed by the whole token, so any other bytes are checked afresh; a hit
   * still expires on time. Whether the session was ended since is read from
   * the database on every request (verify-id-token.ts), cached or not.
   * The oldest entry goes first when full.
   */
  const verified = new Map<string, { claims: VerifiedIdTokenClaims; exp: number }>();
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
      const known = verified.get(token);
      if (known) {
        // Its signature and claims were checked; only time has moved since.
        if (known.exp <= Math.floor(Date.now() / 1000)) {
          verified.delete(token);
          throw new DomainError('auth/id-token-expired');
        }
        return known.claims;
      }
      try {
        const { payload } = await jwtVerify(token, key, { issuer, audience, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.email !== 'string' || typeof payload.iat !== 'number' || typeof payload.exp !== 'number') {
          throw new DomainError('auth/invalid-id-token');
        }
        const claims = Object.freeze({ uid: payload.sub, email: payload.email, iat: payload.iat });
        if (verified.size >= verifiedTokensKept) verified.delete(verified.keys().next().value as string);
        verified.set(token, { claims, exp: payload.exp });
        return claims;
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new DomainError('auth/id-token-expired');
        if (error instanceof DomainError) throw error;
        throw new DomainError('auth/invalid-id-token');
      }
    },
  };
}
