import { comparePackages, isRegularPackage, type ClassPackageOutput } from '@estudio/core';
import { and, eq } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../../db.ts';
import { loadPackages } from './package-output.ts';

export type PackageListName = 'all' | 'onlineAll' | 'onlineHome' | 'presencialesAll' | 'presencialesHome' | 'especialesAll' | 'especialesHome';

const sortRegular = (list: ClassPackageOutput[]) => [...list].sort(comparePackages);

/**
 * The public package lists. `all`: every available package in the
 * configured order (the packages page splits trial, regular, online and
 * special events with core's rules). The presenciales lists are the spec's
 * regular list (no special events, no one-per-customer packages, unlimited
 * last); online lists are the online packages; especiales the special events
 * by event date. The home variants keep only show_on_home packages.
 */
export async function listPackages(db: Db, name: PackageListName): Promise<ClassPackageOutput[]> {
  const available = eq(class_package.available, true);
  const home = name.endsWith('Home');
  const all = await loadPackages(db, home ? and(available, eq(class_package.show_on_home, true)) : available);
  switch (name) {
    case 'all':
      return all;
    case 'onlineAll':
    case 'onlineHome':
      return sortRegular(all.filter((p) => p.is_online && !p.is_special_event));
    case 'presencialesAll':
    case 'presencialesHome':
      return sortRegular(all.filter((p) => p.is_presencial && !p.is_online && !p.is_signup_fee && isRegularPackage(p)));
    case 'especialesAll':
    case 'especialesHome':
      return all
        .filter((p) => p.is_special_event)
        .sort((a, b) => (a.event_date ?? '').localeCompare(b.event_date ?? '') || a.order - b.order);
  }
}

/** Customers holding a paid or pending purchase of a special event (staff). */
export async function listAttendees(db: Db, classPackageId: number) {
  const rows = await db
    .select({
      customer_id: customer.customer_id,
      name: customer.name,
      last_name: customer.last_name,
      email: customer.email,
      phone: customer.phone,
      purchase_id: purchase.purchase_id,
      status: purchase.status,
    })
    .from(purchase)
    .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
    .where(and(eq(purchase.class_package_id, classPackageId), inArray(purchase.status, ['active', 'completed', 'pending'])))
    .orderBy(asc(customer.name), asc(customer.last_name), asc(purchase.purchase_id));
  return rows;
}
