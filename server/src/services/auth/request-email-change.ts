import { and, eq, isNull, ne, or } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { auth_user, email_change } from '@estudio/db/schema/identity';
import { DomainError } from '@estudio/core';
import { emailChange } from '@estudio/core/messages/templates/account';
import type { Db } from '../../db.ts';
import { messageContextOf } from '../messages/message-context.ts';
import { queueEmail } from '../messages/queue-message.ts';
import { hashToken, randomToken } from './tokens.ts';
import { checkPasswordAttempt, type PasswordCheck } from './sign-in.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

export interface EmailChangeSettings {
  publicUrl: string;
  ttlMinutes: number;
}

/**
 * True when another identity, or a customer not linked to this identity,
 * already has the e-mail. The customer table counts too because customer.email
 * is unique and follows the sign-in e-mail.
 */
export async function emailTakenByOther(db: Db, uid: string, email: string): Promise<boolean> {
  const [identity] = await db
    .select({ uid: auth_user.uid })
    .from(auth_user)
    .where(and(eq(auth_user.email, email), ne(auth_user.uid, uid)))
    .limit(1);
  if (identity) return true;
  const [row] = await db
    .select({ customer_id: customer.customer_id })
    .from(customer)
    .where(and(eq(customer.email, email), or(isNull(customer.uid), ne(customer.uid, uid))))
    .limit(1);
  return Boolean(row);
}

/**
 * Starts a change of sign-in e-mail, as Firebase's verifyBeforeUpdateEmail
 * does: after checking the current password (as a sign-in attempt), stores a one-time code and mails
 * the confirmation link to the NEW address, in one transaction. Nothing about
 * the account changes until the link is opened (confirmEmailChange). The
 * e-mail arrives lower-cased from the input schema.
 */
export async function requestEmailChange(
  db: Db,
  settings: EmailChangeSettings & PasswordCheck,
  uid: string,
  input: { email: string; password: string },
): Promise<void> {
  const [user] = await db.select().from(auth_user).where(eq(auth_user.uid, uid)).limit(1);
  if (!user) throw new DomainError('auth/user-not-found');
  // Counted as a sign-in attempt: a stolen session cannot guess the password here past the lockout.
  if (!(await checkPasswordAttempt(db, settings, user, input.password))) throw new DomainError('auth/wrong-password');
  if (input.email === user.email || (await emailTakenByOther(db, uid, input.email))) {
    throw new DomainError('auth/email-already-in-use');
  }
  await db.transaction(async (tx) => {
    const token = randomToken();
    await tx.insert(email_change).values({
      uid,
      new_email: input.email,
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + settings.ttlMinutes * 60_000),
    });
    const businessName = (await loadStudioSettings(tx)).business_name;
    const link = `${settings.publicUrl}/confirmar-correo?token=${encodeURIComponent(token)}`;
    await queueEmail(tx, messageContextOf({ PUBLIC_URL: settings.publicUrl }), {
      to: input.email,
      parts: emailChange({ businessName, link, minutes: settings.ttlMinutes }),
    });
  });
}
