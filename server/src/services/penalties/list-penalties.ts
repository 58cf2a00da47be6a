import { DomainError, type Role, type z, type penaltyOutput } from '@estudio/core';
import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { class_reservation_penalty } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';

export type PenaltyOutput = z.infer<typeof penaltyOutput>;
type PenaltyRow = typeof class_reservation_penalty.$inferSelect;

export interface PenaltyCaller {
  customer_id: number;
  role: Role;
}

const isStaff = (caller: PenaltyCaller) => caller.role === 'staff' || caller.role === 'admin';

export function toPenaltyOutput(row: PenaltyRow): PenaltyOutput {
  return {
    class_reservation_penalty_id: row.class_reservation_penalty_id,
    customer_id: row.customer_id,
    start_date: row.start_date.toISOString(),
    end_date: row.end_date.toISOString(),
    no_shows: row.no_shows,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Penalties, newest first, lifted ones (deletedAt) left out. A customer sees
 * their own whatever customer_id says; staff and admin see one customer's with
 * customer_id, or everyone's without it.
 */
export async function listPenalties(db: Db, caller: PenaltyCaller, filter: { customer_id?: number | undefined } = {}): Promise<PenaltyOutput[]> {
  const where: SQL[] = [isNull(class_reservation_penalty.deletedAt)];
  const customerId = isStaff(caller) ? filter.customer_id : caller.customer_id;
  if (customerId !== undefined) where.push(eq(class_reservation_penalty.customer_id, customerId));
  const rows = await db
    .select()
    .from(class_reservation_penalty)
    .where(and(...where))
    .orderBy(desc(class_reservation_penalty.start_date), desc(class_reservation_penalty.class_reservation_penalty_id));
  return rows.map(toPenaltyOutput);
}

/** One penalty the caller may see (own; staff and admin any). Otherwise penalty/not-found. */
export async function getPenalty(db: Db, id: number, caller: PenaltyCaller): Promise<PenaltyOutput> {
  const [row] = await db
    .select()
    .from(class_reservation_penalty)
    .where(and(eq(class_reservation_penalty.class_reservation_penalty_id, id), isNull(class_reservation_penalty.deletedAt)));
  if (!row || (!isStaff(caller) && row.customer_id !== caller.customer_id)) throw new DomainError('penalty/not-found');
  return toPenaltyOutput(row);
}
