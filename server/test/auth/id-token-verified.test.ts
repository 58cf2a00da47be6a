import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { createIdTokenSigner } from '../../src/services/auth/id-token.ts';

/**
 * The local ID tokens' verification keeps the tokens it checked:
 * what must stay true is that a kept token still expires on time and that
 * any other bytes are checked afresh.
 */
const secret = 'una-clave-de-prueba-de-32-caracteres!!';

afterEach(() => vi.useRealTimers());

describe('verified ID tokens', () => {
  it('a token checked once is accepted again, and still expires at its exp', async () => {
    const signer = createIdTokenSigner(secret, 60);
    const token = await signer.sign({ uid: 'u-1', email: 'ana@estudio.demo' });
    const first = await signer.verify(token);
    expect(first).toMatchObject({ uid: 'u-1', email: 'ana@estudio.demo' });
    expect(await signer.verify(token)).toEqual(first);
    // The clock (Date.now and new Date, which jose reads) 61 s later.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    await expect(signer.verify(token)).rejects.toMatchObject({ code: 'auth/id-token-expired' });
    // Dropped from the kept ones, it is checked afresh, and refused the same way.
    await expect(signer.verify(token)).rejects.toMatchObject({ code: 'auth/id-token-expired' });
  });

  it('the same claims with another signature, or signed with another secret, are refused after the genuine one was kept', async () => {
    const signer = createIdTokenSigner(secret, 60);
    const token = await signer.sign({ uid: 'u-2', email: 'beto@estudio.demo' });
    await signer.verify(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await expect(signer.verify(flipped)).rejects.toMatchObject({ code: 'auth/invalid-id-token' });
    const forged = await createIdTokenSigner('otra-clave-distinta-de-32-caracteres!!', 60).sign({ uid: 'u-2', email: 'beto@estudio.demo' });
    await expect(signer.verify(forged)).rejects.toMatchObject({ code: 'auth/invalid-id-token' });
    // A kept token's claims cannot be changed by whoever got them.
    const claims = await signer.verify(token);
    expect(Object.isFrozen(claims)).toBe(true);
  });

  it('refuses what jose refused: another algorithm, no signature, a changed payload, another audience or issuer, not yet valid, a critical header', async () => {
    const signer = createIdTokenSigner(secret, 60);
    const key = new TextEncoder().encode(secret);
    const now = Math.floor(Date.now() / 1000);
    const claims = { email: 'carla@estudio.demo', user_id: 'u-3' };
    const build = (header: Record<string, unknown>, edit: (jwt: SignJWT) => SignJWT = (jwt) => jwt) =>
      edit(new SignJWT(claims).setProtectedHeader(header as { alg: string }).setSubject('u-3').setIssuer('estudio-local').setAudience('estudio').setIssuedAt(now).setExpirationTime(now + 60)).sign(key);
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    /** A token with any header and payload, signed with the right secret by HMAC-SHA256. */
    const handMade = (header: unknown, payload: unknown) => {
      const input = `${b64(header)}.${b64(payload)}`;
      return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
    };
    const good = { sub: 'u-3', email: 'carla@estudio.demo', iss: 'estudio-local', aud: 'estudio', iat: now, exp: now + 60 };

    // The hand-made token is accepted as it is, so each refusal below is the one change made to it.
    await expect(signer.verify(handMade({ alg: 'HS256', typ: 'JWT' }, good))).resolves.toMatchObject({ uid: 'u-3' });
    await expect(signer.verify(handMade({ alg: 'HS256' }, { ...good, aud: ['otro', 'estudio'] }))).resolves.toMatchObject({ uid: 'u-3' });
    const refused = [
      handMade({ alg: 'HS512' }, good),
      handMade({ alg: 'HS256', crit: ['exp'] }, good),
      handMade({ alg: 'none' }, good),
      `${b64({ alg: 'none' })}.${b64(good)}.`,
      handMade({ typ: 'JWT' }, good),
      handMade({ alg: 'HS256', b64: false, crit: ['b64'] }, good),
      handMade({ alg: 'HS256' }, { ...good, aud: 'otro' }),
      handMade({ alg: 'HS256' }, { ...good, iss: 'firebase' }),
      handMade({ alg: 'HS256' }, { ...good, nbf: now + 120 }),
      handMade({ alg: 'HS256' }, { ...good, sub: 7 }),
      handMade({ alg: 'HS256' }, { ...good, exp: String(now + 60) }),
      handMade({ alg: 'HS256' }, 'texto'),
      handMade('HS256', good),
      'a.b',
      'a.b.c.d',
      '',
    ];
    const genuine = await build({ alg: 'HS256', typ: 'JWT' });
    const [h, p, sig] = genuine.split('.') as [string, string, string];
    refused.push(`${h}.${b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'u-admin' })}.${sig}`);
    refused.push(`${h}.${p}.${sig}=`, `${h}.${p}.${sig.slice(0, -1)}`, `${h}.${p}`);
    /** The check before (jose's jwtVerify, then the claims' types), which must have refused the same tokens. */
    const previously = async (token: string) => {
      const { payload } = await jwtVerify(token, key, { issuer: 'estudio-local', audience: 'estudio', algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.email !== 'string' || typeof payload.iat !== 'number' || typeof payload.exp !== 'number') throw new Error('claims');
      return payload;
    };
    for (const token of refused) {
      await expect(signer.verify(token), token).rejects.toMatchObject({ code: 'auth/invalid-id-token' });
      // jose's base64url decoder ignores a trailing '=', so it took that spelling of the genuine signature; now one signature has one spelling.
      if (!token.endsWith('=')) await expect(previously(token), token).rejects.toThrow();
    }
    await expect(signer.verify(handMade({ alg: 'HS256' }, { ...good, exp: now }))).rejects.toMatchObject({ code: 'auth/id-token-expired' });
    await expect(signer.verify(genuine)).resolves.toMatchObject({ uid: 'u-3', email: 'carla@estudio.demo', iat: now });
  });
});
