import { and, asc, eq, inArray } from 'drizzle-orm';
import { invoice } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';

export interface CustomerCharge {
  invoice_id: number;
  purchase_id: number;
  total_payment: string;
  createdAt: string;
}

/** The charges each customer has paid (completed invoices), oldest first, in one statement: a list tells a first purchase by it. */
export async function paidChargesOf(db: Db, customerIds: readonly number[]): Promise<Map<number, CustomerCharge[]>> {
  const charges = new Map(customerIds.map((id) => [id, [] as CustomerCharge[]]));
  if (customerIds.length === 0) return charges;
  const rows = await db
    .select({ customer_id: invoice.customer_id, invoice_id: invoice.invoice_id, purchase_id: invoice.purchase_id, total_payment: invoice.total_payment, createdAt: invoice.createdAt })
    .from(invoice)
    .where(and(inArray(invoice.customer_id, [...customerIds]), eq(invoice.status, 'completed')))
    .orderBy(asc(invoice.createdAt), asc(invoice.invoice_id));
  for (const { customer_id: id, createdAt, ...charge } of rows) charges.get(id)?.push({ ...charge, createdAt: new Date(createdAt).toISOString() });
  return charges;
}
