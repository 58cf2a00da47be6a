import { appConfigDefaults, DomainError, effectivePriceCents, mayChangeCredits, mayGift, mayRemoveCustomerNote, type CreditChange } from '@estudio/core';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import type { DbOrTx, Tx } from '@estudio/db';

/** Where a staff action came from when a desk pushed it: the desk (its sync client id) and when it happened there. */
export interface DeskOrigin {
  id: string;
  /** The desk's clock when staff did it (hours earlier for an action kept offline). */
  at: Date;
}

/** The signed-in staff member a service acts for (over /api or a desk's push). */
export interface StaffActor {
  customer_id: number;
  /** Set for an action a desk pushed; absent for the console, the API and the previous panel. */
  desk?: DeskOrigin | undefined;
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
  const role = await roleOf(tx, actor);
  if (role === 'admin') return;
  if (!mayGift(role, packagePriceCents, await giftLimit(tx))) throw new DomainError('permission/gift-over-limit');
}

/**
 * A change of a customer's credits outside a purchase (the credits routes and
 * the previous panel's giveClasses), judged like a gift: Recepción gives
 * classes worth up to the owner's limit at the price of one class and takes
 * away freely; unlimited classes and longer or wider credits are an
 * administrator's (core's mayChangeCredits). Read in the change's transaction.
 */
export async function assertMayChangeCredits(tx: Tx, actor: StaffActor, change: CreditChange): Promise<void> {
  const role = await roleOf(tx, actor);
  if (role === 'admin') return;
  const verdict = mayChangeCredits(role, change, await singleClassPriceCents(tx), await giftLimit(tx));
  if (verdict === 'admin-only') throw new DomainError('permission/credits-admin-only');
  if (verdict === 'over-limit') throw new DomainError('permission/credits-over-limit');
}

/** A note on a customer is removed by an administrator, or by the receptionist who wrote it (core's mayRemoveCustomerNote). */
export async function assertMayRemoveNote(tx: Tx, actor: StaffActor, note: { created_by: number | null }): Promise<void> {
  if (!mayRemoveCustomerNote(await roleOf(tx, actor), note, actor.customer_id)) throw new DomainError('permission/note-not-yours');
}

/** The actor's role as stored now (a role changed mid-session counts at once). */
export async function roleOf(tx: DbOrTx, actor: StaffActor) {
  const [who] = await tx.select({ role: customer.role }).from(customer).where(eq(customer.customer_id, actor.customer_id));
  return who?.role ?? 'customer';
}

async function giftLimit(tx: Tx): Promise<string> {
  const [row] = await tx.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, 'reception_gift_max_price'));
  return row?.value ?? appConfigDefaults.reception_gift_max_price;
}

/** The price of one class: the studio's dearest single-class package on sale (not a trial, an event or a membership); null when it sells none. */
async function singleClassPriceCents(tx: Tx): Promise<number | null> {
  const singles = await tx
    .select({ price: class_package.price, sale_price: class_package.sale_price })
    .from(class_package)
    .where(
      and(
        eq(class_package.class_amount, 1),
        isNull(class_package.deletedAt),
        eq(class_package.is_trial, false),
        eq(class_package.is_special_event, false),
        eq(class_package.is_subscription, false),
        gt(class_package.price, '0'),
      ),
    );
  const prices = singles.map((p) => effectivePriceCents(p)).filter((cents) => cents > 0);
  return prices.length ? Math.max(...prices) : null;
}

/**
 * A sale recorded at another amount than the package's price (the owner
 * negotiated it; decision 040): an Administrador only. Read inside the sale's
 * transaction, like a gift's limit, so the role that counts is the one the
 * account has when the money settles.
 */
export async function assertMayChangePrice(tx: Tx, actor: StaffActor): Promise<void> {
  if ((await roleOf(tx, actor)) !== 'admin') throw new DomainError('permission/price-admin-only');
}
