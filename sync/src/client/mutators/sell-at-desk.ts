import { addPeriod, allocateCashPart, deskAccessDays, DomainError, effectivePriceCents, fromCents, outOfStockMessage, productLineCents, toCents, unitsByProduct, type ReplicatedTable } from '@estudio/core';
import { class_package, payment_method, product } from '@estudio/db';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Mutator, MutatorContext } from './context.ts';
import { grantPurchaseCredit, insertRow, liveCustomer } from './replica-rows.ts';

/**
 * Temporary ids for the rows of a cart's second and later packages: the
 * mutation's own id is one number of the outbox's sequence (-1, -2, …), so
 * these live far below any it will reach, sixteen per mutation (a cart holds up to ten packages).
 */
const lineTempId = (tempId: number, line: number) => (line === 0 ? tempId : -1_000_000_000 + tempId * 16 - line);

/**
 * The server's sellAtDesk (`server/src/services/desk/sell-at-desk.ts`) on the
 * replica: each package a purchase with its credit, each counted product its
 * units off the shelf (refused as the server would when the shelf has fewer).
 * A discount code is the server's to apply (the replica has no codes): the
 * purchases show the list price until the pull brings the server's rows.
 */
export const sellAtDesk: Mutator<'sellAtDesk'> = async (ctx, args) => {
  const { tx, now } = ctx;
  if (args.packages.length === 0 && args.products.length === 0) throw new DomainError('sale/empty');
  const who = await liveCustomer(tx, args.customer_id);
  const [method] = await tx.select({ provider: payment_method.provider }).from(payment_method).where(eq(payment_method.payment_method_id, args.payment_method_id));
  if (!method) throw new DomainError('payment-method/not-found');
  if (args.terminal && method.provider !== 'card') throw new DomainError('access/terminal-not-card');
  if (args.cash_part !== null && method.provider !== 'card') throw new DomainError('sale/split-needs-card');
  const changed = new Set<ReplicatedTable>();
  const packages = [];
  for (const line of args.packages) {
    const [pkg] = await tx
      .select()
      .from(class_package)
      .where(and(eq(class_package.class_package_id, line.class_package_id), isNull(class_package.deletedAt)));
    if (!pkg) throw new DomainError('package/not-found');
    packages.push({ line, pkg });
  }
  const units = unitsByProduct(args.products);
  const productCents: number[] = [];
  if (units.size) {
    const rows = await tx
      .select()
      .from(product)
      .where(and(inArray(product.product_id, [...units.keys()]), isNull(product.deletedAt), eq(product.available, true)));
    for (const [productId, quantity] of units) {
      const row = rows.find((r) => r.product_id === productId);
      if (!row) throw new DomainError('product/not-found');
      productCents.push(productLineCents(row.price, quantity));
      if (row.stock === null) continue;
      if (row.stock < quantity) throw new DomainError('product/out-of-stock', outOfStockMessage(row.name, row.stock));
      await tx.update(product).set({ stock: row.stock - quantity }).where(eq(product.product_id, productId));
      changed.add('product');
    }
  }
  // A split payment's cash part, over the lines as the server allocates it (at list prices: a code is the server's).
  const packageCents = packages.map(({ pkg }) => effectivePriceCents(pkg));
  const totalCents = [...packageCents, ...productCents].reduce((n, c) => n + c, 0);
  const cashCents = args.cash_part === null ? null : toCents(args.cash_part);
  if (cashCents !== null && (cashCents <= 0 || cashCents >= totalCents)) throw new DomainError('sale/split-amount');
  const cashParts = cashCents === null ? null : allocateCashPart([...packageCents, ...productCents], cashCents);
  for (const [i, { line, pkg }] of packages.entries()) {
    const days = deskAccessDays(pkg, line.package_days, now);
    const until = days ? addPeriod(now, days, 'day') : null;
    const lineCtx: MutatorContext = { ...ctx, tempId: lineTempId(ctx.tempId, i) };
    await insertRow(tx, 'purchase', {
      purchase_id: lineCtx.tempId,
      customer_id: who.customer_id,
      class_package_id: pkg.class_package_id,
      payment_method_id: args.payment_method_id,
      title: pkg.title,
      amount: pkg.price,
      total_payment: fromCents(packageCents[i]!),
      cash_part: cashParts ? fromCents(cashParts[i]!) : null,
      class_amount: pkg.class_amount,
      expiration_days: days,
      status: 'completed',
      is_gift: false,
      provider: 'admin',
      expiration_date: until?.toISOString() ?? null,
      paid_at: now.toISOString(),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    changed.add('purchase');
    for (const table of await grantPurchaseCredit(lineCtx, { purchase_id: lineCtx.tempId, customer_id: who.customer_id, class_amount: pkg.class_amount }, until)) changed.add(table);
  }
  return [...changed];
};
