import { discountedCents, DomainError, effectivePriceCents, fromCents, isOn, type DiscountOutput } from '@estudio/core';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { discount, discount_class_package, discount_use } from '@estudio/db/schema/discounts';
import type { Db } from '../../db.ts';
import { assertDiscountHasRoom, holdTimes } from '../checkout/purchase-caps.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

export type DiscountRow = typeof discount.$inferSelect;

export interface PricedPackage {
  class_package_id: number;
  price: string;
  sale_price: string | null;
}

export function toDiscountOutput(d: DiscountRow): DiscountOutput {
  return {
    discount_id: d.discount_id,
    code: d.code,
    description: d.description,
    amount: d.amount,
    is_percent: d.is_percent,
    first_invoice_only: d.first_invoice_only,
  };
}

/**
 * Checks a code against a package for a customer and returns the discount.
 * Semantics (the spec only names the fields):
 * - unknown, disabled, deleted, not yet started or expired codes, and any code
 *   while discounts_enabled is off: 404 'discount/invalid';
 * - a code restricted to other packages, or a first_invoice_only code for a
 *   customer who already paid this package before (it discounts the first
 *   charge of a customer's first purchase of the package; renewals are never
 *   discounted): 412 'discount/not-applicable' (same text);
 * - uses >= max_uses, or the customer's redemptions >= max_uses_per_customer:
 *   412 'discount/exhausted'.
 * The use itself is claimed at checkout, and again when the purchase is paid,
 * by claimPurchaseCaps.
 */
export async function findApplicableDiscount(
  db: Db,
  input: {
    code: string;
    pkg: PricedPackage;
    customerId: number;
    now?: Date;
    /** false at checkout: its room (uses, first purchase) is checked there under the discount's lock (claimPurchaseCaps), after lapsed holds give theirs back. */
    checkUses?: boolean;
  },
): Promise<DiscountRow> {
  const now = input.now ?? new Date();
  const settings = await loadStudioSettings(db);
  const d = await findLiveDiscount(db, input.code, now, settings);

  const packages = await db
    .select({ id: discount_class_package.class_package_id })
    .from(discount_class_package)
    .where(eq(discount_class_package.discount_id, d.discount_id));
  if (packages.length && !packages.some((p) => p.id === input.pkg.class_package_id)) throw new DomainError('discount/not-applicable');

  if (input.checkUses === false) return d;
  const subject = { purchase_id: null, customer_id: input.customerId, class_package_id: input.pkg.class_package_id, discount_id: d.discount_id };
  await assertDiscountHasRoom(db, d, subject, now, holdTimes(settings));
  return d;
}

/** A code that exists, is on, has started and not expired, while discounts are on; else 404 'discount/invalid'. */
async function findLiveDiscount(db: Db, code: string, now: Date, settings: Awaited<ReturnType<typeof loadStudioSettings>>): Promise<DiscountRow> {
  if (!isOn(settings.discounts_enabled)) throw new DomainError('discount/invalid');
  const [d] = await db
    .select()
    .from(discount)
    .where(and(eq(discount.code, code.trim().toUpperCase()), isNull(discount.deletedAt)));
  if (!d || !d.available) throw new DomainError('discount/invalid');
  if (d.starts_at && d.starts_at.getTime() > now.getTime()) throw new DomainError('discount/invalid');
  if (d.expires_at && d.expires_at.getTime() <= now.getTime()) throw new DomainError('discount/invalid');
  return d;
}

/**
 * Whether a code can be used now, for no package in particular (the previous
 * panel's check, decision 040): it exists, is on, is within its dates and has
 * uses left (412 'discount/exhausted'). A package's restriction, a customer's
 * own limit and the first-purchase rule need a package and a customer: the
 * checkout checks them (findApplicableDiscount, then claimPurchaseCaps).
 */
export async function findUsableDiscount(db: Db, code: string, now: Date = new Date()): Promise<DiscountRow> {
  const d = await findLiveDiscount(db, code, now, await loadStudioSettings(db));
  if (d.max_uses !== null && d.uses >= d.max_uses) throw new DomainError('discount/exhausted');
  return d;
}

/** GET /discounts/code/{code}: the discount and the first charge after it. */
export async function validateDiscount(db: Db, input: { code: string; pkg: PricedPackage; customerId: number }) {
  const d = await findApplicableDiscount(db, input);
  return { discount: toDiscountOutput(d), total: fromCents(discountedCents(effectivePriceCents(input.pkg), d)) };
}

/** Gives back the use of a purchase that failed or was abandoned. */
export async function releaseDiscountUse(tx: Db, purchaseId: number): Promise<void> {
  const released = await tx.delete(discount_use).where(eq(discount_use.purchase_id, purchaseId)).returning({ id: discount_use.discount_id });
  for (const r of released) {
    await tx
      .update(discount)
      .set({ uses: sql`greatest(${discount.uses} - 1, 0)` })
      .where(eq(discount.discount_id, r.id));
  }
}
