import { getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { and, eq, isNull } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { auth_user } from '@estudio/db/schema/identity';
import { DomainError } from '@estudio/core';
import { customerClaim, passwordReset } from '@estudio/core/messages/templates/account';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { messageContextOf } from '../messages/message-context.ts';
import { queueEmail } from '../messages/queue-message.ts';
import type { IdentityProvider } from './identity-provider.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/** How long Firebase's password links work (its default for a reset, one hour). */
export const firebaseResetLinkMinutes = 60;

/**
 * Decision 095: the password link of an e-mail under Firebase, mailed by the
 * studio (its outbox, its colours) in the caller's transaction. Firebase
 * makes the link (the admin SDK's password reset link), so the person sets
 * the password where they sign in. A live account with that e-mail and no
 * Firebase identity yet (registered at the desk, or signed in here before
 * the studio moved to Firebase) gets one, linked to the account, and the
 * mail that invites its owner to create the password. Anything else writes
 * nothing: the caller answers the same either way.
 */
async function mailFirebasePasswordLink(auth: Auth, tx: Db, config: Config, email: string): Promise<void> {
  let kind: 'reset' | 'claim' = 'reset';
  const existing = await auth.getUserByEmail(email).catch((error: { code?: string }) => {
    if (error.code === 'auth/user-not-found') return null;
    throw error;
  });
  if (!existing) {
    const [row] = await tx
      .select({ customer_id: customer.customer_id, uid: customer.uid })
      .from(customer)
      .where(and(eq(customer.email, email), isNull(customer.deletedAt)))
      .limit(1);
    if (!row) return;
    if (row.uid !== null) {
      const [local] = await tx.select({ uid: auth_user.uid }).from(auth_user).where(eq(auth_user.uid, row.uid)).limit(1);
      // Linked to a Firebase identity whose e-mail changed since: that identity's owner recovers it by its own e-mail.
      if (!local) return;
    }
    const created = await auth.createUser({ email, emailVerified: false });
    await tx.update(customer).set({ uid: created.uid, updatedAt: new Date() }).where(eq(customer.customer_id, row.customer_id));
    kind = 'claim';
  }
  const link = await auth.generatePasswordResetLink(email);
  const businessName = (await loadStudioSettings(tx)).business_name;
  const template = kind === 'claim' ? customerClaim : passwordReset;
  await queueEmail(tx, messageContextOf({ PUBLIC_URL: config.PUBLIC_URL }), { to: email, parts: template({ businessName, link, minutes: firebaseResetLinkMinutes }) });
}

const notHere = async (): Promise<never> => {
  throw new DomainError('auth/operation-not-allowed');
};

/**
 * Firebase Auth: the browser signs in with Firebase and sends its ID token;
 * firebase-admin verifies it (against the Auth emulator when
 * FIREBASE_AUTH_EMULATOR_HOST is set). Recovery mails Firebase's own
 * password link (mailFirebasePasswordLink); the other account operations
 * happen in the browser, with Firebase.
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
        return { uid: decoded.uid, email: decoded.email?.toLowerCase() ?? null, emailVerified: decoded.email_verified === true };
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
    recover: (db, email) => mailFirebasePasswordLink(auth, db, config, email.trim().toLowerCase()),
    resetPassword: notHere,
    changePassword: notHere,
    requestEmailChange: notHere,
    confirmEmailChange: notHere,
    async revokeAll(_db, uid) {
      await auth.revokeRefreshTokens(uid);
    },
  };
}
