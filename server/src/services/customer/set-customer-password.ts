import { and, eq, isNull } from 'drizzle-orm';
import { DomainError, texts } from '@estudio/core';
import { hashPassword } from '@estudio/db/password';
import { customer } from '@estudio/db/schema/customer';
import { auth_user } from '@estudio/db/schema/identity';
import type { Db } from '../../db.ts';
import { assertPasswordAllowed } from '../appconfig/get-app-config.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { revokeSessions } from '../auth/revoke-sessions.ts';
import { newUid } from '../auth/tokens.ts';

/**
 * The password a customer types on the studio's screen at the counter
 * (decision 079): the way back into her account when the studio has no
 * e-mail to send her a link. Staff confirm who she is and hand her the
 * screen; they never see a code that signs in as her. Only a customer's (or
 * a coach's) password: a staff or admin account is not reset by a colleague.
 * Every session of the account ends; the change is audited, without the
 * password. A customer registered at the desk without an account gets one.
 */
export async function setCustomerPassword(
  db: Db,
  provider: 'local' | 'firebase',
  actorId: number,
  input: { customer_id: number; password: string },
): Promise<{ message: string }> {
  // Under Firebase the password is Firebase's: its own reset e-mail is the way.
  if (provider !== 'local') throw new DomainError('auth/operation-not-allowed');
  await assertPasswordAllowed(db, input.password);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ customer_id: customer.customer_id, uid: customer.uid, email: customer.email, role: customer.role, name: customer.name, last_name: customer.last_name })
      .from(customer)
      .where(and(eq(customer.customer_id, input.customer_id), isNull(customer.deletedAt)))
      .for('update');
    if (!row) throw new DomainError('customer/unknown');
    if (row.role !== 'customer' && row.role !== 'coach') throw new DomainError('forbidden');
    let uid = row.uid;
    if (uid) {
      const updated = await tx.update(auth_user).set({ password_hash: passwordHash }).where(eq(auth_user.uid, uid)).returning({ uid: auth_user.uid });
      if (!updated.length) await tx.insert(auth_user).values({ uid, email: row.email, password_hash: passwordHash });
    } else {
      const [identity] = await tx.select({ uid: auth_user.uid }).from(auth_user).where(eq(auth_user.email, row.email)).limit(1);
      uid = identity?.uid ?? newUid();
      if (identity) await tx.update(auth_user).set({ password_hash: passwordHash }).where(eq(auth_user.uid, uid));
      else await tx.insert(auth_user).values({ uid, email: row.email, password_hash: passwordHash });
      await tx.update(customer).set({ uid, updatedAt: new Date() }).where(eq(customer.customer_id, row.customer_id));
    }
    await revokeSessions(tx, uid);
    await recordAudit(tx, { actorId, action: 'password-at-desk', entity: 'customer', entityId: row.customer_id, changes: { email: row.email } });
    return { message: texts.adminCommerce.setPasswordDone(`${row.name} ${row.last_name}`.trim()) };
  });
}
