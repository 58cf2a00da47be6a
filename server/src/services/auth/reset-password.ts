import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { hashPassword } from '@estudio/db/password';
import { customer } from '@estudio/db/schema/customer';
import { auth_user, password_reset } from '@estudio/db/schema/identity';
import { DomainError } from '@estudio/core';
import type { Db } from '../../db.ts';
import { assertPasswordAllowed } from '../appconfig/get-app-config.ts';
import { revokeSessions } from './revoke-sessions.ts';
import { hashToken } from './tokens.ts';

/**
 * Sets a new password from a mailed reset code. The code is spent by a
 * conditional UPDATE, so it works once; every session of the account ends,
 * ID tokens included. Opening the link proved the e-mail, so a customer the
 * studio registered at the desk with it (uid null) becomes this identity's
 * customer, with everything booked and bought at the desk (decision 017).
 */
export async function resetPassword(db: Db, input: { token: string; password: string }): Promise<void> {
  await assertPasswordAllowed(db, input.password);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const [reset] = await tx
      .update(password_reset)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(password_reset.token_hash, hashToken(input.token)),
          isNull(password_reset.usedAt),
          gt(password_reset.expires_at, sql`now()`),
        ),
      )
      .returning({ uid: password_reset.uid });
    if (!reset) throw new DomainError('auth/invalid-action-code');
    const [user] = await tx.update(auth_user).set({ password_hash: passwordHash }).where(eq(auth_user.uid, reset.uid)).returning({ email: auth_user.email });
    if (user) {
      await tx
        .update(customer)
        .set({ uid: reset.uid })
        .where(and(eq(customer.email, user.email), isNull(customer.uid), isNull(customer.deletedAt)));
    }
    await revokeSessions(tx, reset.uid);
  });
}
