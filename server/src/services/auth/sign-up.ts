import { eq } from 'drizzle-orm';
import { hashPassword } from '@estudio/db/password';
import { auth_user } from '@estudio/db/schema/identity';
import { DomainError, type AuthTokens } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { assertPasswordAllowed } from '../appconfig/get-app-config.ts';
import type { Config } from '../../config.ts';
import { messagingChannels } from '../messages/channels.ts';
import { issueSession, type SessionSettings } from './issue-session.ts';
import { offerCustomerClaim, type RecoverSettings } from './recover-password.ts';
import { newUid } from './tokens.ts';

/**
 * Creates a local identity and its first session in one transaction.
 * The e-mail arrives lower-cased from the input schema. The e-mail of a
 * customer the studio registered at the desk (no identity yet) creates
 * nothing: the link that creates the password is mailed and the answer is
 * 409 'auth/customer-claim-sent' (decision 017); while the studio cannot
 * send e-mail the link waits in the outbox and the answer says so,
 * 'auth/customer-claim-waiting' (decision 079).
 */
export async function signUp(
  db: Db,
  settings: SessionSettings & { recover: RecoverSettings; config: Config },
  input: { email: string; password: string },
): Promise<AuthTokens> {
  if (await offerCustomerClaim(db, settings.recover, input.email)) {
    throw new DomainError((await messagingChannels(db, settings.config)).email ? 'auth/customer-claim-sent' : 'auth/customer-claim-waiting');
  }
  await assertPasswordAllowed(db, input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx.select({ uid: auth_user.uid }).from(auth_user).where(eq(auth_user.email, input.email)).limit(1);
      if (existing) throw new DomainError('auth/email-already-in-use');
      const uid = newUid();
      await tx.insert(auth_user).values({ uid, email: input.email, password_hash: passwordHash });
      return issueSession(tx, settings, { uid, email: input.email });
    });
  } catch (error) {
    // Two sign-ups racing for one e-mail: the unique index decides.
    if (isUniqueViolation(error)) throw new DomainError('auth/email-already-in-use');
    throw error;
  }
}
