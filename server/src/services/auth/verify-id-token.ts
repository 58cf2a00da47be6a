import { and, eq, isNull, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { auth_user } from '@estudio/db/schema/identity';
import { DomainError } from '@estudio/core';
import type { Db } from '../../db.ts';
import type { IdTokenSigner } from './id-token.ts';
import type { VerifiedIdentity } from './identity-provider.ts';

/**
 * Verifies a local ID token and that its session was not ended since it was
 * issued (one primary-key lookup of auth_user). The same statement reads the
 * customer linked to the identity, so a signed-in request costs one round
 * trip for who it is, not two (decision 042); nothing is kept between requests,
 * so a revocation or a role change counts from the next request.
 *
 * Throws DomainError (all 401, the portal should sign out on any of them):
 * - 'auth/id-token-expired': past its `exp`; a refresh gives a new one.
 * - 'auth/id-token-revoked': issued (`iat`, whole seconds) before the
 *   account's tokens_valid_after, i.e. before "sign out everywhere", a
 *   password change or a password reset; the refresh token is revoked too,
 *   so the user must sign in again.
 * - 'auth/invalid-id-token': bad signature, issuer, audience or claims, or the
 *   identity no longer exists.
 * And 'auth/user-disabled' (403) once staff disabled the account: its tokens
 * stop working at once, not when they expire.
 */
export async function verifyLocalIdToken(db: Db, signer: IdTokenSigner, token: string): Promise<VerifiedIdentity> {
  const claims = await signer.verify(token);
  let statement = prepared.get(db);
  if (!statement) prepared.set(db, (statement = prepareIdentityLookup(db)));
  const [user] = await statement.execute({ uid: claims.uid });
  if (!user) throw new DomainError('auth/invalid-id-token');
  if (user.disabledAt) throw new DomainError('auth/user-disabled');
  if (user.tokensValidAfter && claims.iat * 1000 < user.tokensValidAfter.getTime()) throw new DomainError('auth/id-token-revoked');
  return { uid: claims.uid, email: claims.email, customer: user.customer };
}

/**
 * Built once per database handle, as the booking's first look is (decision
 * 042): every signed-in request runs it, and drizzle would otherwise build its
 * text (the customer's every column) on each one.
 */
function prepareIdentityLookup(db: Db) {
  return db
    .select({ tokensValidAfter: auth_user.tokens_valid_after, disabledAt: auth_user.disabledAt, customer })
    .from(auth_user)
    .leftJoin(customer, and(eq(customer.uid, auth_user.uid), isNull(customer.deletedAt)))
    .where(eq(auth_user.uid, sql.placeholder('uid')))
    .limit(1)
    .prepare('identity_of_id_token');
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareIdentityLookup>>();
