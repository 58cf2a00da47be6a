import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

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

/** The key a token derives for what is sealed under it: nothing stored (only its hash) gives the key. */
function keyOf(token: string): Buffer {
  return createHash('sha256').update('estudio sealed by token\0').update(token).digest();
}

/** Encrypts `secret` so that only a holder of `token` can read it (AES-256-GCM). */
export function sealWithToken(token: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(token), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Reads what {@link sealWithToken} sealed under `token`, or null when it was sealed under another or altered. */
export function openWithToken(token: string, sealed: string): string | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(token), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
