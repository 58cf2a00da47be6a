import { addPeriod, DomainError, effectivePriceCents, fromCents, isReasonGiven, toCents, type DeskMutationArgs } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { markPurchasePaid, type PurchaseRow } from '../checkout/grant-purchase.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { openShiftFor } from '../cash/cash-shifts.ts';
import { assertMayChangePrice, assertMayGift, type StaffActor } from '../permissions/staff-permissions.ts';

export type GiveAccessInput = DeskMutationArgs<'giveAccess'>;

const dayMs = 86_400_000;

/**
 * POST /api/customer/giveAccess: staff give a customer a package, as a gift or
 * paid at the desk. It is recorded as a purchase (provider 'admin') and paid
 * through the same grant code as a shop purchase, so credits, class types and
 * the unlimited membership come out exactly as if the customer had bought it.
 *
 * `package_days` replaces the package's length; a subscription package given
 * here is not a subscription (nothing renews it): it lasts one period unless
 * days are given. A gift costs 0; otherwise the package's price (sale price
 * when set) is what was paid. `bill` records the invoice of that payment.
 * The customer's receipt (or the gift's confirmation) links to `messages`' portal.
 * A gift needs a reason and the giver's permission (decision 037: Recepción up
 * to the owner's price limit); who gave what, to whom and why goes to the
 * audit log in the same transaction, so a refused replay leaves no trace.
 *
 * `options.total` (the previous panel's typed total, decision 040) is the
 * amount of the sale when it differs from the list price: only an
 * Administrador may record another amount (checked in this transaction, where
 * the purchase and its invoice are written); the audit row keeps both.
 */
export async function giveAccess(
  db: Db,
  actor: StaffActor,
  input: GiveAccessInput,
  messages: MessageContext | null,
  now: Date = new Date(),
  options: { total?: string } = {},
): Promise<PurchaseRow> {
  const reason = input.reason?.trim() || null;
  if (input.is_gift && !isReasonGiven(reason)) throw new DomainError('access/reason-required');
  return db.transaction(async (tx) => {
    // Customer first: the grant below takes the customer's credits (decision 006 order).
    const who = await lockCustomer(tx, input.customer_id);
    const [pkg] = await tx
      .select()
      .from(class_package)
      .where(and(eq(class_package.class_package_id, input.class_package_id), isNull(class_package.deletedAt)));
    if (!pkg) throw new DomainError('package/not-found');
    if (input.is_gift) await assertMayGift(tx, actor, effectivePriceCents(pkg));
    let methodProvider: string | null = null;
    if (input.payment_method_id !== null) {
      const [method] = await tx
        .select({ id: payment_method.payment_method_id, provider: payment_method.provider })
        .from(payment_method)
        .where(eq(payment_method.payment_method_id, input.payment_method_id));
      if (!method) throw new DomainError('payment-method/not-found');
      methodProvider = method.provider;
    }
    // A terminal's slip belongs to a card charge: with cash or a gift it would be a record of money that never was.
    const terminal = input.terminal ?? null;
    if (terminal && (input.is_gift || methodProvider !== 'card')) throw new DomainError('access/terminal-not-card');
    const periodDays =
      pkg.is_subscription && pkg.subscription_period
        ? Math.round((addPeriod(now, pkg.subscription_interval ?? 1, pkg.subscription_period).getTime() - now.getTime()) / dayMs)
        : null;
    const listPrice = input.is_gift ? '0.00' : fromCents(effectivePriceCents(pkg));
    const agreed = options.total === undefined ? null : toCents(options.total);
    if (agreed !== null && agreed !== toCents(listPrice)) await assertMayChangePrice(tx, actor);
    const totalPayment = agreed === null ? listPrice : fromCents(agreed);
    // Money taken at the counter goes into the seller's open drawer (cash) or beside it (a card on the terminal).
    const cashShiftId = toCents(totalPayment) > 0 ? await openShiftFor(tx, actor.customer_id, actor.desk?.at ?? now) : null;
    const [created] = await tx
      .insert(purchase)
      .values({
        customer_id: who.customer_id,
        class_package_id: pkg.class_package_id,
        payment_method_id: input.payment_method_id,
        title: pkg.title,
        amount: pkg.price,
        total_payment: totalPayment,
        class_amount: pkg.class_amount,
        expiration_days: input.package_days ?? pkg.expiration_days ?? periodDays,
        status: 'pending',
        is_gift: input.is_gift,
        provider: 'admin',
        cash_shift_id: cashShiftId,
        terminal_last4: terminal?.last4 ?? null,
        terminal_auth: terminal?.authorization ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new DomainError('internal');
    const { purchase: paid } = await markPurchasePaid(tx, created.purchase_id, { now, totalPayment, recordInvoice: input.bill, messages });
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: input.is_gift ? 'access.gift' : 'access.sell',
      entity: 'customer',
      entityId: who.customer_id,
      changes: { purchase_id: paid.purchase_id, class_package_id: pkg.class_package_id, title: pkg.title, list_price: listPrice, total_payment: totalPayment, package_days: input.package_days, reason, ...(terminal ? { terminal } : {}) },
    });
    return paid;
  });
}
