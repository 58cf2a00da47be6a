import { DomainError } from '@estudio/core';
import { eq, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { available_classes } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';

export async function assertClassTypeExists(db: Db, classTypeId: number | null | undefined): Promise<void> {
  if (classTypeId === null || classTypeId === undefined) return;
  const [row] = await db.select({ id: class_type.class_type_id }).from(class_type).where(eq(class_type.class_type_id, classTypeId));
  if (!row) throw new DomainError('class-type/not-found');
}

/**
 * Keeps the customer's membership columns in step with their unlimited (-1)
 * credits after staff grant, change or remove one: the member is unlimited
 * while a usable -1 credit exists, until the latest of their expiries. The
 * booking rules (penalties) and the credits screen read these columns. (A Date
 * inside raw SQL is not serialised by the postgres.js driver: it travels as ISO text.)
 */
export async function syncUnlimitedMembership(db: Db, customerId: number, now: Date): Promise<void> {
  const unlimited = sql`from ${available_classes} where ${available_classes.customer_id} = ${customerId}
    and ${available_classes.available_classes} = -1 and ${available_classes.deletedAt} is null
    and (${available_classes.expiration_date} is null or ${available_classes.expiration_date} > ${now.toISOString()}::timestamptz)`;
  await db
    .update(customer)
    .set({
      has_unlimited: sql`exists (select 1 ${unlimited})`,
      unlimited_membership_expiration: sql`(select max(${available_classes.expiration_date}) ${unlimited})`,
    })
    .where(eq(customer.customer_id, customerId));
}
