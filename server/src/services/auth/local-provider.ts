import type { Config } from '../../config.ts';
import { changePassword } from './change-password.ts';
import { confirmEmailChange } from './confirm-email-change.ts';
import { createIdTokenSigner } from './id-token.ts';
import type { IdentityProvider } from './identity-provider.ts';
import type { HashingSlots } from '../rate-limit/hashing-slots.ts';
import type { LoginFailureStore } from './login-failures.ts';
import { recoverPassword } from './recover-password.ts';
import { refreshSession } from './refresh-session.ts';
import { requestEmailChange } from './request-email-change.ts';
import { resetPassword } from './reset-password.ts';
import { revokeSessions } from './revoke-sessions.ts';
import { signIn } from './sign-in.ts';
import { signUp } from './sign-up.ts';
import { verifyLocalIdToken, verifyLocalIdTokenAndFirstLook } from './verify-id-token.ts';

/**
 * The embedded default: identities in auth_user, HS256 ID tokens that are
 * refused once their sessions end, rotating refresh tokens, and failed
 * sign-ins counted in the database. Every operation that runs scrypt runs in
 * one of the process's hashing slots (decision 012): sign-in takes one for
 * the password check only, once the lockout let the attempt through; the
 * others for the whole operation, which is mostly the hash.
 */
export function createLocalProvider(config: Config, { loginFailures, hashing }: { loginFailures: LoginFailureStore; hashing: HashingSlots }): IdentityProvider {
  const signer = createIdTokenSigner(config.AUTH_SECRET, config.ID_TOKEN_TTL_SECONDS);
  const session = { signer, refreshTokenTtlDays: config.REFRESH_TOKEN_TTL_DAYS };
  const recover = { publicUrl: config.PUBLIC_URL, resetTtlMinutes: config.PASSWORD_RESET_TTL_MINUTES };
  return {
    name: 'local',
    verifyIdToken: (db, token) => verifyLocalIdToken(db, signer, token),
    verifyIdTokenAndFirstLook: (db, token, ask) => verifyLocalIdTokenAndFirstLook(db, signer, token, ask),
    signUp: (db, input) => hashing.run(() => signUp(db, { ...session, recover, config }, input)),
    signIn: (db, input) => signIn(db, { ...session, loginFailures, hashing }, input),
    refresh: (db, refreshToken) => refreshSession(db, session, refreshToken),
    recover: (db, email) => recoverPassword(db, recover, email),
    resetPassword: (db, input) => hashing.run(() => resetPassword(db, input)),
    changePassword: (db, uid, password) => hashing.run(() => changePassword(db, session, uid, password)),
    // Its password check takes the slot (and counts for the lockout) itself.
    requestEmailChange: (db, uid, input) =>
      requestEmailChange(db, { publicUrl: config.PUBLIC_URL, ttlMinutes: config.EMAIL_CHANGE_TTL_MINUTES, loginFailures, hashing }, uid, input),
    confirmEmailChange: (db, token) => confirmEmailChange(db, token),
    revokeAll: (db, uid) => revokeSessions(db, uid),
  };
}
