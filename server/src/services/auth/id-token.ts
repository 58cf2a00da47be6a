import { errors, jwtVerify, SignJWT } from 'jose';
import { DomainError } from '@estudio/core';

const issuer = 'estudio-local';
const audience = 'estudio';

export interface IdTokenClaims {
  uid: string;
  email: string;
}

export interface IdTokenSigner {
  sign(claims: IdTokenClaims, ttlSeconds?: number): Promise<string>;
  verify(token: string): Promise<IdTokenClaims>;
  readonly ttlSeconds: number;
}

/**
 * ID tokens of the local provider: HS256 JWTs shaped like Firebase's
 * (sub and user_id = uid, email), valid for `ttlSeconds`. They are stateless,
 * so any server process holding AUTH_SECRET accepts them.
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
        if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') throw new DomainError('auth/invalid-id-token');
        return { uid: payload.sub, email: payload.email };
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new DomainError('auth/id-token-expired');
        if (error instanceof DomainError) throw error;
        throw new DomainError('auth/invalid-id-token');
      }
    },
  };
}
