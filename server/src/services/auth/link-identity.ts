import { and, eq, isNull } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { auth_user } from '@estudio/db/schema/identity';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { CustomerRow } from '../customer/find-customer.ts';

/**
 * Decision 095: a studio that moves to Firebase keeps its people. A Firebase
 * identity no account is linked to, whose e-mail Firebase has verified, is
 * linked at its first call to the live account with that e-mail, when that
 * account has no identity yet (registered at the desk) or one of the local
 * provider's (it signed in with a password here). An account linked to
 * another Firebase identity is left alone. The link is one conditional
 * update, so two first calls at once link once; audited in its transaction
 * (Actividad: the person, 'identity.link'). Null when nothing was linked.
 */
export async function linkIdentityByEmail(db: Db, identity: { uid: string; email: string }): Promise<CustomerRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(customer)
      .where(and(eq(customer.email, identity.email.toLowerCase()), isNull(customer.deletedAt)))
      .limit(1);
    if (!row || row.uid === identity.uid) return null;
    if (row.uid !== null) {
      const [local] = await tx.select({ uid: auth_user.uid }).from(auth_user).where(eq(auth_user.uid, row.uid)).limit(1);
      if (!local) return null;
    }
    const [linked] = await tx
      .update(customer)
      .set({ uid: identity.uid, updatedAt: new Date() })
      .where(and(eq(customer.customer_id, row.customer_id), row.uid === null ? isNull(customer.uid) : eq(customer.uid, row.uid)))
      .returning();
    if (!linked) return null;
    await recordAudit(tx, {
      actorId: row.customer_id,
      action: 'identity.link',
      entity: 'customer',
      entityId: row.customer_id,
      changes: { uid: { from: row.uid, to: identity.uid }, provider: 'firebase', email: row.email },
    });
    return linked;
  });
}
