import {
  DomainError,
  allocateCashPart,
  cartTotal,
  discountedCents,
  effectivePriceCents,
  fromCents,
  outOfStockMessage,
  productLineCents,
  receiptLineTitle,
  receiptMethodText,
  studioTimeZone,
  toCents,
  unitsByProduct,
  type CounterSale,
  type CounterSaleQuote,
  type DeskMutationArgs,
} from '@estudio/core';
import type { Tx } from '@estudio/db';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { product, product_sale } from '@estudio/db/schema/products';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { openShiftFor } from '../cash/cash-shifts.ts';
import { findApplicableDiscount, type DiscountRow } from '../discounts/validate-discount.ts';
import { counterReceipt } from '@estudio/core/messages/templates/billing';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { checkedTerminal, livePackage, paymentMethodOf, sellPackage } from './give-access.ts';

export type SellAtDeskInput = DeskMutationArgs<'sellAtDesk'>;

/**
 * A sale at the counter: the cart's packages and products, one payment method,
 * an optional discount code, all in one transaction. Each package is a
 * purchase granted like giveAccess's; a code lowers the packages it applies
 * to (the portal's rules and caps, its use claimed with the purchase) and is
 * refused when it applies to none; each product takes its units off the shelf
 * under the product row's lock (never below zero, also when two counters race)
 * and is a product_sale line. Money taken goes into the seller's open drawer
 * shift; a card charged on the terminal keeps its slip on every line. One
 * activity row lists the whole sale.
 */
export async function sellAtDesk(db: Db, actor: StaffActor, input: SellAtDeskInput, messages: MessageContext | null, now: Date = new Date()): Promise<CounterSale> {
  if (input.packages.length === 0 && input.products.length === 0) throw new DomainError('sale/empty');
  return db.transaction(async (tx) => {
    const who = await lockCustomer(tx, input.customer_id);
    const method = await paymentMethodOf(tx, input.payment_method_id);
    const terminal = checkedTerminal(input.terminal, method.provider === 'card');
    const packages = [];
    for (const line of input.packages) packages.push({ line, pkg: await livePackage(tx, line.class_package_id) });
    const discount = input.discount_code ? await cartDiscount(tx, input.discount_code, packages.map((p) => p.pkg), who.customer_id, now) : null;
    const priced = packages.map(({ line, pkg }) => {
      const listCents = effectivePriceCents(pkg);
      const applies = discount?.packageIds.has(pkg.class_package_id) ?? false;
      return { line, pkg, applies, cents: applies ? discountedCents(listCents, discount!.row) : listCents };
    });
    const products = await takeFromShelf(tx, input.products, now);
    const totalCents = priced.reduce((n, p) => n + p.cents, 0) + products.reduce((n, p) => n + p.cents, 0);
    // Paid partly in cash and the rest on the card: the cash covers the lines in order (allocateCashPart).
    const cashCents = input.cash_part === null ? null : toCents(input.cash_part);
    if (cashCents !== null && method.provider !== 'card') throw new DomainError('sale/split-needs-card');
    if (cashCents !== null && (cashCents <= 0 || cashCents >= totalCents)) throw new DomainError('sale/split-amount');
    const cashParts = cashCents === null ? null : allocateCashPart([...priced.map((p) => p.cents), ...products.map((p) => p.cents)], cashCents);
    const cashPartOf = (line: number) => (cashParts ? fromCents(cashParts[line]!) : null);
    const cashShiftId = totalCents > 0 ? await openShiftFor(tx, actor.customer_id, actor.desk?.at ?? now) : null;
    const lines: CounterSale['lines'] = [];
    for (const [i, p] of priced.entries()) {
      const paid = await sellPackage(tx, {
        customerId: who.customer_id,
        pkg: p.pkg,
        paymentMethodId: input.payment_method_id,
        isGift: false,
        packageDays: p.line.package_days,
        totalPayment: fromCents(p.cents),
        discountId: p.applies ? discount!.row.discount_id : null,
        cashShiftId,
        terminal,
        cashPart: cashPartOf(i),
        bill: input.bill,
        // The whole cart gets one receipt, below.
        messages: null,
        now,
      });
      lines.push({ kind: 'package', id: p.pkg.class_package_id, title: p.pkg.title, quantity: 1, amount: paid.total_payment, purchase_id: paid.purchase_id, product_sale_id: null });
    }
    for (const [i, p] of products.entries()) {
      const [sold] = await tx
        .insert(product_sale)
        .values({
          customer_id: who.customer_id,
          product_id: p.product_id,
          title: p.name,
          quantity: p.quantity,
          unit_price: p.price,
          total: fromCents(p.cents),
          payment_method_id: input.payment_method_id,
          staff_id: actor.customer_id,
          cash_shift_id: cashShiftId,
          terminal_last4: terminal?.last4 ?? null,
          terminal_auth: terminal?.authorization ?? null,
          cash_part: cashPartOf(priced.length + i),
          // The same moment as the sale's packages (their purchases are paid at the server's time), so a sale is on one day.
          paidAt: now,
          createdAt: now,
        })
        .returning({ id: product_sale.product_sale_id, total: product_sale.total });
      lines.push({ kind: 'product', id: p.product_id, title: p.name, quantity: p.quantity, amount: sold!.total, purchase_id: null, product_sale_id: sold!.id });
    }
    const sale: CounterSale = { total: cartTotal(lines), discount_code: discount?.row.code ?? null, cash_part: cashCents === null ? null : fromCents(cashCents), lines };
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'sale.desk',
      entity: 'customer',
      entityId: who.customer_id,
      changes: { ...sale, payment_method_id: input.payment_method_id, ...(terminal ? { terminal } : {}) },
    });
    if (messages && totalCents > 0) {
      await queueCounterReceipt(tx, messages, who, {
        sale,
        titles: lines.map((l, i) => receiptLineTitle(l, l.kind === 'package' && priced[i]?.applies ? discount!.row.code : null)),
        method: receiptMethodText(method.name, terminal, cashCents === null ? null : { cashCents, totalCents }),
        paidAt: now,
      });
    }
    return sale;
  });
}

/**
 * The customer's receipt of the whole sale (one e-mail through the outbox, as the printed one), queued in the
 * sale's transaction: a refused sale sends nothing. dedupeKey on the first line: one receipt per sale.
 */
async function queueCounterReceipt(
  tx: Tx,
  messages: MessageContext,
  who: { customer_id: number; name: string },
  receipt: { sale: CounterSale; titles: string[]; method: string; paidAt: Date },
): Promise<void> {
  const first = receipt.sale.lines[0]!;
  const number = first.purchase_id ?? first.product_sale_id!;
  await queueCustomerMessage(tx, messages, {
    customerId: who.customer_id,
    parts: counterReceipt({
      name: who.name || null,
      saleNumber: number,
      lines: receipt.sale.lines.map((l, i) => ({ title: receipt.titles[i]!, amount: l.amount })),
      total: receipt.sale.total,
      paymentMethod: receipt.method,
      paidAt: receipt.paidAt,
      purchasesUrl: `${messages.publicUrl}/mystudio/membresias`,
      tz: studioTimeZone(await loadStudioSettings(tx)),
    }),
    dedupeKey: first.purchase_id ? `receipt:counter-purchase-${first.purchase_id}` : `receipt:counter-product-${first.product_sale_id}`,
  });
}

/**
 * POST /sales/quote: the cart's packages with the code applied, for staff to
 * say the total before taking the money. Nothing is claimed: the sale checks
 * the code again, with its caps, in its own transaction.
 */
export async function quoteAtDesk(db: Db, input: { customer_id: number; packages: { class_package_id: number }[]; discount_code: string }, now: Date = new Date()): Promise<CounterSaleQuote> {
  return db.transaction(async (tx) => {
    const packages = [];
    for (const line of input.packages) packages.push(await livePackage(tx, line.class_package_id));
    const discount = await cartDiscount(tx, input.discount_code, packages, input.customer_id, now);
    return {
      discount_code: discount.row.code,
      packages: packages.map((pkg) => {
        const listCents = effectivePriceCents(pkg);
        const discounted = discount.packageIds.has(pkg.class_package_id);
        return { class_package_id: pkg.class_package_id, title: pkg.title, list_price: fromCents(listCents), price: fromCents(discounted ? discountedCents(listCents, discount.row) : listCents), discounted };
      }),
    };
  });
}

/**
 * The code as it applies to this cart: the packages it lowers. Unknown, off or
 * expired codes are refused as at the shop; a code that lowers none of the
 * packages (or a cart of products only) is 'discount/not-applicable'.
 */
async function cartDiscount(tx: Tx, code: string, packages: { class_package_id: number; price: string; sale_price: string | null }[], customerId: number, now: Date) {
  let row: DiscountRow | null = null;
  const packageIds = new Set<number>();
  for (const pkg of packages) {
    try {
      row = await findApplicableDiscount(tx, { code, pkg, customerId, now });
      packageIds.add(pkg.class_package_id);
    } catch (e) {
      if (!(e instanceof DomainError) || e.code !== 'discount/not-applicable') throw e;
    }
  }
  if (!row) throw new DomainError('discount/not-applicable');
  return { row, packageIds };
}

/**
 * Takes the cart's units off the shelf: the product rows are locked in id
 * order (two counters selling the same things never wait on each other in a
 * cycle) and each stock counted goes down only when it has the units.
 */
async function takeFromShelf(tx: Tx, wanted: SellAtDeskInput['products'], now: Date) {
  const units = unitsByProduct(wanted);
  if (units.size === 0) return [];
  const rows = await tx
    .select()
    .from(product)
    .where(and(inArray(product.product_id, [...units.keys()]), isNull(product.deletedAt), eq(product.available, true)))
    .orderBy(asc(product.product_id))
    .for('update');
  const taken = [];
  for (const [productId, quantity] of units) {
    const row = rows.find((r) => r.product_id === productId);
    if (!row) throw new DomainError('product/not-found');
    if (row.stock !== null) {
      if (row.stock < quantity) {
        throw new DomainError('product/out-of-stock', outOfStockMessage(row.name, row.stock));
      }
      await tx
        .update(product)
        .set({ stock: sql`${product.stock} - ${quantity}`, updatedAt: now })
        .where(eq(product.product_id, productId));
    }
    taken.push({ product_id: productId, name: row.name, price: fromCents(toCents(row.price)), quantity, cents: productLineCents(row.price, quantity) });
  }
  return taken;
}
