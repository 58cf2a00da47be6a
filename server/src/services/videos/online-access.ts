import { and, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { DomainError, type Role } from '@estudio/core';
import type { Db } from '../../db.ts';

export interface VideoViewer {
  customerId: number;
  role: Role;
}

export const isStaffRole = (role: Role) => role === 'staff' || role === 'admin';

/**
 * An active online membership: a purchase ('active' or 'completed') of an
 * online package whose access has not ended. Staff and admins always watch.
 */
export async function hasOnlineAccess(db: Db, viewer: VideoViewer, now = new Date()): Promise<boolean> {
  if (isStaffRole(viewer.role)) return true;
  const [row] = await db
    .select({ id: purchase.purchase_id })
    .from(purchase)
    .innerJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .where(
      and(
        eq(purchase.customer_id, viewer.customerId),
        eq(class_package.is_online, true),
        inArray(purchase.status, ['active', 'completed']),
        or(isNull(purchase.expiration_date), gt(purchase.expiration_date, now)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The 412 of the spec for a customer without an online membership. */
export async function requireOnlineAccess(db: Db, viewer: VideoViewer): Promise<void> {
  if (!(await hasOnlineAccess(db, viewer))) throw new DomainError('video/membership-required');
}
