import type { Tx } from '../create-db.ts';
import * as s from '../schema/index.ts';
import type { PackageKey } from './packages.ts';
import { at, idAt, type SeedDays } from './seed-days.ts';

/** The discount codes: a welcome, a seasonal one for some packages, a first month, and one used up. */
export async function seedDiscounts(tx: Tx, { date }: SeedDays, packageId: Record<PackageKey, number>) {
  const discounts = await tx
    .insert(s.discount)
    .values([
      {
        code: 'BIENVENIDA10',
        description: '10% de descuento en tu primera compra',
        amount: '10.00',
        is_percent: true,
        max_uses_per_customer: 1,
      },
      {
        code: 'VERANO200',
        description: '$200 de descuento en 10 Clases o Ilimitado',
        amount: '200.00',
        is_percent: false,
        expires_at: at(date(60), '23:59').toDate(),
      },
      {
        code: 'PRIMERMES50',
        description: '50% en tu primer mes de membresía',
        amount: '50.00',
        is_percent: true,
        first_invoice_only: true,
        max_uses_per_customer: 1,
      },
      {
        code: 'BUENFIN',
        description: 'Promoción del Buen Fin (agotada)',
        amount: '150.00',
        is_percent: false,
        max_uses: 25,
        uses: 25,
      },
    ])
    .returning({ id: s.discount.discount_id });
  await tx.insert(s.discount_class_package).values([
    { discount_id: idAt(discounts, 1), class_package_id: packageId.ten },
    { discount_id: idAt(discounts, 1), class_package_id: packageId.unlimited },
    { discount_id: idAt(discounts, 2), class_package_id: packageId.unlimited },
    { discount_id: idAt(discounts, 2), class_package_id: packageId.online },
  ]);

  return { discounts };
}
