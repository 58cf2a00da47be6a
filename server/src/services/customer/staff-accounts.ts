import { and, count, isNull, ne } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import type { AdminCustomerRow } from '@estudio/core';
import type { Db } from '../../db.ts';
import { offsetOf } from '../content/search.ts';
import { matching, readPage } from './admin-customers.ts';

/**
 * The accounts that work at the studio (Recepción, Coach, Administrador): a
 * page by name, searched like the customer list (name, e-mail, phone).
 */
export async function listStaffAccounts(db: Db, input: { query?: string | undefined; page: number; limit: number }): Promise<{ accounts: AdminCustomerRow[]; total: number }> {
  const staff = and(ne(customer.role, 'customer'), matching(input.query));
  const [rows, [counted]] = await Promise.all([
    readPage(db, staff, input.limit, offsetOf(input)),
    db.select({ n: count() }).from(customer).where(and(isNull(customer.deletedAt), staff)),
  ]);
  return { accounts: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), total: counted?.n ?? 0 };
}
