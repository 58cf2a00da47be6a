import type { AuthTokens } from '@estudio/core';
import { domainErrors, isDomainErrorCode } from '@estudio/core';
import { texts } from '@estudio/core';
import { AuthError, type AuthClient } from './auth-client.ts';

export interface FirebaseClientConfig {
  apiKey: string;
  /** host:port of the Firebase Auth emulator, when the studio runs against it. */
  authEmulatorHost?: string;
}

/** Identity Toolkit answers with upper-case reasons; the portal speaks Firebase JS SDK codes. */
const reasonToCode: Record<string, string> = {
  EMAIL_NOT_FOUND: 'auth/user-not-found',
  INVALID_PASSWORD: 'auth/wrong-password',
  INVALID_LOGIN_CREDENTIALS: 'auth/invalid-credential',
  USER_DISABLED: 'auth/user-disabled',
  EMAIL_EXISTS: 'auth/email-already-in-use',
  WEAK_PASSWORD: 'auth/weak-password',
  INVALID_EMAIL: 'auth/invalid-email',
  MISSING_PASSWORD: 'auth/wrong-password',
  TOO_MANY_ATTEMPTS_TRY_LATER: 'auth/too-many-requests',
  TOKEN_EXPIRED: 'auth/invalid-refresh-token',
  INVALID_REFRESH_TOKEN: 'auth/invalid-refresh-token',
  USER_NOT_FOUND: 'auth/user-not-found',
};

function errorFor(reason: string): AuthError {
  // WEAK_PASSWORD arrives as "WEAK_PASSWORD : Password should be at least 6 characters".
  const key = reason.split(/\s*:\s*/)[0] ?? reason;
  const code = reasonToCode[key] ?? 'auth/internal-error';
  const message = isDomainErrorCode(code)
    ? domainErrors[code].message
    : code === 'auth/invalid-credential'
      ? texts.auth.invalidCredential
      : domainErrors.internal.message;
  return new AuthError(code, message);
}

async function post(url: string, body: BodyInit, contentType: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'Content-Type': contentType }, body });
  } catch {
    throw new AuthError('auth/network-request-failed', texts.shell.networkError);
  }
  const payload = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const error = payload.error as { message?: string } | undefined;
    throw errorFor(error?.message ?? '');
  }
  return payload;
}

/**
 * Firebase Authentication through its REST API (the Identity Toolkit and the
 * secure-token service), so the portal needs no Firebase SDK.
 */
export function createFirebaseAuthClient(config: FirebaseClientConfig): AuthClient {
  const key = encodeURIComponent(config.apiKey);
  const emulator = config.authEmulatorHost ? `http://${config.authEmulatorHost}/` : 'https://';
  const toolkit = `${emulator}identitytoolkit.googleapis.com/v1`;
  const secureToken = `${emulator}securetoken.googleapis.com/v1/token?key=${key}`;

  const accounts = async (method: string, body: Record<string, unknown>) =>
    post(`${toolkit}/accounts:${method}?key=${key}`, JSON.stringify(body), 'application/json');

  const tokens = (answer: Record<string, unknown>, email: string): AuthTokens => ({
    idToken: String(answer.idToken),
    refreshToken: String(answer.refreshToken),
    expiresIn: String(answer.expiresIn ?? '3600'),
    localId: String(answer.localId),
    email: String(answer.email ?? email),
  });

  return {
    provider: 'firebase',
    async signIn(email, password) {
      return tokens(await accounts('signInWithPassword', { email, password, returnSecureToken: true }), email);
    },
    async signUp(email, password) {
      return tokens(await accounts('signUp', { email, password, returnSecureToken: true }), email);
    },
    async refresh(refreshToken) {
      const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
      const answer = await post(secureToken, body.toString(), 'application/x-www-form-urlencoded');
      return {
        idToken: String(answer.id_token),
        refreshToken: String(answer.refresh_token),
        expiresIn: String(answer.expires_in ?? '3600'),
        localId: String(answer.user_id),
        email: '',
      };
    },
    async sendPasswordReset(email) {
      await accounts('sendOobCode', { requestType: 'PASSWORD_RESET', email });
      return { delivery: 'email' as const };
    },
  };
}
