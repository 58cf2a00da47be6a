import { and, eq, isNull } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import type { Db } from '../../db.ts';

export type CustomerRow = typeof customer.$inferSelect;

/** The customer linked to a sign-in identity, if it has signed up as one. */
export async function findCustomerByUid(db: Db, uid: string): Promise<CustomerRow | null> {
  const [row] = await db
    .select()
    .from(customer)
    .where(and(eq(customer.uid, uid), isNull(customer.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Looks a customer up by the 10-digit phone (front desk). */
export async function findCustomerByPhone(db: Db, phone: string): Promise<CustomerRow | null> {
  if (!phone) return null;
  const [row] = await db
    .select()
    .from(customer)
    .where(and(eq(customer.phone, phone), isNull(customer.deletedAt)))
    .limit(1);
  return row ?? null;
}
