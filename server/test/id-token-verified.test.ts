import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIdTokenSigner } from '../src/services/auth/id-token.ts';

/**
 * The local ID tokens' verification keeps the tokens it checked (issue 21):
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
});
