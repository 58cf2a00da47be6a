import { and, gte, lte, sql, type SQL } from 'drizzle-orm';
import { product_return, product_sale } from '@estudio/db/schema/products';

/** A product line as the drawer and the cash-up list it: "Agua natural × 2". */
export const productLineTitle = sql<string>`${product_sale.title} || ' × ' || ${product_sale.quantity}`;

/** Product lines paid between two instants (a product sale is paid when it is made). */
export function productsSoldBetween(from: Date, to: Date): SQL {
  return and(gte(product_sale.paidAt, from), lte(product_sale.paidAt, to)) as SQL;
}

/** A product brought back as the drawer and the cash-up list it: "Agua natural × 1 (devolución)". */
export const productReturnTitle = sql<string>`${product_sale.title} || ' × ' || ${product_return.quantity} || ' (devolución)'`;

/** Product returns made between two instants. */
export function productsReturnedBetween(from: Date, to: Date): SQL {
  return and(gte(product_return.returnedAt, from), lte(product_return.returnedAt, to)) as SQL;
}
