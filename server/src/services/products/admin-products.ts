import { and, asc, eq, inArray, isNull, ne, sql, sum } from 'drizzle-orm';
import { product, product_sale } from '@estudio/db/schema/products';
import { DomainError, type ProductCreateInput, type ProductOutput, type ProductUpdateInput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { definedOnly } from '../content/removed.ts';

type ProductRow = typeof product.$inferSelect;

/**
 * Key space of the advisory lock that serialises saves of one product name
 * (two-int form: this, then hashtext of the name in lower case). The table has
 * no unique index on the name (a deleted product keeps its name for its sales),
 * so two owners saving «Agua» at once would both pass the check without it.
 */
const PRODUCT_NAME_LOCK = 28_001;

async function withSold(db: Db, rows: ProductRow[]): Promise<ProductOutput[]> {
  const ids = rows.map((r) => r.product_id);
  const sold = ids.length
    ? await db
        .select({ product_id: product_sale.product_id, units: sum(product_sale.quantity) })
        .from(product_sale)
        .where(inArray(product_sale.product_id, ids))
        .groupBy(product_sale.product_id)
    : [];
  return rows.map((p) => ({
    product_id: p.product_id,
    name: p.name,
    price: p.price,
    stock: p.stock,
    available: p.available,
    sold: Number(sold.find((s) => s.product_id === p.product_id)?.units ?? 0),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  }));
}

/** GET /products: every product not deleted, by name, with the units sold (Recepción reads it to sell; the owner to keep it). */
export async function listProducts(db: Db): Promise<ProductOutput[]> {
  const rows = await db
    .select()
    .from(product)
    .where(isNull(product.deletedAt))
    .orderBy(asc(sql`lower(${product.name})`), asc(product.product_id));
  return withSold(db, rows);
}

async function getProduct(db: Db, id: number): Promise<ProductOutput> {
  const [row] = await db
    .select()
    .from(product)
    .where(and(eq(product.product_id, id), isNull(product.deletedAt)));
  if (!row) throw new DomainError('product/not-found');
  const [out] = await withSold(db, [row]);
  return out!;
}

/** Names are unique among the products not deleted, ignoring case; the lock makes the check hold against a concurrent save. */
async function assertNameFree(tx: Db, name: string, exceptId?: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PRODUCT_NAME_LOCK}, hashtext(lower(${name})))`);
  const [taken] = await tx
    .select({ id: product.product_id })
    .from(product)
    .where(and(sql`lower(${product.name}) = lower(${name})`, isNull(product.deletedAt), exceptId ? ne(product.product_id, exceptId) : undefined))
    .limit(1);
  if (taken) throw new DomainError('product/name-taken');
}

/** POST /products: a new product (name unique ignoring case); audited. */
export async function createProduct(db: Db, actorId: number, input: ProductCreateInput): Promise<ProductOutput> {
  return db.transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    const [row] = await tx.insert(product).values(input).returning();
    if (!row) throw new Error('insert product returned no row');
    await recordAudit(tx, { actorId, action: 'create', entity: 'product', entityId: row.product_id, changes: input });
    return getProduct(tx, row.product_id);
  });
}

/**
 * PUT /products: the fields sent change. The row is locked, so a counter sale
 * taking units waits and the stock written is not lost under a sale's.
 */
export async function updateProduct(db: Db, actorId: number, input: ProductUpdateInput): Promise<ProductOutput> {
  const { product_id: id, ...fields } = input;
  const changes = definedOnly(fields);
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ id: product.product_id })
      .from(product)
      .where(and(eq(product.product_id, id), isNull(product.deletedAt)))
      .for('update');
    if (!before) throw new DomainError('product/not-found');
    if (changes.name !== undefined) await assertNameFree(tx, changes.name, id);
    await tx
      .update(product)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(product.product_id, id));
    await recordAudit(tx, { actorId, action: 'update', entity: 'product', entityId: id, changes });
    return getProduct(tx, id);
  });
}

/**
 * DELETE /products/{id}. A product already sold stays for the history of its
 * sales (the drawer's and the reports' lines point at it): hidden from the
 * counter and marked deleted (soft). One never sold is removed.
 */
export async function removeProduct(db: Db, actorId: number, id: number): Promise<{ deleted: true; id: number; soft: boolean }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: product.product_id })
      .from(product)
      .where(and(eq(product.product_id, id), isNull(product.deletedAt)))
      .for('update');
    if (!row) throw new DomainError('product/not-found');
    const [sale] = await tx.select({ id: product_sale.product_sale_id }).from(product_sale).where(eq(product_sale.product_id, id)).limit(1);
    const soft = sale !== undefined;
    if (soft) {
      const now = new Date();
      await tx.update(product).set({ deletedAt: now, available: false, updatedAt: now }).where(eq(product.product_id, id));
    } else {
      await tx.delete(product).where(eq(product.product_id, id));
    }
    await recordAudit(tx, { actorId, action: 'delete', entity: 'product', entityId: id, changes: { soft } });
    return { deleted: true as const, id, soft };
  });
}
