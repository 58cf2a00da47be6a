import { DomainError, type AppConfigMap } from '@estudio/core';
import { and, count, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { discount, discount_use } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/**
 * The one rule for purchase caps. A package's `people_limit` and
 * `limit_per_customer`, and a discount's `max_uses`, `max_uses_per_customer`
 * and `first_invoice_only`, are counted from purchases, under locks, in the
 * transaction that creates a purchase AND again in the transaction that pays
 * it: free, cash, card now, card two-step, PayPal, the Stripe webhook and
 * staff grants all pay through markPurchasePaid, which calls claimPurchaseCaps.
 * A purchase that was failed or superseded in between is therefore never paid
 * past a cap.
 *
 * What takes a unit (or a use): a purchase that was ever paid or granted
 * (paidAt), for good: cancelling, revoking, refunding or letting it expire
 * gives nothing back, or a customer would cancel a trial and take it again.
 * Only an admin, with a reason, gives a use back (releasePurchaseLimit). And
 * a pending one while its hold lasts: an OXXO voucher until it expires, an
 * unpaid 'Efectivo' purchase or SPEI transfer for `cash_hold_hours`, a card
 * or PayPal attempt for `card_hold_minutes`.
 * Purchases never paid (failed, or cancelled unpaid) take nothing.
 *
 * Lock order (decision 006): the caller holds the customer's row; here the
 * package row, then the discount row, FOR UPDATE.
 */
export interface HoldTimes {
  cashHoldMs: number;
  cardHoldMs: number;
}

function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function holdTimes(settings: Pick<AppConfigMap, 'cash_hold_hours' | 'card_hold_minutes'>): HoldTimes {
  return {
    cashHoldMs: positiveNumber(settings.cash_hold_hours, 24) * 3_600_000,
    cardHoldMs: positiveNumber(settings.card_hold_minutes, 30) * 60_000,
  };
}

const since = (now: Date, ms: number) => sql`${new Date(now.getTime() - ms).toISOString()}::timestamptz`;

/** Purchases ever paid or granted whose use an admin did not give back: they take their caps' units for good. */
export const everPaid: SQL = and(isNotNull(purchase.paidAt), isNull(purchase.limitReleasedAt)) as SQL;

/**
 * Whether a pending purchase's hold still lasts at `now`, one rule for every way to pay (decisions 015 and 080): a
 * purchase with `hold_until` (an OXXO voucher) holds until that moment, never shorter; otherwise by how it is paid, an
 * unpaid 'Efectivo' purchase or SPEI transfer for `cash_hold_hours`, a card or PayPal attempt for `card_hold_minutes`.
 */
function holdLasts(now: Date, holds: HoldTimes): SQL<boolean> {
  return sql<boolean>`(case
    when ${purchase.hold_until} is not null then ${purchase.hold_until} > ${now.toISOString()}::timestamptz
    when ${purchase.provider} = 'cash' or ${purchase.payment_channel} = 'spei' then ${purchase.createdAt} > ${since(now, holds.cashHoldMs)}
    else ${purchase.createdAt} > ${since(now, holds.cardHoldMs)} end)`;
}

/** Purchases that take a unit of what they buy at `now`: every one ever paid, and pending ones whose hold has not lapsed. */
export function takesUnit(now: Date, holds: HoldTimes): SQL {
  return or(everPaid, and(eq(purchase.status, 'pending'), holdLasts(now, holds))) as SQL;
}

/** Pending purchases whose hold has lapsed: they take nothing and their discount use is given back (the clock's expire-holds job fails them, decision 021). */
export function lapsedHold(now: Date, holds: HoldTimes): SQL {
  return and(eq(purchase.status, 'pending'), sql`not ${holdLasts(now, holds)}`) as SQL;
}

export interface CapsSubject {
  /** The purchase being paid; null while it is being created. */
  purchase_id: number | null;
  customer_id: number;
  class_package_id: number;
  discount_id: number | null;
}

/** Other purchases than the subject (all of them while it is being created). */
const others = (subject: CapsSubject) => (subject.purchase_id === null ? undefined : ne(purchase.purchase_id, subject.purchase_id));

async function countPurchases(db: Tx | Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(purchase).where(where);
  return row?.n ?? 0;
}

/**
 * Locks the package (and the discount) and refuses the subject when a cap
 * has no room for it: 412 'package/people-limit', 409 'package/customer-limit',
 * 412 'discount/exhausted', 412 'discount/not-applicable' (first purchase only).
 * A purchase being paid then takes its discount use if it does not hold one
 * (failed in between, it gave it back); a purchase being created takes it
 * once inserted (recordDiscountUse). The caller holds the customer's lock.
 */
export async function claimPurchaseCaps(tx: Tx, subject: CapsSubject, now: Date, holds: HoldTimes, opts: { takeUse?: boolean } = {}): Promise<void> {
  const [pkg] = await tx
    .select({ people_limit: class_package.people_limit, limit_per_customer: class_package.limit_per_customer })
    .from(class_package)
    .where(eq(class_package.class_package_id, subject.class_package_id))
    .for('update');
  if (!pkg) throw new DomainError('package/not-found');
  const ofPackage = and(eq(purchase.class_package_id, subject.class_package_id), others(subject), takesUnit(now, holds));
  if (pkg.people_limit !== null && (await countPurchases(tx, ofPackage)) + 1 > pkg.people_limit) {
    throw new DomainError('package/people-limit');
  }
  if (pkg.limit_per_customer !== null && (await countPurchases(tx, and(ofPackage, eq(purchase.customer_id, subject.customer_id)))) + 1 > pkg.limit_per_customer) {
    throw new DomainError('package/customer-limit');
  }
  if (subject.discount_id !== null) await claimDiscountUse(tx, subject as CapsSubject & { discount_id: number }, now, holds, opts.takeUse !== false);
}

async function claimDiscountUse(tx: Tx, subject: CapsSubject & { discount_id: number }, now: Date, holds: HoldTimes, takeUse: boolean): Promise<void> {
  const [d] = await tx.select().from(discount).where(eq(discount.discount_id, subject.discount_id)).for('update');
  if (!d) throw new DomainError('discount/invalid');
  await releaseLapsedDiscountUses(tx, d.discount_id, now, holds);
  const [held] =
    subject.purchase_id === null
      ? []
      : await tx.select({ id: discount_use.discount_use_id }).from(discount_use).where(eq(discount_use.purchase_id, subject.purchase_id));
  await assertDiscountHasRoom(tx, d, subject, now, holds, Boolean(held));
  if (takeUse && !held && subject.purchase_id !== null) await recordDiscountUse(tx, d.discount_id, subject.customer_id, subject.purchase_id);
}

/**
 * Whether a code has room for one more use by the subject: 412
 * 'discount/exhausted' past `max_uses` (unless the subject already holds a
 * use) or `max_uses_per_customer`, 412 'discount/not-applicable' when
 * `first_invoice_only` and the customer bought the package before. Under the
 * discount's lock at checkout and payment (claimPurchaseCaps); without it for
 * the code's preview (findApplicableDiscount), which the checkout checks again.
 */
export async function assertDiscountHasRoom(
  db: Tx | Db,
  d: Pick<typeof discount.$inferSelect, 'discount_id' | 'uses' | 'max_uses' | 'max_uses_per_customer' | 'first_invoice_only'>,
  subject: CapsSubject,
  now: Date,
  holds: HoldTimes,
  holdsUse = false,
): Promise<void> {
  // `uses` is the counter of every use, those of before this system included (imported, or set by the owner): a new use needs room in it.
  if (!holdsUse && d.max_uses !== null && d.uses >= d.max_uses) throw new DomainError('discount/exhausted');
  const withCode = and(eq(purchase.discount_id, d.discount_id), others(subject), takesUnit(now, holds), eq(purchase.customer_id, subject.customer_id));
  if (d.max_uses_per_customer !== null && (await countPurchases(db, withCode)) + 1 > d.max_uses_per_customer) throw new DomainError('discount/exhausted');
  if (d.first_invoice_only) {
    // It discounts a customer's first purchase of the package: any other one paid (or paid and ended) rules it out.
    const earlier = await countPurchases(
      db,
      and(eq(purchase.customer_id, subject.customer_id), eq(purchase.class_package_id, subject.class_package_id), others(subject), everPaid),
    );
    if (earlier > 0) throw new DomainError('discount/not-applicable');
  }
}

/** One use of a code by a purchase: the discount_use row and the `uses` counter, together. */
export async function recordDiscountUse(tx: Tx, discountId: number, customerId: number, purchaseId: number): Promise<void> {
  await tx.insert(discount_use).values({ discount_id: discountId, customer_id: customerId, purchase_id: purchaseId });
  await tx
    .update(discount)
    .set({ uses: sql`${discount.uses} + 1` })
    .where(eq(discount.discount_id, discountId));
}

/** Gives back the uses of a code held by purchases whose hold lapsed (they count for nothing; `uses` says so too). */
async function releaseLapsedDiscountUses(tx: Tx, discountId: number, now: Date, holds: HoldTimes): Promise<void> {
  const lapsed = await tx
    .select({ id: discount_use.discount_use_id })
    .from(discount_use)
    .innerJoin(purchase, eq(purchase.purchase_id, discount_use.purchase_id))
    .where(and(eq(discount_use.discount_id, discountId), isNotNull(discount_use.purchase_id), lapsedHold(now, holds)));
  if (!lapsed.length) return;
  await tx.delete(discount_use).where(inArray(discount_use.discount_use_id, lapsed.map((l) => l.id)));
  await tx
    .update(discount)
    .set({ uses: sql`greatest(${discount.uses} - ${lapsed.length}, 0)` })
    .where(eq(discount.discount_id, discountId));
}

/**
 * Why money that came in does not pay its purchase, so it goes back: a cap
 * with no room left (claimPurchaseCaps), or the order was cancelled before
 * its payment arrived (markPurchasePaid).
 */
const refusedAtPayment = new Set(['package/people-limit', 'package/customer-limit', 'discount/exhausted', 'discount/not-applicable', 'purchase/ended-before-payment']);
export const isRefusedAtPayment = (err: unknown): err is DomainError => err instanceof DomainError && refusedAtPayment.has(err.code);

/**
 * Before a provider is asked to charge for a purchase created earlier (the
 * card form's confirmation, a PayPal capture): the caps it would be paid
 * against, checked now, so a superseded attempt is refused before any money
 * moves. Takes nothing: markPurchasePaid checks and takes them again when
 * the charge went through.
 */
export async function assertPurchaseCanBePaid(db: Db, purchaseId: number, now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(purchase).where(eq(purchase.purchase_id, purchaseId));
    if (!row) throw new DomainError('purchase/not-found');
    await lockCustomer(tx, row.customer_id);
    await claimPurchaseCaps(tx, row, now, holdTimes(await loadStudioSettings(tx)), { takeUse: false });
  });
}
