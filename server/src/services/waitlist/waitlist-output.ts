import type { waitlistOutput, z } from '@estudio/core';
import { waitlist } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { loadSingleClassOutputs, toPublicSingleClass } from '../schedule/single-class-output.ts';

export type WaitlistRow = typeof waitlist.$inferSelect;
export type WaitlistOutput = z.infer<typeof waitlistOutput>;

/** Waitlist entries with their classes, in the order given, in a fixed number of queries. */
export async function toWaitlistOutputs(db: Db, rows: readonly WaitlistRow[]): Promise<WaitlistOutput[]> {
  const classes = await loadSingleClassOutputs(
    db,
    rows.map((r) => r.single_class_id),
  );
  const classBy = new Map(classes.map((c) => [c.single_class_id, toPublicSingleClass(c)]));
  return rows.flatMap((r) => {
    const single_class = classBy.get(r.single_class_id);
    if (!single_class) return [];
    return [{ waitlist_id: r.waitlist_id, single_class_id: r.single_class_id, customer_id: r.customer_id, createdAt: r.createdAt.toISOString(), single_class }];
  });
}

/** One entry with its class. */
export async function toWaitlistOutput(db: Db, row: WaitlistRow): Promise<WaitlistOutput> {
  const [one] = await toWaitlistOutputs(db, [row]);
  if (!one) throw new Error(`waitlist ${row.waitlist_id} lost its class`);
  return one;
}
