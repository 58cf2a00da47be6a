import { DomainError, type AvailableClassOutput, type Role, type z, type availableClassesOutput } from '@estudio/core';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { available_classes } from '@estudio/db/schema/purchases';
import { usableCredit } from '@estudio/db';
import type { Db } from '../../db.ts';
import { toCreditOutput, type CreditRow } from './credit-output.ts';

export type CreditsSummary = z.infer<typeof availableClassesOutput>;

const isUsable = (c: CreditRow, now: Date) =>
  !c.deletedAt && (!c.expiration_date || c.expiration_date > now) && (c.available_classes > 0 || c.available_classes === -1);

/**
 * The customer's credits (GET /available_classes: the usable ones; with
 * `history`, every row not removed, spent and expired included), soonest expiry
 * first. `total` always counts the usable limited credits, so both screens show
 * the same balance. An unlimited member is one whose customer row says so and
 * has not expired, or who holds a usable -1 credit; the expiry comes from the
 * customer row, else from the latest usable -1 credit.
 */
export async function listCredits(db: Db, customerId: number, options: { history?: boolean; now?: Date } = {}): Promise<CreditsSummary> {
  const now = options.now ?? new Date();
  const [rows, [member]] = await Promise.all([
    db
      .select({ credit: available_classes, type: class_type })
      .from(available_classes)
      .leftJoin(class_type, eq(class_type.class_type_id, available_classes.class_type_id))
      .where(and(eq(available_classes.customer_id, customerId), options.history ? isNull(available_classes.deletedAt) : usableCredit(now)))
      .orderBy(sql`${available_classes.expiration_date} asc nulls last`, asc(available_classes.available_class_id)),
    db
      .select({ has_unlimited: customer.has_unlimited, expiration: customer.unlimited_membership_expiration })
      .from(customer)
      .where(eq(customer.customer_id, customerId)),
  ]);
  const usable = rows.filter((r) => isUsable(r.credit, now)).map((r) => r.credit);
  const total = usable.reduce((sum, c) => (c.available_classes > 0 ? sum + c.available_classes : sum), 0);
  const unlimitedCredits = usable.filter((c) => c.available_classes === -1);
  const memberActive = !!member?.has_unlimited && (!member.expiration || member.expiration > now);
  const latestUnlimited = unlimitedCredits.reduce<Date | null>(
    (latest, c) => (c.expiration_date && (!latest || c.expiration_date > latest) ? c.expiration_date : latest),
    null,
  );
  const hasUnlimited = memberActive || unlimitedCredits.length > 0;
  const expiration = hasUnlimited ? ((memberActive ? member?.expiration : null) ?? latestUnlimited) : null;
  return {
    available_classes: rows.map((r) => toCreditOutput(r.credit, r.type)),
    total,
    has_unlimited: hasUnlimited,
    unlimited_membership_expiration: expiration?.toISOString() ?? null,
  };
}

export interface CreditCaller {
  customer_id: number;
  role: Role;
}

/** One credit row the caller may see (own; staff and admin any), removed rows excluded. Otherwise credit/not-found. */
export async function getCredit(db: Db, id: number, caller: CreditCaller): Promise<AvailableClassOutput> {
  const [row] = await db
    .select({ credit: available_classes, type: class_type })
    .from(available_classes)
    .leftJoin(class_type, eq(class_type.class_type_id, available_classes.class_type_id))
    .where(and(eq(available_classes.available_class_id, id), isNull(available_classes.deletedAt)));
  const staff = caller.role === 'staff' || caller.role === 'admin';
  if (!row || (!staff && row.credit.customer_id !== caller.customer_id)) throw new DomainError('credit/not-found');
  return toCreditOutput(row.credit, row.type);
}
