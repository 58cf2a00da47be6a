import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { auth_user, email_change } from '@estudio/db/schema/identity';
import { DomainError } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { emailTakenByOther } from './request-email-change.ts';
import { revokeSessions } from './revoke-sessions.ts';
import { hashToken } from './tokens.ts';

/**
 * Applies a requested e-mail change from the mailed code, in one transaction:
 * spends the code (a conditional UPDATE, so it works once), checks the new
 * e-mail is still free, moves the identity and its customer to it and ends
 * every session of the account, whose tokens carry the old e-mail. A refusal
 * rolls everything back, the code included. Answers the new e-mail.
 */
export async function confirmEmailChange(db: Db, token: string): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      const [change] = await tx
        .update(email_change)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(email_change.token_hash, hashToken(token)),
            isNull(email_change.usedAt),
            gt(email_change.expires_at, sql`now()`),
          ),
        )
        .returning({ uid: email_change.uid, new_email: email_change.new_email });
      if (!change) throw new DomainError('auth/invalid-action-code');
      if (await emailTakenByOther(tx, change.uid, change.new_email)) throw new DomainError('auth/email-already-in-use');
      await tx.update(auth_user).set({ email: change.new_email }).where(eq(auth_user.uid, change.uid));
      await tx.update(customer).set({ email: change.new_email }).where(eq(customer.uid, change.uid));
      await revokeSessions(tx, change.uid);
      return change.new_email;
    });
  } catch (error) {
    // A sign-up or another change taking the e-mail at the same moment: the unique indexes decide.
    if (isUniqueViolation(error)) throw new DomainError('auth/email-already-in-use');
    throw error;
  }
}
