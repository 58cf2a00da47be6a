import { and, asc, count, eq, ilike, inArray, isNull, or } from 'drizzle-orm';
import { class_package, class_package_type } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import {
  DomainError,
  packageRuleViolation,
  texts,
  type ClassPackageAdminOutput,
  type ClassPackageCreateInput,
  type ClassPackageUpdateInput,
} from '@estudio/core';
import { pgErrorCode } from '@estudio/db/errors';
import type { Db } from '../../db.ts';
import type { CataloguePackage, PackageCatalogue } from '../../providers/payments/stripe-catalogue.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { definedOnly } from '../content/removed.ts';
import { containsPattern, offsetOf } from '../content/search.ts';
import { loadPackages, type PackageRow } from './package-output.ts';
import { assertFilesUsable } from '../files/file-use.ts';

/** Who writes and, when Stripe is configured, where the product and price live. */
export interface AdminPackageDeps {
  db: Db;
  actorId: number;
  catalogue: PackageCatalogue | null;
}

type TypeInput = NonNullable<ClassPackageCreateInput['class_package_types']>;

/** The shop's view of the packages with ids, plus what only the admin sees, in the order of `ids`. */
async function adminPackages(db: Db, ids: number[]): Promise<ClassPackageAdminOutput[]> {
  if (!ids.length) return [];
  const [shop, rows, bought] = await Promise.all([
    loadPackages(db, inArray(class_package.class_package_id, ids), { includeDeleted: true }),
    db.select().from(class_package).where(inArray(class_package.class_package_id, ids)),
    db
      .select({ id: purchase.class_package_id, n: count() })
      .from(purchase)
      .where(inArray(purchase.class_package_id, ids))
      .groupBy(purchase.class_package_id),
  ]);
  const byId = new Map(rows.map((r) => [r.class_package_id, r]));
  const shopById = new Map(shop.map((p) => [p.class_package_id, p]));
  const purchases = new Map(bought.map((b) => [b.id, b.n]));
  return ids.flatMap((id) => {
    const p = shopById.get(id);
    const r = byId.get(id);
    if (!p || !r) return [];
    return [
      {
        ...p,
        available: r.available,
        deletedAt: r.deletedAt?.toISOString() ?? null,
        receipt_file_id: r.receipt_file_id,
        downloadable_file_id: r.downloadable_file_id,
        stripe_product_id: r.stripe_product_id,
        stripe_price_id: r.stripe_price_id,
        purchases: purchases.get(id) ?? 0,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      },
    ];
  });
}

/**
 * GET /class_packages/admin/all: every package, hidden ones included, in the
 * configured order, a page at a time; soft-deleted ones only when asked.
 * `query` searches the title and the short description.
 */
export async function listAdminPackages(db: Db, input: { query?: string | undefined; page: number; limit: number; include_deleted: boolean }) {
  const text = input.query?.trim();
  const where = and(
    input.include_deleted ? undefined : isNull(class_package.deletedAt),
    text ? or(ilike(class_package.title, containsPattern(text)), ilike(class_package.short_description, containsPattern(text))) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: class_package.class_package_id })
      .from(class_package)
      .where(where)
      .orderBy(asc(class_package.order), asc(class_package.class_package_id))
      .limit(input.limit)
      .offset(offsetOf(input)),
    db.select({ n: count() }).from(class_package).where(where),
  ]);
  return { class_packages: await adminPackages(db, rows.map((r) => r.id)), total: total?.n ?? 0 };
}

/** One package for the admin form, hidden or soft-deleted included. */
export async function getAdminPackage(db: Db, id: number): Promise<ClassPackageAdminOutput> {
  const [pkg] = await adminPackages(db, [id]);
  if (!pkg) throw new DomainError('package/unknown');
  return pkg;
}

/** The live package row, locked for the rest of the transaction. */
async function lockLivePackage(tx: Db, id: number): Promise<PackageRow> {
  const [row] = await tx
    .select()
    .from(class_package)
    .where(and(eq(class_package.class_package_id, id), isNull(class_package.deletedAt)))
    .for('update');
  if (!row) throw new DomainError('package/unknown');
  return row;
}

/** A class type or file that does not exist is the package's 404, not a 500. */
async function referencesExist<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (pgErrorCode(error) === '23503') throw new DomainError('package/reference-not-found');
    throw error;
  }
}

async function replaceTypes(tx: Db, classPackageId: number, types: TypeInput): Promise<void> {
  await tx.delete(class_package_type).where(eq(class_package_type.class_package_id, classPackageId));
  if (!types.length) return;
  await tx.insert(class_package_type).values(
    types.map((t) => ({
      class_package_id: classPackageId,
      class_type_id: t.class_type_id,
      class_amount: t.class_amount,
      expiration_days: t.expiration_days ?? null,
      allowed_times: t.allowed_times ? t.allowed_times.replace(/\s+/g, '') : null,
    })),
  );
}

function catalogueFields(row: PackageRow): CataloguePackage {
  return {
    class_package_id: row.class_package_id,
    title: row.title,
    short_description: row.short_description,
    price: row.price,
    sale_price: row.sale_price,
    is_subscription: row.is_subscription,
    subscription_period: row.subscription_period,
    subscription_interval: row.subscription_interval,
    stripe_product_id: row.stripe_product_id,
    stripe_price_id: row.stripe_price_id,
    updatedAt: row.updatedAt,
  };
}

/** Stripe is called last inside the transaction: if it fails, the package change rolls back with it. */
async function syncStripe(tx: Db, catalogue: PackageCatalogue | null, row: PackageRow, before: PackageRow | null): Promise<void> {
  if (!catalogue) return;
  const ids = await catalogue.sync(catalogueFields(row), before ? catalogueFields(before) : null);
  if (ids.stripe_product_id !== row.stripe_product_id || ids.stripe_price_id !== row.stripe_price_id) {
    await tx.update(class_package).set(ids).where(eq(class_package.class_package_id, row.class_package_id));
  }
}

function rowValues(fields: Partial<ClassPackageCreateInput>) {
  const { class_package_types: _types, event_date, ...rest } = fields;
  return {
    ...definedOnly(rest),
    ...(event_date !== undefined ? { event_date: event_date ? new Date(event_date) : null } : {}),
  };
}

/** POST /class_packages: the package, its credits per class type and, with Stripe, its product and price; audited. */
export async function createPackage(deps: AdminPackageDeps, input: ClassPackageCreateInput): Promise<ClassPackageAdminOutput> {
  return deps.db.transaction(async (tx) => {
    await assertFilesUsable(tx, [input.receipt_file_id, input.downloadable_file_id], { for: 'studio' });
    const row = await referencesExist(async () => {
      const [inserted] = await tx
        .insert(class_package)
        .values({ ...rowValues(input), title: input.title, price: input.price, class_amount: input.class_amount, updatedAt: new Date() })
        .returning();
      if (!inserted) throw new Error('insert class_package returned no row');
      if (input.class_package_types) await replaceTypes(tx, inserted.class_package_id, input.class_package_types);
      return inserted;
    });
    await syncStripe(tx, deps.catalogue, row, null);
    await recordAudit(tx, { actorId: deps.actorId, action: 'create', entity: 'class_package', entityId: row.class_package_id, changes: input });
    return getAdminPackage(tx, row.class_package_id);
  });
}

/**
 * PUT /class_packages: the fields sent change; the package rules are checked
 * on the package as it would be saved. Sent class_package_types replace the
 * old ones. With Stripe, a new amount or billing period makes a new price.
 */
export async function updatePackage(deps: AdminPackageDeps, input: ClassPackageUpdateInput): Promise<ClassPackageAdminOutput> {
  const { class_package_id: id, ...changes } = input;
  return deps.db.transaction(async (tx) => {
    const before = await lockLivePackage(tx, id);
    const types =
      changes.class_package_types ?? (await tx.select({ class_type_id: class_package_type.class_type_id }).from(class_package_type).where(eq(class_package_type.class_package_id, id)));
    const merged = { ...before, ...definedOnly(changes), class_package_types: types };
    const violation = packageRuleViolation(merged);
    if (violation) throw new DomainError(violation.code);
    await assertFilesUsable(tx, [changes.receipt_file_id, changes.downloadable_file_id], { for: 'studio' });

    const row = await referencesExist(async () => {
      const [updated] = await tx
        .update(class_package)
        .set({ ...rowValues(changes), updatedAt: new Date() })
        .where(eq(class_package.class_package_id, id))
        .returning();
      if (!updated) throw new DomainError('package/unknown');
      if (changes.class_package_types) await replaceTypes(tx, id, changes.class_package_types);
      return updated;
    });
    await syncStripe(tx, deps.catalogue, row, before);
    await recordAudit(tx, { actorId: deps.actorId, action: 'update', entity: 'class_package', entityId: id, changes });
    return getAdminPackage(tx, id);
  });
}

/**
 * DELETE /class_packages/{id}. A package with purchases stays for their
 * history: it is hidden, taken off the home and marked deleted (soft). One
 * never bought is removed with its credits per class type. With Stripe, the
 * product and price are archived either way.
 */
export async function removePackage(deps: AdminPackageDeps, id: number): Promise<{ deleted: true; id: number; soft: boolean }> {
  return deps.db.transaction(async (tx) => {
    const row = await lockLivePackage(tx, id);
    const [bought] = await tx.select({ n: count() }).from(purchase).where(eq(purchase.class_package_id, id));
    const soft = (bought?.n ?? 0) > 0;
    if (soft) {
      const now = new Date();
      await tx.update(class_package).set({ deletedAt: now, available: false, show_on_home: false, updatedAt: now }).where(eq(class_package.class_package_id, id));
    } else {
      await tx.delete(class_package).where(eq(class_package.class_package_id, id));
    }
    if (deps.catalogue) await deps.catalogue.archive(row);
    await recordAudit(tx, { actorId: deps.actorId, action: 'delete', entity: 'class_package', entityId: id, changes: { soft } });
    return { deleted: true as const, id, soft };
  });
}

/** PUT and DELETE /class_packages/{id}/home: shows the package on the landing page or takes it off; audited. */
export async function setPackageOnHome(deps: AdminPackageDeps, id: number, onHome: boolean): Promise<{ message: string; class_package: ClassPackageAdminOutput }> {
  return deps.db.transaction(async (tx) => {
    await lockLivePackage(tx, id);
    await tx.update(class_package).set({ show_on_home: onHome, updatedAt: new Date() }).where(eq(class_package.class_package_id, id));
    await recordAudit(tx, { actorId: deps.actorId, action: onHome ? 'home.add' : 'home.remove', entity: 'class_package', entityId: id });
    return {
      message: onHome ? texts.adminCommerce.packageAddedToHome : texts.adminCommerce.packageRemovedFromHome,
      class_package: await getAdminPackage(tx, id),
    };
  });
}

