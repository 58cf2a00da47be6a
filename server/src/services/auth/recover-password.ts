import { and, eq, inArray, isNull } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { auth_user, password_reset } from '@estudio/db/schema/identity';
import { customerClaim, passwordReset } from '@estudio/core/messages/templates/account';
import type { Db } from '../../db.ts';
import { messageContextOf } from '../messages/message-context.ts';
import { queueEmail } from '../messages/queue-message.ts';
import { hashToken, newUid, randomToken } from './tokens.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

export interface RecoverSettings {
  publicUrl: string;
  resetTtlMinutes: number;
}

/**
 * The password of an identity made for a customer the studio registered at
 * the desk, until its owner opens the mailed link: no password verifies
 * against it (not a scrypt hash), so nobody can sign in with it.
 */
export const UNSET_PASSWORD = '!unset';

/**
 * The identities customers with no password create theirs through, one per e-mail, made without a password
 * (UNSET_PASSWORD) where there is none yet: the uid of each e-mail's identity. Two requests at once: the unique
 * e-mail index keeps one identity, and both answer it.
 */
export async function identitiesToClaim(tx: Db, emails: readonly string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  await tx
    .insert(auth_user)
    .values(emails.map((email) => ({ uid: newUid(), email, password_hash: UNSET_PASSWORD })))
    .onConflictDoNothing();
  const made = await tx.select({ uid: auth_user.uid, email: auth_user.email }).from(auth_user).where(inArray(auth_user.email, [...emails]));
  const uids = new Map(made.map((u) => [u.email, u.uid]));
  if (emails.some((email) => !uids.has(email))) throw new Error('identity for a customer without password was not stored');
  return uids;
}

/**
 * One-time links that set each identity's password (the portal's /recuperar), valid `ttlMinutes`: a password_reset
 * row per uid, stored as its hash. The reset, the claim and the invitation e-mails all carry a link made here.
 */
export async function passwordLinks(tx: Db, settings: { publicUrl: string; ttlMinutes: number }, uids: readonly string[]): Promise<Map<string, string>> {
  if (uids.length === 0) return new Map();
  const expires = new Date(Date.now() + settings.ttlMinutes * 60_000);
  const tokens = uids.map((uid) => ({ uid, token: randomToken() }));
  await tx.insert(password_reset).values(tokens.map(({ uid, token }) => ({ uid, token_hash: hashToken(token), expires_at: expires })));
  return new Map(tokens.map(({ uid, token }) => [uid, `${settings.publicUrl}/recuperar?token=${encodeURIComponent(token)}`]));
}

/**
 * Writes a one-time password link and its e-mail to the outbox, in the
 * caller's transaction. An account with a password gets the reset mail. An
 * e-mail that only a desk-registered customer has (uid null, decision 017)
 * gets an identity without password and the mail that invites its owner to
 * create one: opening the link is what proves the e-mail, and the reset then
 * binds the customer row (resetPassword). Anything else writes nothing.
 */
async function mailPasswordLink(tx: Db, settings: RecoverSettings, email: string): Promise<'reset' | 'claim' | null> {
  const [user] = await tx.select({ uid: auth_user.uid, password_hash: auth_user.password_hash }).from(auth_user).where(eq(auth_user.email, email)).limit(1);
  let kind: 'reset' | 'claim' = 'reset';
  let uid = user?.uid;
  if (!user || user.password_hash === UNSET_PASSWORD) {
    const [desk] = await tx
      .select({ customer_id: customer.customer_id })
      .from(customer)
      .where(and(eq(customer.email, email), isNull(customer.uid), isNull(customer.deletedAt)))
      .limit(1);
    if (!desk) return null;
    kind = 'claim';
    uid = (await identitiesToClaim(tx, [email])).get(email);
  }
  if (!uid) throw new Error('identity for the password link was not found');
  const link = (await passwordLinks(tx, { publicUrl: settings.publicUrl, ttlMinutes: settings.resetTtlMinutes }, [uid])).get(uid) as string;
  const businessName = (await loadStudioSettings(tx)).business_name;
  const template = kind === 'claim' ? customerClaim : passwordReset;
  // Transactional: it always goes, in the studio's colours, with the link as a button.
  await queueEmail(tx, messageContextOf({ PUBLIC_URL: settings.publicUrl }), {
    to: email,
    parts: template({ businessName, link, minutes: settings.resetTtlMinutes }),
  });
  return kind;
}

/**
 * Writes a one-time reset code and its e-mail to the outbox, in one
 * transaction (for a desk-registered customer: the link that creates the
 * password). Unknown e-mails write nothing; the caller answers the same
 * either way.
 */
export async function recoverPassword(db: Db, settings: RecoverSettings, email: string): Promise<void> {
  await db.transaction((tx) => mailPasswordLink(tx, settings, email));
}

/**
 * Sign-up with the e-mail of a customer the studio registered at the desk
 * and who has no password yet: mails the link that creates it (like
 * recovery) and answers true; false when the e-mail is anything else.
 */
export async function offerCustomerClaim(db: Db, settings: RecoverSettings, email: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ password_hash: auth_user.password_hash }).from(auth_user).where(eq(auth_user.email, email)).limit(1);
    if (user && user.password_hash !== UNSET_PASSWORD) return false;
    return (await mailPasswordLink(tx, settings, email)) === 'claim';
  });
}
