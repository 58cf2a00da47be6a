import { appConfigDefaults, DomainError, mayGift } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import type { Tx } from '@estudio/db';

/** The signed-in staff member a service acts for (over /api or a desk's push). */
export interface StaffActor {
  customer_id: number;
}

/**
 * The one place a staff member's permission beyond their role is checked
 * (decision 037): the route's role check (trpc.ts) lets Recepción in, this
 * says what Recepción may give. It reads the owner's limit inside the
 * gift's transaction, so a gift replayed from an offline desk is judged by
 * the limit when it arrives, and refused with a message the desk shows. The
 * role is read here too, not taken from the caller: a receptionist demoted
 * while her desk was offline is judged by the role she has now.
 */
export async function assertMayGift(tx: Tx, actor: StaffActor, packagePriceCents: number): Promise<void> {
  const [who] = await tx.select({ role: customer.role }).from(customer).where(eq(customer.customer_id, actor.customer_id));
  if (who?.role === 'admin') return;
  const [row] = await tx.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, 'reception_gift_max_price'));
  if (!mayGift(who?.role ?? 'customer', packagePriceCents, row?.value ?? appConfigDefaults.reception_gift_max_price)) throw new DomainError('permission/gift-over-limit');
}

/**
 * A sale recorded at another amount than the package's price (the owner
 * negotiated it; decision 040): an Administrador only. Read inside the sale's
 * transaction, like a gift's limit, so the role that counts is the one the
 * account has when the money settles.
 */
export async function assertMayChangePrice(tx: Tx, actor: StaffActor): Promise<void> {
  const [who] = await tx.select({ role: customer.role }).from(customer).where(eq(customer.customer_id, actor.customer_id));
  if (who?.role !== 'admin') throw new DomainError('permission/price-admin-only');
}
