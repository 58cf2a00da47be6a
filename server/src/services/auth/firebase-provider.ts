import { getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { DomainError } from '@estudio/core';
import type { Config } from '../../config.ts';
import type { IdentityProvider } from './identity-provider.ts';

const notHere = async (): Promise<never> => {
  throw new DomainError('auth/operation-not-allowed');
};

/**
 * Firebase Auth: the browser signs in with Firebase and sends its ID token;
 * firebase-admin verifies it (against the Auth emulator when
 * FIREBASE_AUTH_EMULATOR_HOST is set).
 */
export function createFirebaseProvider(config: Config): IdentityProvider {
  // firebase-admin reads the emulator address only from the process environment.
  if (config.FIREBASE_AUTH_EMULATOR_HOST) process.env.FIREBASE_AUTH_EMULATOR_HOST = config.FIREBASE_AUTH_EMULATOR_HOST;
  const projectId = config.FIREBASE_PROJECT_ID;
  const appName = `estudio-${projectId}`;
  const app: App = getApps().find((a) => a.name === appName) ?? initializeApp({ projectId }, appName);
  const auth = getAuth(app);
  return {
    name: 'firebase',
    async verifyIdToken(_db, token) {
      try {
        const decoded = await auth.verifyIdToken(token);
        return { uid: decoded.uid, email: decoded.email?.toLowerCase() ?? null };
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'auth/id-token-expired') throw new DomainError('auth/id-token-expired');
        if (code === 'auth/user-disabled') throw new DomainError('auth/user-disabled');
        throw new DomainError('auth/invalid-id-token');
      }
    },
    signUp: notHere,
    signIn: notHere,
    refresh: notHere,
    recover: notHere,
    resetPassword: notHere,
    changePassword: notHere,
    requestEmailChange: notHere,
    confirmEmailChange: notHere,
    async revokeAll(_db, uid) {
      await auth.revokeRefreshTokens(uid);
    },
  };
}
