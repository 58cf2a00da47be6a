import { z } from '../zod.ts';
import { formatMXN, fromCents, toCents } from '../rules/money.ts';
import { texts } from '../texts.ts';
import { bodyId, id, isoDateTime } from './fields.ts';
import { drawerAmount } from './cash-shifts.ts';

/**
 * What the studio sells at the counter besides classes (water, grip socks, a
 * towel), with the units on the shelf. The owner keeps the list in the
 * console; the desk sells them in a cart beside the packages.
 */

const productName = z
  .string({ error: 'Escribe el nombre del producto.' })
  .trim()
  .min(1, { error: 'Escribe el nombre del producto.' })
  .max(120, { error: 'El nombre puede tener hasta 120 caracteres.' });
/** Units on the shelf; null when the studio does not count them (always sellable). */
const productStock = z
  .number({ error: 'Escribe las piezas en existencia como un número entero.' })
  .int({ error: 'Escribe las piezas en existencia como un número entero.' })
  .min(0, { error: 'Las piezas en existencia no pueden ser negativas.' })
  .max(1_000_000, { error: 'Escribe hasta 1,000,000 piezas.' })
  .nullable();

const productFields = {
  name: productName,
  price: drawerAmount('el precio'),
  stock: productStock.default(null),
  available: z.boolean().default(true),
};

/** POST /products */
export const productCreateInput = z.strictObject(productFields);
export type ProductCreateInput = z.infer<typeof productCreateInput>;
/** PUT /products: the id and the fields that change. */
export const productUpdateInput = z.strictObject({
  product_id: bodyId,
  name: productName.optional(),
  price: drawerAmount('el precio').optional(),
  stock: productStock.optional(),
  available: z.boolean().optional(),
});
export type ProductUpdateInput = z.infer<typeof productUpdateInput>;
export const productIdInput = z.strictObject({ id });

export const productOutput = z.object({
  product_id: z.number(),
  name: z.string(),
  price: z.string(),
  stock: z.number().nullable(),
  available: z.boolean(),
  /** Units sold, ever (a product with sales is only hidden when deleted). */
  sold: z.number(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type ProductOutput = z.infer<typeof productOutput>;
export const productsOutput = z.object({ products: z.array(productOutput) });
export const productOneOutput = z.object({ product: productOutput });
export const productRemovedOutput = z.object({ deleted: z.literal(true), id: z.number(), soft: z.boolean() });

// ---------- A sale at the counter ----------

/** The most units of one product in one sale: a counter, not a warehouse. */
export const maxUnitsPerLine = 99;
export const cartProductLine = z.strictObject({
  product_id: bodyId,
  quantity: z
    .number({ error: 'Escribe cuántas piezas.' })
    .int({ error: 'Escribe cuántas piezas, en números enteros.' })
    .min(1, { error: 'Escribe al menos una pieza.' })
    .max(maxUnitsPerLine, { error: `Escribe hasta ${maxUnitsPerLine} piezas por producto.` }),
});
export const cartPackageLine = z.strictObject({
  class_package_id: bodyId,
  /** Days of access; the package's own when null. */
  package_days: bodyId.max(3650).nullable().default(null),
});

/** What a product line costs: the unit price times the units, in centavos. */
export function productLineCents(unitPrice: string, quantity: number): number {
  return toCents(unitPrice) * quantity;
}

/** A cart's total from its lines' amounts (money strings), as a money string. */
export function cartTotal(lines: readonly { amount: string }[]): string {
  return fromCents(lines.reduce((n, l) => n + toCents(l.amount), 0));
}

/** The code staff type at the counter, as the shop reads it. */
export const counterDiscountCode = z
  .string({ error: 'Escribe el código de descuento.' })
  .trim()
  .min(1, { error: 'Escribe el código de descuento.' })
  .max(64, { error: 'El código puede tener hasta 64 caracteres.' });

/** POST /sales/quote: what a code takes off the cart's packages, before charging (nothing is claimed). */
export const counterSaleQuoteInput = z.strictObject({
  customer_id: bodyId,
  packages: z.array(cartPackageLine).max(10).default([]),
  discount_code: counterDiscountCode,
});
export const counterSaleQuoteOutput = z.object({
  discount_code: z.string(),
  packages: z.array(z.object({ class_package_id: z.number(), title: z.string(), list_price: z.string(), price: z.string(), discounted: z.boolean() })),
});
export type CounterSaleQuote = z.infer<typeof counterSaleQuoteOutput>;

/** A counter sale as recorded: its lines (a purchase per package, a product_sale per product) and the total charged. */
export const counterSaleOutput = z.object({
  total: z.string(),
  discount_code: z.string().nullable(),
  /** Of a split payment: what was paid in cash (the rest on the card); null when paid one way. */
  cash_part: z.string().nullable(),
  lines: z.array(
    z.object({
      kind: z.enum(['package', 'product']),
      id: z.number(),
      title: z.string(),
      quantity: z.number(),
      amount: z.string(),
      purchase_id: z.number().nullable(),
      product_sale_id: z.number().nullable(),
    }),
  ),
});
export type CounterSale = z.infer<typeof counterSaleOutput>;

/** The refusal when the shelf has fewer units than the cart, said with the units left. */
export function outOfStockMessage(name: string, left: number): string {
  return left === 0 ? `Ya no quedan piezas de «${name}».` : `Solo quedan ${left} ${left === 1 ? 'pieza' : 'piezas'} de «${name}».`;
}

/**
 * A split payment: the cash part covers the cart's lines in order and the card
 * the rest; the line where the cash runs out is paid partly in each. Returns
 * each line's cash part in centavos (0: all by card).
 */
export function allocateCashPart(lineCents: readonly number[], cashCents: number): number[] {
  let left = cashCents;
  return lineCents.map((cents) => {
    const part = Math.max(0, Math.min(cents, left));
    left -= part;
    return part;
  });
}

/** A line of a split payment as the drawer and the cash-up list each of its parts. */
export const splitLineTitle = (title: string) => `${title} (pago dividido)`;

/**
 * A sold line as the counter's receipts say it (printed at the desk and e-mailed): 'Agua natural 600 ml × 2',
 * '10 Clases (con VERANO200)'. `discountCode`: the code that lowered this line, or null.
 */
export function receiptLineTitle(line: { kind: 'package' | 'product'; title: string; quantity: number }, discountCode: string | null): string {
  if (line.kind === 'product') return `${line.title} × ${line.quantity}`;
  return discountCode ? `${line.title} (${texts.counterSale.discounted(discountCode)})` : line.title;
}

/**
 * How a counter sale was paid, as its receipts say it: 'Efectivo', 'Tarjeta ···· 4242 · aut. A1B2C3', or a split
 * 'Efectivo $100.00 + Tarjeta ···· 5555 · aut. DIV123 $80.00'.
 */
export function receiptMethodText(
  method: string,
  slip: { last4: string; authorization: string } | null,
  split: { cashCents: number; totalCents: number } | null,
): string {
  const paid = slip ? texts.cashDrawer.terminalText(method, slip.last4, slip.authorization) : method;
  return split ? texts.counterSale.splitMethod(formatMXN(split.cashCents), `${paid} ${formatMXN(split.totalCents - split.cashCents)}`) : paid;
}

// ---------- Returns (decision 115) ----------

/** POST /sales/products/{product_sale_id}/return: units brought back, whether they go back on the shelf, and why. */
export const productReturnInput = z.strictObject({
  product_sale_id: id,
  quantity: z.number({ error: 'Escribe cuántas piezas devuelve.' }).int({ error: 'Escribe cuántas piezas devuelve.' }).min(1, { error: 'Devuelve al menos una pieza.' }).max(maxUnitsPerLine),
  /** The units can be sold again (false: a used towel). */
  restock: z.boolean().default(true),
  reason: z.string({ error: 'Escribe por qué se devuelve.' }).trim().min(1, { error: 'Escribe por qué se devuelve.' }).max(300),
});

export const productReturnOutput = z.object({
  product_return_id: z.number(),
  product_sale_id: z.number(),
  title: z.string(),
  quantity: z.number(),
  /** What went back to the customer. */
  amount: z.string(),
  /** Of it, handed back from the drawer in cash (the rest on the card the sale was paid with). */
  cash_part: z.string(),
  restocked: z.boolean(),
  /** Units of the sale that can still be returned. */
  returnable: z.number(),
});
export type ProductReturn = z.infer<typeof productReturnOutput>;

/** A customer's products bought at the counter, newest first, with what can still be returned of each. */
export const customerProductSalesOutput = z.object({
  sales: z.array(
    z.object({
      product_sale_id: z.number(),
      title: z.string(),
      quantity: z.number(),
      total: z.string(),
      paid_at: isoDateTime,
      method: z.string(),
      unit_price: z.string(),
      returned: z.number(),
      /** Money already given back for this line. */
      returned_amount: z.string(),
      returnable: z.number(),
    }),
  ),
});

/**
 * What a return of `quantity` units of a sale line gives back, in centavos: the units at the line's unit price
 * (the last units returned take whatever of the total is left, so the returns add up to the line to the centavo),
 * and of it the cash handed back from the drawer: all of it for a cash sale, none for a card, and for a split
 * payment the cash part first, up to what of it was not handed back already.
 */
export function productReturnCents(
  line: { quantity: number; unit_price: string; total: string; paidInCash: boolean; cash_part: string | null },
  before: { quantity: number; amountCents: number; cashCents: number },
  quantity: number,
): { amountCents: number; cashCents: number } {
  const last = before.quantity + quantity >= line.quantity;
  const amountCents = last ? toCents(line.total) - before.amountCents : productLineCents(line.unit_price, quantity);
  const cashAvailable = line.cash_part !== null ? toCents(line.cash_part) - before.cashCents : line.paidInCash ? amountCents : 0;
  return { amountCents, cashCents: Math.max(0, Math.min(amountCents, cashAvailable)) };
}

/** A refusal of a return of more units than are left to return. */
export function returnTooManyMessage(left: number): string {
  return left === 0 ? 'Esta venta ya se devolvió completa.' : `Solo ${left === 1 ? 'queda 1 pieza' : `quedan ${left} piezas`} por devolver de esta venta.`;
}
