import { eq } from 'drizzle-orm';
import { hashPassword } from '@estudio/db/password';
import { auth_user } from '@estudio/db/schema/identity';
import { DomainError, type AuthTokens } from '@estudio/core';
import type { Db } from '../../db.ts';
import { assertPasswordAllowed } from '../appconfig/get-app-config.ts';
import { issueSession, type SessionSettings } from './issue-session.ts';
import { revokeSessions } from './revoke-sessions.ts';

/**
 * Changes the signed-in identity's password, ends every session (refresh
 * tokens and the ID tokens issued so far) and answers a fresh session for this
 * device (as Firebase's REST API does). The fresh session is issued after the
 * revocation, so its ID token is not caught by it.
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
