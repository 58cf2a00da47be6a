import { eq } from 'drizzle-orm';
import { hashPassword } from '@estudio/db/password';
import { auth_user } from '@estudio/db/schema/identity';
import { DomainError, type AuthTokens } from '@estudio/core';
import type { Db } from '../../db.ts';
import { assertPasswordAllowed } from '../appconfig/get-app-config.ts';
import type { IdentityProvider, VerifiedIdentity } from './identity-provider.ts';
import { issueSession, type SessionSettings } from './issue-session.ts';
import { revokeSessions } from './revoke-sessions.ts';

/**
 * Changes the signed-in identity's password, ends every session (refresh
 * tokens and the ID tokens issued so far) and spends every outstanding reset
 * link, then answers a fresh session for this device (as Firebase's REST API
 * does): every other device is signed out, this one stays signed in. The
 * fresh session is issued after the revocation, so its ID token is not
 * caught by it. The caller has already checked the current password
 * ({@link changeOwnPassword}).
 */
export async function changePassword(db: Db, settings: SessionSettings, uid: string, password: string): Promise<AuthTokens> {
  await assertPasswordAllowed(db, password);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [user] = await tx.update(auth_user).set({ password_hash: passwordHash }).where(eq(auth_user.uid, uid)).returning();
    if (!user) throw new DomainError('auth/user-not-found');
    await revokeSessions(tx, uid);
    return issueSession(tx, settings, { uid: user.uid, email: user.email });
  });
}

/**
 * PUT /api/auth/password: a session alone is not enough to change the
 * password (a borrowed phone, a stolen token), the current one must be typed
 * too. It is checked as a sign-in with the session's e-mail, through the
 * provider, so a wrong one counts towards the account's lockout exactly as a
 * failed sign-in does and a locked account answers 429; the session that
 * check issues is ended at once by the change. Under Firebase both steps
 * answer 'auth/operation-not-allowed' (the browser talks to Firebase).
 */
export async function changeOwnPassword(
  db: Db,
  identity: IdentityProvider,
  caller: VerifiedIdentity,
  input: { current_password: string; password: string },
  ip?: string,
): Promise<AuthTokens> {
  if (identity.name !== 'local') throw new DomainError('auth/operation-not-allowed');
  if (!caller.email) throw new DomainError('auth/user-not-found');
  try {
    await identity.signIn(db, { email: caller.email, password: input.current_password, ip });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'auth/wrong-password') throw new DomainError('auth/wrong-current-password');
    throw error;
  }
  return identity.changePassword(db, caller.uid, input.password);
}
