import { DomainError, formatMXN, fromCents, productReturnCents, texts, returnTooManyMessage, toCents, type ProductReturn, type z, type productReturnInput } from '@estudio/core';
import type { Tx } from '@estudio/db';
import { payment_method } from '@estudio/db/schema/payments';
import { product, product_return, product_sale } from '@estudio/db/schema/products';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { correctGlobalInvoiceOfProductReturn } from '../cfdi/correct-invoice.ts';
import { openShiftFor } from '../cash/cash-shifts.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { productSaleKindOf } from '../reports/payment-kind.ts';

export type ProductReturnInput = z.output<typeof productReturnInput>;

/** What was already returned of sale lines: units, money and the cash of it, per line. */
async function returnedOf(tx: Db | Tx, saleIds: number[]) {
  if (saleIds.length === 0) return new Map<number, { quantity: number; amountCents: number; cashCents: number }>();
  const rows = await tx
    .select({
      id: product_return.product_sale_id,
      quantity: sql<number>`sum(${product_return.quantity})::int`,
      amount: sql<string>`sum(${product_return.amount})`,
      cash: sql<string>`sum(${product_return.cash_part})`,
    })
    .from(product_return)
    .where(inArray(product_return.product_sale_id, saleIds))
    .groupBy(product_return.product_sale_id);
  return new Map(rows.map((r) => [r.id, { quantity: Number(r.quantity), amountCents: toCents(r.amount), cashCents: toCents(r.cash) }]));
}

/**
 * Units of a counter sale brought back (decision 115), in one transaction: the sale line is locked, so two returns
 * of it at once cannot give back more units (or money) than it sold; the money goes back the way it came (a cash
 * sale from the returner's open drawer, a card sale on the card, a split one its cash part first); the units go back
 * on the shelf when staff say they can be sold again and the product is counted. One activity row says who, what,
 * how much and why.
 */
export async function returnProduct(db: Db, actor: StaffActor, input: ProductReturnInput, now: Date = new Date()): Promise<ProductReturn> {
  return db.transaction(async (tx) => {
    const [owner] = await tx.select({ customer_id: product_sale.customer_id }).from(product_sale).where(eq(product_sale.product_sale_id, input.product_sale_id));
    if (!owner) throw new DomainError('product-sale/not-found');
    // The customer before the line, as a sale takes them (decision 006's order).
    await lockCustomer(tx, owner.customer_id);
    const [line] = await tx
      .select({ sale: product_sale, kind: productSaleKindOf })
      .from(product_sale)
      .where(eq(product_sale.product_sale_id, input.product_sale_id))
      .for('update', { of: product_sale });
    if (!line) throw new DomainError('product-sale/not-found');
    const before = (await returnedOf(tx, [line.sale.product_sale_id])).get(line.sale.product_sale_id) ?? { quantity: 0, amountCents: 0, cashCents: 0 };
    const left = line.sale.quantity - before.quantity;
    if (input.quantity > left) throw new DomainError('product-return/too-many', returnTooManyMessage(left));
    const { amountCents, cashCents } = productReturnCents(
      { quantity: line.sale.quantity, unit_price: line.sale.unit_price, total: line.sale.total, paidInCash: line.kind === 'cash', cash_part: line.sale.cash_part },
      before,
      input.quantity,
    );
    // Cash handed back leaves the returner's open drawer; a card's part is listed beside it, as for a sale.
    const cashShiftId = await openShiftFor(tx, actor.customer_id, actor.desk?.at ?? now);
    let restocked = false;
    if (input.restock) {
      const back = await tx
        .update(product)
        .set({ stock: sql`${product.stock} + ${input.quantity}`, updatedAt: now })
        .where(sql`${product.product_id} = ${line.sale.product_id} and ${product.stock} is not null`)
        .returning({ id: product.product_id });
      restocked = back.length > 0;
    }
    const [stored] = await tx
      .insert(product_return)
      .values({
        product_sale_id: line.sale.product_sale_id,
        quantity: input.quantity,
        amount: fromCents(amountCents),
        cash_part: fromCents(cashCents),
        restocked,
        reason: input.reason,
        staff_id: actor.customer_id,
        cash_shift_id: cashShiftId,
        returnedAt: now,
        createdAt: now,
      })
      .returning({ id: product_return.product_return_id });
    await correctGlobalInvoiceOfProductReturn(tx, { productSaleId: line.sale.product_sale_id, returnedCents: amountCents, now });
    const result: ProductReturn = {
      product_return_id: stored!.id,
      product_sale_id: line.sale.product_sale_id,
      title: line.sale.title,
      quantity: input.quantity,
      amount: fromCents(amountCents),
      cash_part: fromCents(cashCents),
      restocked,
      returnable: left - input.quantity,
    };
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'product.return',
      entity: 'customer',
      entityId: line.sale.customer_id,
      changes: { ...result, reason: input.reason },
    });
    return result;
  });
}

/** GET /sales/products: what a customer bought at the counter besides classes, with what can still be returned. */
export async function customerProductSales(db: Db, customerId: number) {
  const rows = await db
    .select({ sale: product_sale, method: payment_method.name })
    .from(product_sale)
    .leftJoin(payment_method, eq(payment_method.payment_method_id, product_sale.payment_method_id))
    .where(eq(product_sale.customer_id, customerId))
    .orderBy(desc(product_sale.paidAt), desc(product_sale.product_sale_id))
    .limit(100);
  const returned = await returnedOf(
    db,
    rows.map((r) => r.sale.product_sale_id),
  );
  return {
    sales: rows.map(({ sale, method }) => {
      const back = returned.get(sale.product_sale_id)?.quantity ?? 0;
      return {
        product_sale_id: sale.product_sale_id,
        title: sale.title,
        quantity: sale.quantity,
        total: sale.total,
        paid_at: sale.paidAt.toISOString(),
        // A split payment says both ways, as the receipt does.
        method: sale.cash_part !== null ? texts.counterSale.splitMethod(formatMXN(toCents(sale.cash_part)), method ?? 'Tarjeta') : (method ?? 'Efectivo'),
        returned: back,
        returned_amount: fromCents(returned.get(sale.product_sale_id)?.amountCents ?? 0),
        unit_price: sale.unit_price,
        returnable: sale.quantity - back,
      };
    }),
  };
}
