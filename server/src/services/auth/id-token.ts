import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
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
  const key = Buffer.from(secret, 'utf8');
  /**
   * Tokens whose signature and claims were checked, with their expiry: a
   * browser sends the same token for its hour, and checking the HMAC through
   * WebCrypto was 8–9 % of the server's CPU on a signed-in week.
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
      const { claims, exp } = verifyHs256(token, key, issuer, audience);
      if (verified.size >= verifiedTokensKept) verified.delete(verified.keys().next().value as string);
      verified.set(token, { claims, exp });
      return claims;
    },
  };
}

/** A JSON object from a base64url part of a token, or null. */
function jsonPart(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Checks a local ID token as jose's jwtVerify did (algorithm HS256 only, the
 * signature, then issuer, audience, exp and nbf, with no clock tolerance), with
 * node:crypto's HMAC, synchronously. jose runs on WebCrypto: it imported the
 * key and ran the HMAC as an asynchronous job for every token, 11 % of the
 * server's CPU in a rush for a class (bench/booking.ts), where every token is
 * new, so the kept tokens above do not help. Throws DomainError
 * 'auth/invalid-id-token', or 'auth/id-token-expired' for a genuine token past
 * its exp.
 */
export function verifyHs256(token: string, key: Buffer, issuer: string, audience: string): { claims: VerifiedIdTokenClaims; exp: number } {
  const invalid = () => new DomainError('auth/invalid-id-token');
  const parts = token.split('.');
  if (parts.length !== 3) throw invalid();
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = jsonPart(headerPart);
  // Only HS256, never "none" nor another algorithm; no critical extensions (jose refuses those it does not know).
  if (header?.alg !== 'HS256' || 'crit' in header || 'b64' in header) throw invalid();
  const signature = Buffer.from(signaturePart, 'base64url');
  // The signature as sent must be the canonical encoding of 32 bytes, so one signature has one spelling.
  if (signature.length !== 32 || signature.toString('base64url') !== signaturePart) throw invalid();
  const expected = createHmac('sha256', key).update(`${headerPart}.${payloadPart}`).digest();
  if (!timingSafeEqual(signature, expected)) throw invalid();
  const payload = jsonPart(payloadPart);
  if (!payload) throw invalid();
  const { sub, email, iat, exp, nbf, iss, aud } = payload;
  if (typeof sub !== 'string' || typeof email !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') throw invalid();
  if (iss !== issuer || !(aud === audience || (Array.isArray(aud) && aud.includes(audience)))) throw invalid();
  const now = Math.floor(Date.now() / 1000);
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) throw invalid();
  if (exp <= now) throw new DomainError('auth/id-token-expired');
  return { claims: Object.freeze({ uid: sub, email, iat }), exp };
}
