import { and, eq, isNull } from 'drizzle-orm';
import { DomainError } from '@estudio/core';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { auth_user, password_reset } from '@estudio/db/schema/identity';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { UNSET_PASSWORD } from '../auth/recover-password.ts';
import { hashToken, newUid, randomToken } from '../auth/tokens.ts';

export interface CreateOwnerInput {
  email: string;
  name: string;
  lastName: string;
  /** The studio's name, stored when the studio has none yet (a new studio answers the defaults until then). */
  studio?: string | undefined;
  /** How long the link that sets the password lasts. */
  linkHours: number;
  publicUrl: string;
  provider: 'local' | 'firebase';
}

export type CreateOwnerResult =
  /** A new account, or one without a password yet: the link sets it. */
  | { kind: 'link'; customerId: number; link: string; expiresAt: Date; created: boolean }
  /** An account that already signs in (its password, or Firebase): it is the owner now. */
  | { kind: 'promoted'; customerId: number };

/**
 * The operator's first-run step (decision 074): makes `email` the studio's
 * owner (role admin). A production server never seeds the demo studio, so
 * this is how a new studio gets its first person who can sign in to the
 * console; the link to set the password is printed to the operator, who is
 * already trusted with the server, and to nobody else (no message is queued:
 * the studio may have no channel yet).
 *
 * An e-mail with no account gets one (local sign-in). An existing account is
 * promoted; under Firebase the person signs up in the portal first, since
 * the identity lives in Firebase.
 */
export async function createOwner(db: Db, input: CreateOwnerInput): Promise<CreateOwnerResult> {
  const email = input.email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ customer_id: customer.customer_id, uid: customer.uid })
      .from(customer)
      .where(and(eq(customer.email, email), isNull(customer.deletedAt)))
      .limit(1);
    if (!existing && input.provider === 'firebase') throw new DomainError('setup/owner-signs-up-first');

    let customerId: number;
    if (existing) {
      customerId = existing.customer_id;
      await tx.update(customer).set({ role: 'admin', updatedAt: new Date() }).where(eq(customer.customer_id, customerId));
    } else {
      const [row] = await tx
        .insert(customer)
        .values({ email, name: input.name.trim(), last_name: input.lastName.trim(), role: 'admin' })
        .returning({ customer_id: customer.customer_id });
      if (!row) throw new Error('the owner was not stored');
      customerId = row.customer_id;
    }
    if (input.studio?.trim()) {
      await tx.insert(app_config).values({ key: 'business_name', value: input.studio.trim() }).onConflictDoNothing({ target: app_config.key });
      await tx.insert(app_config).values({ key: 'email', value: email }).onConflictDoNothing({ target: app_config.key });
    }
    await recordAudit(tx, { actorId: customerId, action: 'owner', entity: 'customer', entityId: customerId, changes: { email, role: 'admin', by: 'server-command' } });

    if (input.provider === 'firebase') return { kind: 'promoted', customerId };
    const [identity] = await tx.select({ uid: auth_user.uid, password_hash: auth_user.password_hash }).from(auth_user).where(eq(auth_user.email, email)).limit(1);
    if (identity && identity.password_hash !== UNSET_PASSWORD && existing?.uid === identity.uid) return { kind: 'promoted', customerId };

    let uid = identity?.uid;
    if (!uid) {
      uid = newUid();
      await tx.insert(auth_user).values({ uid, email, password_hash: UNSET_PASSWORD });
    }
    // The reset binds the customer row to the identity (resetPassword), as for a customer registered at the desk.
    const token = randomToken();
    const expiresAt = new Date(Date.now() + input.linkHours * 3_600_000);
    await tx.insert(password_reset).values({ uid, token_hash: hashToken(token), expires_at: expiresAt });
    return { kind: 'link', customerId, link: `${input.publicUrl}/recuperar?token=${encodeURIComponent(token)}`, expiresAt, created: !existing };
  });
}

/** Whether anyone can sign in to the studio's console (a live admin). */
export async function studioHasOwner(db: Db): Promise<boolean> {
  const [admin] = await db
    .select({ id: customer.customer_id })
    .from(customer)
    .where(and(eq(customer.role, 'admin'), isNull(customer.deletedAt)))
    .limit(1);
  return admin !== undefined;
}
