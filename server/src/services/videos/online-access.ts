import { and, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
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
 * An active online membership, as an SQL boolean: a purchase ('active' or
 * 'completed') of an online package whose access has not ended. Staff and
 * admins always watch. The one rule, read alone (hasOnlineAccess) or inside a
 * list's first statement (listVideos).
 */
export function onlineMembership(viewer: VideoViewer, now: Date): SQL {
  if (isStaffRole(viewer.role)) return sql`true`;
  const active = and(
    eq(purchase.customer_id, viewer.customerId),
    eq(class_package.class_package_id, purchase.class_package_id),
    eq(class_package.is_online, true),
    inArray(purchase.status, ['active', 'completed']),
    or(isNull(purchase.expiration_date), gt(purchase.expiration_date, now)),
  );
  return sql`exists (select 1 from ${purchase}, ${class_package} where ${active})`;
}

/** Whether the viewer may watch the library (see onlineMembership). */
export async function hasOnlineAccess(db: Db, viewer: VideoViewer, now = new Date()): Promise<boolean> {
  if (isStaffRole(viewer.role)) return true;
  const [row] = await db.select({ ok: sql<boolean>`${onlineMembership(viewer, now)}` }).from(sql`(select 1) one`);
  return row?.ok === true;
}

/** The 412 of the spec for a customer without an online membership. */
export async function requireOnlineAccess(db: Db, viewer: VideoViewer): Promise<void> {
  if (!(await hasOnlineAccess(db, viewer))) throw new DomainError('video/membership-required');
}
