import { DomainError } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { payment_method } from '@estudio/db/schema/payments';
import { purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';

type PaymentMethodRow = typeof payment_method.$inferSelect;

const toOutput = (m: PaymentMethodRow) => ({
  payment_method_id: m.payment_method_id,
  name: m.name,
  description: m.description,
  provider: m.provider,
  available: m.available,
});

/** One checkout payment method, available or not (admin view). */
export async function getPaymentMethod(db: Db, id: number) {
  const [row] = await db.select().from(payment_method).where(eq(payment_method.payment_method_id, id)).limit(1);
  if (!row) throw new DomainError('payment-method/not-found');
  return toOutput(row);
}

export async function createPaymentMethod(db: Db, input: Omit<typeof payment_method.$inferInsert, 'payment_method_id' | 'createdAt'>) {
  const [row] = await db.insert(payment_method).values(input).returning();
  if (!row) throw new Error('payment_method insert returned no row');
  return toOutput(row);
}

export async function updatePaymentMethod(db: Db, id: number, changes: Partial<Omit<typeof payment_method.$inferInsert, 'payment_method_id' | 'createdAt'>>) {
  const [row] = await db.update(payment_method).set(changes).where(eq(payment_method.payment_method_id, id)).returning();
  if (!row) throw new DomainError('payment-method/not-found');
  return toOutput(row);
}

/**
 * Deletes a payment method nobody has paid with; one with purchases keeps
 * their history and can only be marked unavailable.
 */
export async function removePaymentMethod(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ id: payment_method.payment_method_id }).from(payment_method).where(eq(payment_method.payment_method_id, id)).for('update');
    if (!row) throw new DomainError('payment-method/not-found');
    const [used] = await tx.select({ id: purchase.purchase_id }).from(purchase).where(eq(purchase.payment_method_id, id)).limit(1);
    if (used) throw new DomainError('payment-method/in-use');
    await tx.delete(payment_method).where(eq(payment_method.payment_method_id, id));
  });
}
