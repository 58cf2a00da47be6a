import { and, eq, isNull, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { class_type } from '@estudio/db/schema/catalogue';
import { single_class } from '@estudio/db/schema/schedule';
import { auth_user } from '@estudio/db/schema/identity';
import { DomainError } from '@estudio/core';
import type { Db } from '../../db.ts';
import type { CustomerRow } from '../customer/find-customer.ts';
import { idArray } from '@estudio/db/prepared';
import { firstLookColumns, firstLookOfRow, type FirstLook, type FirstLookAsk } from '../reservations/first-look.ts';
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
  return identityOf(claims, user);
}

/**
 * verifyLocalIdToken for a customer booking a class for themselves: the same
 * statement also reads the booking's first look for the identity's customer
 * (decision 060), so a rush's refusal costs one statement, not two. The token
 * is still checked in full before anything is answered; the look is only
 * used when the token passed and the booking is the one asked for.
 */
export async function verifyLocalIdTokenAndFirstLook(
  db: Db,
  signer: IdTokenSigner,
  token: string,
  ask: FirstLookAsk,
): Promise<VerifiedIdentity & { firstLook: FirstLook | null }> {
  const claims = await signer.verify(token);
  let statement = preparedWithFirstLook.get(db);
  if (!statement) preparedWithFirstLook.set(db, (statement = prepareIdentityWithFirstLook(db)));
  const [user] = await statement.execute({ uid: claims.uid, singleClassId: ask.singleClassId, seats: idArray(ask.seats) });
  const identity = identityOf(claims, user);
  const customerId = identity.customer?.customer_id;
  if (!user || customerId === undefined) return { ...identity, firstLook: null };
  return { ...identity, firstLook: await firstLookOfRow(db, { ...ask, customerId }, user) };
}

/** The checks on the identity's row, in this order: it exists, it is not disabled, the token is not older than its sessions. */
function identityOf(claims: { uid: string; email: string | null; iat: number }, user: IdentityRow | undefined): VerifiedIdentity {
  if (!user) throw new DomainError('auth/invalid-id-token');
  if (user.disabledAt) throw new DomainError('auth/user-disabled');
  if (user.tokensValidAfter && claims.iat * 1000 < user.tokensValidAfter.getTime()) throw new DomainError('auth/id-token-revoked');
  return { uid: claims.uid, email: claims.email, customer: user.customer };
}

interface IdentityRow {
  tokensValidAfter: Date | null;
  disabledAt: Date | null;
  customer: CustomerRow | null;
}

const identityColumns = { tokensValidAfter: auth_user.tokens_valid_after, disabledAt: auth_user.disabledAt, customer };

/**
 * Built once per database handle, as the booking's first look is (decision
 * 042): every signed-in request runs it, and drizzle would otherwise build its
 * text (the customer's every column) on each one.
 */
function prepareIdentityLookup(db: Db) {
  return db
    .select(identityColumns)
    .from(auth_user)
    .leftJoin(customer, and(eq(customer.uid, auth_user.uid), isNull(customer.deletedAt)))
    .where(eq(auth_user.uid, sql.placeholder('uid')))
    .limit(1)
    .prepare('identity_of_id_token');
}

/**
 * The identity's row with the first look's columns for its customer and the
 * asked class, left-joined so a missing class (or customer) still answers the
 * identity: the first look's own statement hung off auth_user.
 */
function prepareIdentityWithFirstLook(db: Db) {
  return db
    // The customer is joined live already: whether it is there needs no second look-up.
    .select({ ...identityColumns, ...firstLookColumns(customer.customer_id), customerLive: sql<boolean>`${customer.customer_id} is not null` })
    .from(auth_user)
    .leftJoin(customer, and(eq(customer.uid, auth_user.uid), isNull(customer.deletedAt)))
    .leftJoin(single_class, eq(single_class.single_class_id, sql.placeholder('singleClassId')))
    .leftJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(auth_user.uid, sql.placeholder('uid')))
    .limit(1)
    .prepare('identity_and_booking_first_look');
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareIdentityLookup>>();
const preparedWithFirstLook = new WeakMap<Db, ReturnType<typeof prepareIdentityWithFirstLook>>();
