import { eq } from 'drizzle-orm';
import { verifyPassword } from '@estudio/db/password';
import { auth_user } from '@estudio/db/schema/identity';
import { DomainError, type AuthTokens } from '@estudio/core';
import type { Db } from '../../db.ts';
import { issueSession, type SessionSettings } from './issue-session.ts';
import type { LoginFailureStore } from './login-failures.ts';

/**
 * E-mail and password sign-in with Firebase's error codes. After too many
 * failures for one account it refuses even the right password until the
 * window passes, so guessing gains nothing. The check and the record are not
 * one atomic step: concurrent guesses can pass the limit by the number in
 * flight, which the per-address limiter keeps small.
 */
export async function signIn(
  db: Db,
  settings: SessionSettings & { loginFailures: LoginFailureStore },
  input: { email: string; password: string; ip?: string | undefined },
): Promise<AuthTokens> {
  if (await settings.loginFailures.isLocked(db, input.email)) throw new DomainError('auth/too-many-requests');
  const [user] = await db.select().from(auth_user).where(eq(auth_user.email, input.email)).limit(1);
  if (!user) throw new DomainError('auth/user-not-found');
  if (!(await verifyPassword(input.password, user.password_hash))) {
    await settings.loginFailures.record(db, input.email, input.ip ?? null);
    throw new DomainError('auth/wrong-password');
  }
  if (user.disabledAt) throw new DomainError('auth/user-disabled');
  await settings.loginFailures.clear(db, input.email);
  return issueSession(db, settings, { uid: user.uid, email: user.email });
}
