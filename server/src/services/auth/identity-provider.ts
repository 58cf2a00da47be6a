import type { AuthTokens } from '@estudio/core';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import type { CustomerRow } from '../customer/find-customer.ts';
import type { FirstLook, FirstLookAsk } from '../reservations/first-look.ts';
import { createFirebaseProvider } from './firebase-provider.ts';
import { createLocalProvider } from './local-provider.ts';
import type { HashingSlots } from '../rate-limit/hashing-slots.ts';
import type { LoginFailureStore } from './login-failures.ts';

export interface VerifiedIdentity {
  uid: string;
  /** Lower-cased; Firebase identities without an e-mail (phone sign-in) have none. */
  email: string | null;
  /**
   * Firebase has verified that the person holds the e-mail (it sent a link
   * there, or the provider vouches for it): an identity with no account yet
   * is then linked to the account with that e-mail (decision 095).
   */
  emailVerified?: boolean;
  /**
   * The customer linked to the identity (null: none), when the provider read it
   * with the token's check (the local provider, decision 042); absent, the
   * caller looks it up.
   */
  customer?: CustomerRow | null;
}

/**
 * The sign-in provider, chosen by AUTH_PROVIDER. Both verify bearer tokens;
 * the account operations exist only in the local provider (with Firebase the
 * browser talks to Firebase directly), and answer 'auth/operation-not-allowed'
 * under Firebase.
 */
export interface IdentityProvider {
  readonly name: 'local' | 'firebase';
  /**
   * Verifies a bearer ID token. Throws DomainError, all status 401:
   * 'auth/id-token-expired' (past its expiry), 'auth/id-token-revoked' (local
   * provider: issued before the account's sessions were ended by sign out
   * everywhere, a password change or a reset — refreshing will not help, the
   * user must sign in again) or 'auth/invalid-id-token'. Clients should treat
   * all three as signed out.
   */
  verifyIdToken(db: Db, token: string): Promise<VerifiedIdentity>;
  /**
   * verifyIdToken, and the first look of the identity's customer booking the
   * asked class, read by the token check's own statement (decision 060; the
   * local provider). Absent (Firebase checks tokens without the database):
   * the booking reads its first look itself.
   */
  verifyIdTokenAndFirstLook?(db: Db, token: string, ask: FirstLookAsk): Promise<VerifiedIdentity & { firstLook: FirstLook | null }>;
  signUp(db: Db, input: { email: string; password: string }): Promise<AuthTokens>;
  /** `ip` is kept with a failed attempt, for whoever investigates a lockout. */
  signIn(db: Db, input: { email: string; password: string; ip?: string | undefined }): Promise<AuthTokens>;
  refresh(db: Db, refreshToken: string): Promise<AuthTokens>;
  recover(db: Db, email: string): Promise<void>;
  resetPassword(db: Db, input: { token: string; password: string }): Promise<void>;
  changePassword(db: Db, uid: string, password: string): Promise<AuthTokens>;
  /** Mails a confirmation link to the new e-mail after checking the password (Firebase: verifyBeforeUpdateEmail). */
  requestEmailChange(db: Db, uid: string, input: { email: string; password: string }): Promise<void>;
  /** Applies the change the mailed code stands for and ends every session; answers the new e-mail. */
  confirmEmailChange(db: Db, token: string): Promise<string>;
  revokeAll(db: Db, uid: string): Promise<void>;
}

export function createIdentityProvider(config: Config, local: { loginFailures: LoginFailureStore; hashing: HashingSlots }): IdentityProvider {
  return config.AUTH_PROVIDER === 'firebase' ? createFirebaseProvider(config) : createLocalProvider(config, local);
}
