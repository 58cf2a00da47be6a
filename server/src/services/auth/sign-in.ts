import { eq } from 'drizzle-orm';
import { verifyPassword } from '@estudio/db/password';
import { auth_user } from '@estudio/db/schema/identity';
import { DomainError, type AuthTokens } from '@estudio/core';
import type { Db } from '../../db.ts';
import { UNSET_PASSWORD } from './recover-password.ts';
import { issueSession, type SessionSettings } from './issue-session.ts';
import type { HashingSlots } from '../rate-limit/hashing-slots.ts';
import type { LoginFailureStore } from './login-failures.ts';

/** What a password check needs: the lockout that counts it and the hashing slots it runs in (decision 012). */
export interface PasswordCheck {
  loginFailures: LoginFailureStore;
  hashing: HashingSlots;
}

/**
 * Checks an account's password as a sign-in attempt, wherever it is typed
 * (sign-in, changing the password or the e-mail): the attempt is recorded
 * before the password is checked (LoginFailureStore.begin), so parallel
 * guesses, a batch of them included, cannot pass the limit; over it,
 * 'auth/too-many-requests' even for the right password. Only attempts the
 * lockout let through take a hashing slot: a flood of locked-out guesses
 * costs no scrypt.
 */
export async function checkPasswordAttempt(
  db: Db,
  check: PasswordCheck,
  user: { email: string; password_hash: string },
  password: string,
  ip: string | null = null,
): Promise<boolean> {
  const attempt = await check.loginFailures.begin(db, user.email, ip);
  if (!attempt) throw new DomainError('auth/too-many-requests');
  let matched: boolean;
  try {
    matched = await check.hashing.run(() => verifyPassword(password, user.password_hash));
  } catch (error) {
    await attempt.withdraw(db);
    throw error;
  }
  await attempt.settle(db, matched);
  return matched;
}

/**
 * E-mail and password sign-in with Firebase's error codes. After too many
 * failures for one account it refuses even the right password until the
 * window passes, so guessing gains nothing (checkPasswordAttempt).
 */
export async function signIn(
  db: Db,
  settings: SessionSettings & PasswordCheck,
  input: { email: string; password: string; ip?: string | undefined },
): Promise<AuthTokens> {
  const [user] = await db.select().from(auth_user).where(eq(auth_user.email, input.email)).limit(1);
  // An identity waiting for its desk customer to create the password (decision 017) has no password to try yet.
  if (!user || user.password_hash === UNSET_PASSWORD) throw new DomainError('auth/user-not-found');
  if (!(await checkPasswordAttempt(db, settings, user, input.password, input.ip ?? null))) throw new DomainError('auth/wrong-password');
  if (user.disabledAt) throw new DomainError('auth/user-disabled');
  return issueSession(db, settings, { uid: user.uid, email: user.email });
}
