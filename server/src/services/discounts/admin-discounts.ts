import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or } from 'drizzle-orm';
import { discount, discount_class_package, discount_use } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { DomainError, discountRuleViolation, type DiscountAdminOutput, type DiscountCreateInput, type DiscountUpdateInput } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { definedOnly } from '../content/removed.ts';
import { containsPattern, offsetOf } from '../content/search.ts';
import type { DiscountRow } from './validate-discount.ts';

const iso = (d: Date | null) => d?.toISOString() ?? null;

async function withPackages(db: Db, rows: DiscountRow[]): Promise<DiscountAdminOutput[]> {
  const ids = rows.map((r) => r.discount_id);
  const links = ids.length
    ? await db
        .select()
        .from(discount_class_package)
        .where(inArray(discount_class_package.discount_id, ids))
        .orderBy(asc(discount_class_package.class_package_id))
    : [];
  return rows.map((d) => ({
    discount_id: d.discount_id,
    code: d.code,
    description: d.description,
    amount: d.amount,
    is_percent: d.is_percent,
    first_invoice_only: d.first_invoice_only,
    max_uses: d.max_uses,
    max_uses_per_customer: d.max_uses_per_customer,
    uses: d.uses,
    starts_at: iso(d.starts_at),
    expires_at: iso(d.expires_at),
    available: d.available,
    class_package_ids: links.filter((l) => l.discount_id === d.discount_id).map((l) => l.class_package_id),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  }));
}

/** GET /discounts/admin/all: a page of the codes (not deleted), newest first; `query` searches the code and description. */
export async function listAdminDiscounts(db: Db, input: { query?: string | undefined; page: number; limit: number }) {
  const text = input.query?.trim();
  const where = and(
    isNull(discount.deletedAt),
    text ? or(ilike(discount.code, containsPattern(text)), ilike(discount.description, containsPattern(text))) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(discount).where(where).orderBy(desc(discount.createdAt), desc(discount.discount_id)).limit(input.limit).offset(offsetOf(input)),
    db.select({ n: count() }).from(discount).where(where),
  ]);
  return { discounts: await withPackages(db, rows), total: total?.n ?? 0 };
}

/** GET /discounts/{id} (admin): one code with its packages; 404 'Descuento no encontrado.'. */
export async function getAdminDiscount(db: Db, id: number): Promise<DiscountAdminOutput> {
  const [row] = await db
    .select()
    .from(discount)
    .where(and(eq(discount.discount_id, id), isNull(discount.deletedAt)));
  if (!row) throw new DomainError('discount/not-found');
  const [out] = await withPackages(db, [row]);
  return out!;
}

/** Codes are stored upper-case, so the unique index is case-insensitive; a deleted code stays taken for its purchases' history. */
async function assertCodeFree(tx: Db, code: string, exceptId?: number): Promise<void> {
  const [taken] = await tx
    .select({ id: discount.discount_id })
    .from(discount)
    .where(and(eq(discount.code, code.toUpperCase()), exceptId ? ne(discount.discount_id, exceptId) : undefined))
    .limit(1);
  if (taken) throw new DomainError('discount/code-taken');
}

async function replacePackages(tx: Db, discountId: number, packageIds: number[]): Promise<void> {
  const ids = [...new Set(packageIds)];
  if (ids.length) {
    const found = await tx
      .select({ id: class_package.class_package_id })
      .from(class_package)
      .where(and(inArray(class_package.class_package_id, ids), isNull(class_package.deletedAt)));
    if (found.length !== ids.length) throw new DomainError('discount/package-not-found');
  }
  await tx.delete(discount_class_package).where(eq(discount_class_package.discount_id, discountId));
  if (ids.length) await tx.insert(discount_class_package).values(ids.map((class_package_id) => ({ discount_id: discountId, class_package_id })));
}

function rowValues(fields: Partial<DiscountCreateInput>) {
  const { class_package_ids: _ids, starts_at, expires_at, ...rest } = fields;
  return {
    ...definedOnly(rest),
    ...(starts_at !== undefined ? { starts_at: starts_at ? new Date(starts_at) : null } : {}),
    ...(expires_at !== undefined ? { expires_at: expires_at ? new Date(expires_at) : null } : {}),
  };
}

/** A concurrent save of the same code loses on the unique index: the same 409. */
async function codeUnique<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error, 'discount_code_key')) throw new DomainError('discount/code-taken');
    throw error;
  }
}

/** POST /discounts: a new code (unique ignoring case) and the packages it applies to; audited. */
export async function createDiscount(db: Db, actorId: number, input: DiscountCreateInput): Promise<DiscountAdminOutput> {
  return codeUnique(() =>
    db.transaction(async (tx) => {
      await assertCodeFree(tx, input.code);
      const [row] = await tx
        .insert(discount)
        .values({ ...rowValues(input), code: input.code, amount: input.amount })
        .returning();
      if (!row) throw new Error('insert discount returned no row');
      if (input.class_package_ids) await replacePackages(tx, row.discount_id, input.class_package_ids);
      await recordAudit(tx, { actorId, action: 'create', entity: 'discount', entityId: row.discount_id, changes: input });
      return getAdminDiscount(tx, row.discount_id);
    }),
  );
}

/**
 * PUT /discounts: the fields sent change. The row is locked so a checkout
 * taking a use waits, and the rules are checked on the merged discount: a
 * max_uses below the uses already made is refused.
 */
export async function updateDiscount(db: Db, actorId: number, input: DiscountUpdateInput): Promise<DiscountAdminOutput> {
  const { discount_id: id, ...changes } = input;
  return codeUnique(() =>
    db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(discount)
        .where(and(eq(discount.discount_id, id), isNull(discount.deletedAt)))
        .for('update');
      if (!before) throw new DomainError('discount/not-found');
      const values = rowValues(changes);
      const violation = discountRuleViolation({ ...before, ...values });
      if (violation) throw new DomainError(violation.code);
      if (changes.code !== undefined) await assertCodeFree(tx, changes.code, id);
      await tx
        .update(discount)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(discount.discount_id, id));
      if (changes.class_package_ids) await replacePackages(tx, id, changes.class_package_ids);
      await recordAudit(tx, { actorId, action: 'update', entity: 'discount', entityId: id, changes });
      return getAdminDiscount(tx, id);
    }),
  );
}

/**
 * DELETE /discounts/{id}. A code already redeemed stays for the history of
 * its purchases: disabled and marked deleted (soft). One never used is
 * removed. Either way the public code check stops finding it.
 */
export async function removeDiscount(db: Db, actorId: number, id: number): Promise<{ deleted: true; id: number; soft: boolean }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(discount)
      .where(and(eq(discount.discount_id, id), isNull(discount.deletedAt)))
      .for('update');
    if (!row) throw new DomainError('discount/not-found');
    const [[uses], [purchases]] = await Promise.all([
      tx.select({ n: count() }).from(discount_use).where(eq(discount_use.discount_id, id)),
      tx.select({ n: count() }).from(purchase).where(eq(purchase.discount_id, id)),
    ]);
    const soft = row.uses > 0 || (uses?.n ?? 0) > 0 || (purchases?.n ?? 0) > 0;
    if (soft) {
      const now = new Date();
      await tx.update(discount).set({ deletedAt: now, available: false, updatedAt: now }).where(eq(discount.discount_id, id));
    } else {
      await tx.delete(discount).where(eq(discount.discount_id, id));
    }
    await recordAudit(tx, { actorId, action: 'delete', entity: 'discount', entityId: id, changes: { soft } });
    return { deleted: true as const, id, soft };
  });
}
