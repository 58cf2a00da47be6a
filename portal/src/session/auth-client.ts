import type { AuthTokens, DomainErrorCode } from '@estudio/core';

/**
 * The sign-in provider as the portal sees it. Both implementations answer with
 * Firebase's token shape and throw {@link AuthError} with Firebase's error
 * codes, so the screens handle either provider the same way.
 */
export interface AuthClient {
  readonly provider: 'local' | 'firebase';
  signIn(email: string, password: string): Promise<AuthTokens>;
  signUp(email: string, password: string): Promise<AuthTokens>;
  refresh(refreshToken: string): Promise<AuthTokens>;
  /** 'none': the studio cannot send e-mail, so no link reached anybody (decision 079); Firebase always sends. */
  sendPasswordReset(email: string): Promise<{ delivery: 'email' | 'none' }>;
}

/** A sign-in provider failure with a Firebase-style code such as 'auth/wrong-password'. */
export class AuthError extends Error {
  readonly code: string;
  /** The field a refused sign-up names, with its own message (shown under the field). */
  readonly field?: { key: string; message: string };
  constructor(code: string, message: string, field?: { key: string; message: string }) {
    super(message);
    this.name = 'AuthError';
    this.code = code;
    if (field) this.field = field;
  }
}

/**
 * Answers to any API call meaning the ID token's session is over: expired,
 * revoked (sign out everywhere, a password change or a reset) or not valid.
 * The portal signs out on each of them alike.
 */
export const idTokenEndedCodes: ReadonlySet<string> = new Set<DomainErrorCode>([
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/invalid-id-token',
]);

/** Codes after which the stored refresh token can never work again. */
export const sessionEndingCodes: ReadonlySet<string> = new Set([
  ...idTokenEndedCodes,
  'auth/invalid-refresh-token',
  'auth/user-not-found',
  'auth/user-disabled',
  'auth/unauthenticated',
  'unauthenticated',
]);
