import { addPeriod, addStudioPeriod, DomainError, type ReplicatedTable } from '@estudio/core';
import { available_classes, class_reservation, customer, type Tx } from '@estudio/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ident, tableInfo } from '../tables.ts';
import type { MutatorContext } from './context.ts';

/** Inserts one new row; columns not given take the table's defaults. */
export async function insertRow(tx: Tx, table: ReplicatedTable, values: Record<string, unknown>): Promise<void> {
  const info = tableInfo(table);
  const columns = Object.keys(values).map(ident).join(', ');
  await tx.execute(
    sql`${sql.raw(`INSERT INTO ${ident(table)} (${columns}) SELECT ${columns} FROM jsonb_populate_record(NULL::${ident(info.name)}, `)}${JSON.stringify(values)}${sql.raw('::jsonb)')}`,
  );
}

export async function liveCustomer(tx: Tx, customerId: number) {
  const [row] = await tx
    .select()
    .from(customer)
    .where(and(eq(customer.customer_id, customerId), isNull(customer.deletedAt)));
  if (!row) throw new DomainError('customer/not-found');
  return row;
}

/**
 * Keeps the membership columns in step with the customer's unlimited credits,
 * as the server's syncUnlimitedMembership does after a grant or a removal.
 */
export async function syncUnlimitedMembership(tx: Tx, customerId: number, now: Date): Promise<void> {
  const unlimited = sql`from ${available_classes} where ${available_classes.customer_id} = ${customerId}
    and ${available_classes.available_classes} = -1 and ${available_classes.deletedAt} is null
    and (${available_classes.expiration_date} is null or ${available_classes.expiration_date} > ${now.toISOString()}::timestamptz)`;
  await tx
    .update(customer)
    .set({
      has_unlimited: sql`exists (select 1 ${unlimited})`,
      unlimited_membership_expiration: sql`(select max(${available_classes.expiration_date}) ${unlimited})`,
      updatedAt: now,
    })
    .where(eq(customer.customer_id, customerId));
}

/** The reservation a mutation names, when it is the customer's and the class's the mutation says (the server's reservationNamedBy). */
export async function reservationNamedBy(tx: Tx, args: { class_reservation_id: number; customer_id: number; single_class_id: number }) {
  const [row] = await tx.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  if (!row || row.customer_id !== args.customer_id || row.single_class_id !== args.single_class_id) throw new DomainError('reservation/not-found');
  return row;
}

/**
 * The server's cancelReservation on the replica: frees the place and gives the
 * credit back as decided. `countsAsCancel`: the customer's rules decided, so a
 * limited credit uses one of its cancellations.
 */
export async function cancelOnReplica(
  tx: Tx,
  r: typeof class_reservation.$inferSelect,
  creditReturned: boolean,
  countsAsCancel: boolean,
  now: Date,
): Promise<ReplicatedTable[]> {
  await tx
    .update(class_reservation)
    .set({ deletedAt: now, credit_returned: creditReturned, updatedAt: now })
    .where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
  if (!creditReturned) return ['class_reservation'];
  const touched: ReplicatedTable[] = ['class_reservation'];
  // The booker's class, and the guest's (which never uses one of the customer's cancellations).
  for (const [creditId, usesCancellation] of [
    [r.available_class_id, countsAsCancel],
    [r.guest_available_class_id, false],
  ] as const) {
    if (creditId === null) continue;
    const [credit] = await tx.select().from(available_classes).where(eq(available_classes.available_class_id, creditId));
    if (!credit || credit.available_classes === -1) continue;
    await tx
      .update(available_classes)
      .set({
        available_classes: sql`${available_classes.available_classes} + 1`,
        ...(usesCancellation ? { cancels_used: sql`${available_classes.cancels_used} + 1` } : {}),
        updatedAt: now,
      })
      .where(eq(available_classes.available_class_id, credit.available_class_id));
    if (!touched.includes('available_classes')) touched.push('available_classes');
  }
  return touched;
}

/** End of the access a payment buys (the server's accessEnd): a subscription cycle on the studio's clock, or expiration_days. */
export function accessEnd(
  p: { subscription_period: string | null; subscription_interval: number | null; expiration_days: number | null },
  from: Date,
  tz: string,
): Date | null {
  if (p.subscription_period) return addStudioPeriod(from, p.subscription_interval ?? 1, p.subscription_period, tz);
  return p.expiration_days ? addPeriod(from, p.expiration_days, 'day') : null;
}

/**
 * The credit a paid purchase grants. The server grants one row per class type
 * when the package restricts class types (class_package_type is not
 * replicated); the desk shows one row of class_amount until the pull brings
 * the server's rows.
 */
export async function grantPurchaseCredit(
  ctx: MutatorContext,
  p: { purchase_id: number; customer_id: number; class_amount: number },
  until: Date | null,
): Promise<ReplicatedTable[]> {
  if (p.class_amount === 0) return [];
  await insertRow(ctx.tx, 'available_classes', {
    available_class_id: ctx.tempId,
    customer_id: p.customer_id,
    purchase_id: p.purchase_id,
    available_classes: p.class_amount,
    expiration_date: until?.toISOString() ?? null,
    created_at: ctx.now.toISOString(),
    updated_at: ctx.now.toISOString(),
  });
  if (p.class_amount === -1) {
    await syncUnlimitedMembership(ctx.tx, p.customer_id, ctx.now);
    return ['available_classes', 'customer'];
  }
  return ['available_classes'];
}
