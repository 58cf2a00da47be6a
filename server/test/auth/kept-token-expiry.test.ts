import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIdTokenSigner } from '../../src/services/auth/id-token.ts';
import { call, login, testSecret, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * A token the server already checked and keeps (id-token.ts) expires at its
 * exp to the second, through the server's own doors: the customer's session
 * answers over /trpc until the second before, and 401 auth/id-token-expired
 * from its exp on, over /trpc and REST (id-token-verified.test.ts checks the
 * signer alone, a minute past).
 */
let server: TestServer;
let token: string;
let exp: number;

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  const session = await login(server.app, 'cliente@estudio.demo');
  // A token of 30 s, as the server signs them (same secret), so its exp is known.
  token = await createIdTokenSigner(testSecret, 30).sign({ uid: session.localId, email: 'cliente@estudio.demo' });
  exp = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }).exp;
}, 120_000);
afterEach(() => vi.useRealTimers());

const expired = { code: 'auth/id-token-expired', message: 'Tu sesión expiró. Por favor, inicia sesión de nuevo.' };
/** The server's clock (Date, which the token checks read) at an instant. */
const clockAt = (ms: number) => vi.useFakeTimers({ toFake: ['Date'], now: ms });

describe('a kept token at its expiry', () => {
  it('answers until the second before its exp, and is refused from its exp on, over /trpc and REST', async () => {
    // Checked once now: the server keeps it.
    expect((await call(server.app, 'GET', '/trpc/customer.me', { token })).status).toBe(200);

    clockAt(exp * 1000 - 1_000);
    const lastSecond = await call(server.app, 'GET', '/trpc/customer.me', { token });
    expect(lastSecond.status).toBe(200);
    expect(lastSecond.body.result.data.customer.email).toBe('cliente@estudio.demo');

    clockAt(exp * 1000);
    const atExp = await call(server.app, 'GET', '/trpc/customer.me', { token });
    expect(atExp.status).toBe(401);
    expect(atExp.body.error.data.domainCode).toBe(expired.code);
    const rest = await call(server.app, 'GET', '/api/customer', { token });
    expect({ status: rest.status, body: rest.body }).toEqual({ status: 401, body: expired });
  });
});
