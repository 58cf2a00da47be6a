import { DomainError, isTrialPackage, type ClassPackageOutput } from '@estudio/core';
import { and, asc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { class_type } from '@estudio/db/schema/catalogue';
import { file } from '@estudio/db/schema/content';
import { class_package, class_package_type } from '@estudio/db/schema/packages';
import type { Db } from '../../db.ts';

export type PackageRow = typeof class_package.$inferSelect;

const receipt = alias(file, 'receipt_file');
const downloadable = alias(file, 'downloadable_file');

/**
 * Live (not deleted) packages matching `where`, with their per-class-type
 * credits and files, in the configured order. The admin list also asks for
 * soft-deleted ones (`includeDeleted`).
 */
export async function loadPackages(db: Db, where?: SQL, options: { includeDeleted?: boolean } = {}): Promise<ClassPackageOutput[]> {
  const rows = await db
    .select({ p: class_package, receipt: receipt.src, dl: { name: downloadable.name, type: downloadable.type, src: downloadable.src } })
    .from(class_package)
    .leftJoin(receipt, eq(receipt.file_id, class_package.receipt_file_id))
    .leftJoin(downloadable, eq(downloadable.file_id, class_package.downloadable_file_id))
    .where(and(options.includeDeleted ? undefined : isNull(class_package.deletedAt), where))
    .orderBy(asc(class_package.order), asc(class_package.class_package_id));
  const ids = rows.map((r) => r.p.class_package_id);
  const types = ids.length
    ? await db
        .select({ t: class_package_type, name: class_type.name })
        .from(class_package_type)
        .innerJoin(class_type, eq(class_type.class_type_id, class_package_type.class_type_id))
        .where(inArray(class_package_type.class_package_id, ids))
        .orderBy(asc(class_package_type.class_package_type_id))
    : [];
  return rows.map(({ p, receipt: receiptSrc, dl }) => ({
    class_package_id: p.class_package_id,
    package_id: p.class_package_id,
    title: p.title,
    description: p.description,
    short_description: p.short_description,
    price: p.price,
    sale_price: p.sale_price,
    class_amount: p.class_amount,
    expiration_days: p.expiration_days,
    is_subscription: p.is_subscription,
    subscription_period: p.subscription_period,
    subscription_interval: p.subscription_interval,
    free_trial_length: p.free_trial_length,
    free_trial_period: p.free_trial_period,
    is_trial: isTrialPackage(p),
    is_special_event: p.is_special_event,
    event_date: p.event_date?.toISOString() ?? null,
    is_presencial: p.is_presencial,
    is_online: p.is_online,
    is_signup_fee: p.is_signup_fee,
    limit_per_customer: p.limit_per_customer,
    people_limit: p.people_limit,
    image: p.image,
    show_on_home: p.show_on_home,
    order: p.order,
    receipt_file: receiptSrc ? { src: receiptSrc } : null,
    downloadable: dl?.name && dl.type ? { name: dl.name, type: dl.type } : null,
    file_url: dl?.src ?? null,
    class_package_types: types
      .filter((t) => t.t.class_package_id === p.class_package_id)
      .map((t) => ({
        class_type_id: t.t.class_type_id,
        class_amount: t.t.class_amount,
        expiration_days: t.t.expiration_days,
        allowed_times: t.t.allowed_times,
        class_type: { class_type_id: t.t.class_type_id, name: t.name },
      })),
  }));
}

/** A package the shop sells (available, not deleted). Throws package/not-found. */
export async function getSellablePackage(db: Db, id: number): Promise<ClassPackageOutput> {
  const [pkg] = await loadPackages(db, and(eq(class_package.class_package_id, id), eq(class_package.available, true)));
  if (!pkg) throw new DomainError('package/not-found');
  return pkg;
}
