import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const r = 8;
const p = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a password as `scrypt$N$r$p$<salt b64>$<hash b64>` (node:crypto, random 16-byte salt). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, KEY_LENGTH, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Checks a password against a stored hash in constant time. The cost
 * parameters come from the stored string, so hashes made with older settings
 * keep verifying. A malformed hash verifies as false.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [cost, blockSize, parallel] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![cost, blockSize, parallel].every((v) => Number.isInteger(v) && v > 0) || cost > 2 ** 20) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  // A cut-short hash would be matched by a fraction of all passwords (1 in 256 for one byte): refuse less than 16 bytes of salt and of hash.
  if (salt.length < 16 || expected.length < 16) return false;
  const actual = await derive(password, salt, expected.length, {
    N: cost,
    r: blockSize,
    p: parallel,
    maxmem: 256 * cost * blockSize + 32 * 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}
