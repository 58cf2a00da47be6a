import { createHash, randomBytes } from 'node:crypto';

/** A random opaque token (refresh tokens, reset codes): 32 bytes, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Opaque tokens are stored as their sha-256, so a database leak reveals no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Firebase-like uid: 28 URL-safe characters. */
export function newUid(): string {
  return randomBytes(21).toString('base64url');
}
