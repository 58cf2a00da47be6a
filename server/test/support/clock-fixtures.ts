import { and, eq, gt, isNull } from 'drizzle-orm';
import { discount } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { outbox_message, scheduled_job } from '@estudio/db/schema/outbox';
import type { Db } from '../../src/db.ts';
import { recordDiscountUse } from '../../src/services/checkout/purchase-caps.ts';

/** Test fixtures of the clock's jobs: rows relative to the real clock, each test its own. */

export const silentLog = { info() {}, warn() {}, error() {} };
export const minute = 60_000;
export const hour = 60 * minute;

/** A reservation made `bookedMinutesAgo` ago (createdAt set explicitly, as if booked then). */
export async function reservationOf(
  db: Db,
  customerId: number,
  singleClassId: number,
  options: { bookedMinutesAgo?: number; credit?: number | null; attend?: boolean; cancelled?: boolean } = {},
) {
  const created = new Date(Date.now() - (options.bookedMinutesAgo ?? 0) * minute);
  const [row] = await db
    .insert(class_reservation)
    .values({
      single_class_id: singleClassId,
      customer_id: customerId,
      available_class_id: options.credit ?? null,
      attend: options.attend ?? false,
      attendedAt: options.attend ? created : null,
      createdAt: created,
      updatedAt: created,
      deletedAt: options.cancelled ? created : null,
    })
    .returning();
  if (!row) throw new Error('reservation insert failed');
  return row;
}

/** An unlimited credit (the membership) for a customer, valid for a month. */
export async function unlimitedCredit(db: Db, customerId: number): Promise<number> {
  const [row] = await db
    .insert(available_classes)
    .values({ customer_id: customerId, available_classes: -1, expiration_date: new Date(Date.now() + 30 * 24 * hour) })
    .returning({ id: available_classes.available_class_id });
  if (!row) throw new Error('credit insert failed');
  return row.id;
}

/** The outbox rows of one dedupe key prefix ('booking:12'), both channels. */
export async function outboxOf(db: Db, key: string) {
  const rows = await db.select().from(outbox_message);
  return rows.filter((r) => r.dedupe_key === `${key}:email` || r.dedupe_key === `${key}:whatsapp`);
}

export async function jobRow(db: Db, name: string) {
  const [row] = await db.select().from(scheduled_job).where(eq(scheduled_job.name, name));
  return row;
}

/** A sellable package of the seed with classes (not a subscription, fee or trial). */
export async function plainPackage(db: Db) {
  const [row] = await db
    .select()
    .from(class_package)
    .where(
      and(
        eq(class_package.is_subscription, false),
        eq(class_package.is_signup_fee, false),
        eq(class_package.is_trial, false),
        gt(class_package.class_amount, 0),
        isNull(class_package.people_limit),
        isNull(class_package.limit_per_customer),
      ),
    )
    .limit(1);
  if (!row) throw new Error('the seed has a plain package');
  return row;
}

/** A discount code of its own. */
export async function newDiscount(db: Db, code: string) {
  const [row] = await db.insert(discount).values({ code, amount: '10', is_percent: true, max_uses: 100 }).returning();
  if (!row) throw new Error('discount insert failed');
  return row;
}

/** A pending purchase made `minutesAgo` ago, optionally holding a use of `discountId` (recorded as checkout records it). */
export async function pendingPurchase(
  db: Db,
  input: { customerId: number; packageId: number; title: string; provider: 'cash' | 'stripe'; minutesAgo: number; discountId?: number },
) {
  const created = new Date(Date.now() - input.minutesAgo * minute);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(purchase)
      .values({
        customer_id: input.customerId,
        class_package_id: input.packageId,
        title: input.title,
        amount: '500.00',
        total_payment: '450.00',
        class_amount: 5,
        status: 'pending',
        provider: input.provider,
        discount_id: input.discountId ?? null,
        createdAt: created,
        updatedAt: created,
      })
      .returning();
    if (!row) throw new Error('purchase insert failed');
    if (input.discountId) await recordDiscountUse(tx, input.discountId, input.customerId, row.purchase_id);
    return row;
  });
}
