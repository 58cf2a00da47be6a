import type { PaymentKind } from '@estudio/core';
import { sql, type SQL } from 'drizzle-orm';

/** What staff took at the counter with a payment method: its kind ('card' on the terminal, 'paypal', else cash). */
const counterKindOf = (methodId: SQL) =>
  sql<PaymentKind>`coalesce((select case pm.provider when 'card' then 'card' when 'paypal' then 'paypal' else 'cash' end from payment_method pm where pm.payment_method_id = ${methodId}), 'cash')`;

/**
 * How a purchase was paid, as the reports, the cash-up, the refunds and the
 * exports split it (decision 034). One SQL expression over the purchase row:
 * a gift is 'gift' (cortesía); nothing charged is 'free'; the shop's card
 * providers are 'card'; a desk sale ('admin') takes the kind of the payment
 * method staff chose (Efectivo, the default, is cash). An 'Efectivo' order
 * staff marked paid as a bank transfer is 'transfer': it never was drawer cash.
 * OXXO vouchers and SPEI transfers through Stripe are their own kinds
 * (decision 080): neither is money in the studio's drawer.
 */
// Written with the table's name: drizzle leaves columns unqualified in a one-table select, and the
// subquery's own payment_method_id would then win. Every query using these names `purchase` unaliased.
export const paymentKindOf: SQL<PaymentKind> = sql<PaymentKind>`(case
  when "purchase"."is_gift" then 'gift'
  when "purchase"."provider" = 'admin' then ${counterKindOf(sql.raw('"purchase"."payment_method_id"'))}
  when "purchase"."total_payment" = 0 then 'free'
  when "purchase"."payment_channel" = 'oxxo' then 'oxxo'
  when "purchase"."payment_channel" = 'spei' then 'spei'
  when "purchase"."provider" = 'cash' then (case when "purchase"."paid_with" = 'transfer' then 'transfer' else 'cash' end)
  when "purchase"."provider" = 'paypal' then 'paypal'
  else 'card' end)`;

/** The purchase was refunded: it has its refund invoice (status 'refunded', decision 034). */
export const wasRefunded: SQL<boolean> = sql<boolean>`exists (select 1 from invoice ri where ri.purchase_id = "purchase"."purchase_id" and ri.status = 'refunded')`;

/**
 * How a product sold at the counter was paid: the kind of the payment method
 * staff chose, as for a desk sale of a package above. Every query using it names
 * `product_sale` unaliased.
 */
export const productSaleKindOf: SQL<PaymentKind> = counterKindOf(sql.raw('"product_sale"."payment_method_id"'));
