import { eq } from 'drizzle-orm';
import { verifyPassword } from '@estudio/db/password';
import { auth_user } from '@estudio/db/schema/identity';
import { DomainError, type AuthTokens } from '@estudio/core';
import type { Db } from '../../db.ts';
import { issueSession, type SessionSettings } from './issue-session.ts';
import type { HashingSlots } from '../rate-limit/hashing-slots.ts';
import type { LoginFailureStore } from './login-failures.ts';

/**
 * E-mail and password sign-in with Firebase's error codes. After too many
 * failures for one account it refuses even the right password until the
 * window passes, so guessing gains nothing. The attempt is recorded before
 * the password is checked (LoginFailureStore.begin), so parallel guesses,
 * a batch of them included, cannot pass the limit.
 */
export async function signIn(
  db: Db,
  settings: SessionSettings & { loginFailures: LoginFailureStore; hashing: HashingSlots },
  input: { email: string; password: string; ip?: string | undefined },
): Promise<AuthTokens> {
  const [user] = await db.select().from(auth_user).where(eq(auth_user.email, input.email)).limit(1);
  if (!user) throw new DomainError('auth/user-not-found');
  const attempt = await settings.loginFailures.begin(db, input.email, input.ip ?? null);
  if (!attempt) throw new DomainError('auth/too-many-requests');
  let matched: boolean;
  try {
    // Only attempts the lockout let through take a hashing slot: a flood of locked-out guesses costs no scrypt.
    matched = await settings.hashing.run(() => verifyPassword(input.password, user.password_hash));
  } catch (error) {
    await attempt.withdraw(db);
    throw error;
  }
  await attempt.settle(db, matched);
  if (!matched) throw new DomainError('auth/wrong-password');
  if (user.disabledAt) throw new DomainError('auth/user-disabled');
  return issueSession(db, settings, { uid: user.uid, email: user.email });
}
