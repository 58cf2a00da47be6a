import { deskAccessDays, DomainError, effectivePriceCents, fromCents, isReasonGiven, toCents, type DeskMutationArgs, type TerminalSlip } from '@estudio/core';
import type { Tx } from '@estudio/db';
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
    const pkg = await livePackage(tx, input.class_package_id);
    if (input.is_gift) await assertMayGift(tx, actor, effectivePriceCents(pkg));
    const method = input.payment_method_id === null ? null : await paymentMethodOf(tx, input.payment_method_id);
    const terminal = checkedTerminal(input.terminal, !input.is_gift && method?.provider === 'card');
    const listPrice = input.is_gift ? '0.00' : fromCents(effectivePriceCents(pkg));
    const agreed = options.total === undefined ? null : toCents(options.total);
    if (agreed !== null && agreed !== toCents(listPrice)) await assertMayChangePrice(tx, actor);
    const totalPayment = agreed === null ? listPrice : fromCents(agreed);
    // Money taken at the counter goes into the seller's open drawer (cash) or beside it (a card on the terminal).
    const cashShiftId = toCents(totalPayment) > 0 ? await openShiftFor(tx, actor.customer_id, actor.desk?.at ?? now) : null;
    const paid = await sellPackage(tx, {
      customerId: who.customer_id,
      pkg,
      paymentMethodId: input.payment_method_id,
      isGift: input.is_gift,
      packageDays: input.package_days,
      totalPayment,
      discountId: null,
      cashShiftId,
      terminal,
      bill: input.bill,
      messages,
      now,
    });
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

type PackageRow = typeof class_package.$inferSelect;

/** A package the studio still has (not deleted); 404 'package/not-found' otherwise. */
export async function livePackage(tx: Tx, classPackageId: number): Promise<PackageRow> {
  const [pkg] = await tx
    .select()
    .from(class_package)
    .where(and(eq(class_package.class_package_id, classPackageId), isNull(class_package.deletedAt)));
  if (!pkg) throw new DomainError('package/not-found');
  return pkg;
}

/** The payment method staff chose, with its provider ('card' for the counter's terminal); 404 when there is none. */
export async function paymentMethodOf(tx: Tx, paymentMethodId: number): Promise<{ provider: string | null; name: string }> {
  const [method] = await tx
    .select({ provider: payment_method.provider, name: payment_method.name })
    .from(payment_method)
    .where(eq(payment_method.payment_method_id, paymentMethodId));
  if (!method) throw new DomainError('payment-method/not-found');
  return method;
}

/** A terminal's slip belongs to a card charge: with cash or a gift it would be a record of money that never was. */
export function checkedTerminal(terminal: TerminalSlip | null, chargedByCard: boolean): TerminalSlip | null {
  if (terminal && !chargedByCard) throw new DomainError('access/terminal-not-card');
  return terminal;
}

/**
 * One package sold or given at the counter, as a purchase (provider 'admin')
 * paid through the shop's grant code, so credits, class types and the
 * membership come out as a shop purchase's would. A subscription package is
 * not a subscription here (nothing renews it): it lasts one period unless days
 * are given. `discountId` is claimed by the grant (the code's caps, in this
 * transaction). The caller holds the customer's lock.
 */
export async function sellPackage(
  tx: Tx,
  sale: {
    customerId: number;
    pkg: PackageRow;
    paymentMethodId: number | null;
    isGift: boolean;
    packageDays: number | null;
    totalPayment: string;
    discountId: number | null;
    cashShiftId: number | null;
    terminal: TerminalSlip | null;
    /** Of a split payment: the part of this purchase paid in cash (the rest on the card); null when paid one way. */
    cashPart?: string | null;
    bill: boolean;
    messages: MessageContext | null;
    now: Date;
  },
): Promise<PurchaseRow> {
  const { pkg, now } = sale;
  const [created] = await tx
    .insert(purchase)
    .values({
      customer_id: sale.customerId,
      class_package_id: pkg.class_package_id,
      payment_method_id: sale.paymentMethodId,
      discount_id: sale.discountId,
      title: pkg.title,
      amount: pkg.price,
      total_payment: sale.totalPayment,
      class_amount: pkg.class_amount,
      expiration_days: deskAccessDays(pkg, sale.packageDays, now),
      status: 'pending',
      is_gift: sale.isGift,
      provider: 'admin',
      cash_shift_id: sale.cashShiftId,
      terminal_last4: sale.terminal?.last4 ?? null,
      terminal_auth: sale.terminal?.authorization ?? null,
      cash_part: sale.cashPart ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!created) throw new DomainError('internal');
  // Money taken is a charge, whatever `bill` says (decision 116): without it the sale would count in the reports but
  // never reach the customer's charges or the global invoice. `bill` still records a charge of a sale of $0.
  const tookMoney = !sale.isGift && toCents(sale.totalPayment) > 0;
  const { purchase: paid } = await markPurchasePaid(tx, created.purchase_id, { now, totalPayment: sale.totalPayment, recordInvoice: sale.bill || tookMoney, messages: sale.messages });
  return paid;
}
