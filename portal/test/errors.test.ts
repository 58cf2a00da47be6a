import { describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { errorFacts } from '../src/api/errors.ts';
import { AuthError, idTokenEndedCodes, sessionEndingCodes } from '../src/session/auth-client.ts';

/** An error as the server's errorFormatter shapes it. */
function serverError(domainCode: string, message: string, httpStatus: number) {
  return TRPCClientError.from({
    error: { message, code: -32600, data: { code: 'BAD_REQUEST', httpStatus, path: 'auth.login', domainCode } },
  });
}

describe('errorFacts', () => {
  it('reads the domain code, the status and the Spanish message of a server error', () => {
    const facts = errorFacts(serverError('auth/wrong-password', 'La contraseña es incorrecta. Por favor, intenta de nuevo', 400));
    expect(facts).toEqual({ code: 'auth/wrong-password', status: 400, message: 'La contraseña es incorrecta. Por favor, intenta de nuevo' });
  });

  it('recognises an expired token', () => {
    expect(errorFacts(serverError('auth/id-token-expired', 'Tu sesión expiró.', 401)).code).toBe('auth/id-token-expired');
  });

  it('a revoked ID token ends the session like an expired one', () => {
    for (const code of ['auth/id-token-expired', 'auth/id-token-revoked']) {
      const read = errorFacts(serverError(code, 'Tu sesión fue cerrada.', 401)).code;
      expect(read).toBe(code);
      expect(idTokenEndedCodes.has(read ?? '')).toBe(true);
      expect(sessionEndingCodes.has(read ?? '')).toBe(true);
    }
    expect(idTokenEndedCodes.has('auth/invalid-action-code')).toBe(false);
  });

  it('passes provider errors through', () => {
    expect(errorFacts(new AuthError('auth/user-not-found', 'x'))).toEqual({ code: 'auth/user-not-found', message: 'x' });
  });

  it('explains a network failure in Spanish', () => {
    const facts = errorFacts(TRPCClientError.from(new Error('Failed to fetch')));
    expect(facts.code).toBeUndefined();
    expect(facts.message).toMatch(/No pudimos conectar/);
  });
});
