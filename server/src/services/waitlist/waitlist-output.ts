import type { waitlistOutput, z } from '@estudio/core';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { waitlist } from '@estudio/db/schema/reservations';
import type { Db } from '../../db.ts';
import { loadSingleClassOutputs, toPublicSingleClass } from '../schedule/single-class-output.ts';

export type WaitlistRow = typeof waitlist.$inferSelect;
export type WaitlistOutput = z.infer<typeof waitlistOutput>;

/**
 * Each entry's place in its class's line: the live customers waiting for the
 * same class, in the order they joined (the order automatic promotion books
 * them in, decision 088), and how many wait.
 */
async function placesInLine(db: Db, rows: readonly WaitlistRow[]): Promise<Map<number, { position: number; waiting: number }>> {
  if (rows.length === 0) return new Map();
  const line = await db
    .select({
      waitlist_id: waitlist.waitlist_id,
      position: sql<number>`(row_number() over (partition by ${waitlist.single_class_id} order by ${waitlist.createdAt}, ${waitlist.waitlist_id}))::int`,
      waiting: sql<number>`(count(*) over (partition by ${waitlist.single_class_id}))::int`,
    })
    .from(waitlist)
    .innerJoin(customer, and(eq(customer.customer_id, waitlist.customer_id), isNull(customer.deletedAt)))
    .where(
      inArray(
        waitlist.single_class_id,
        [...new Set(rows.map((r) => r.single_class_id))],
      ),
    );
  return new Map(line.map((l) => [l.waitlist_id, { position: Number(l.position), waiting: Number(l.waiting) }]));
}

/** Waitlist entries with their classes and places in line, in the order given, in a fixed number of queries. */
export async function toWaitlistOutputs(db: Db, rows: readonly WaitlistRow[]): Promise<WaitlistOutput[]> {
  const [classes, line] = await Promise.all([
    loadSingleClassOutputs(
      db,
      rows.map((r) => r.single_class_id),
    ),
    placesInLine(db, rows),
  ]);
  const classBy = new Map(classes.map((c) => [c.single_class_id, toPublicSingleClass(c)]));
  return rows.flatMap((r) => {
    const single_class = classBy.get(r.single_class_id);
    if (!single_class) return [];
    const place = line.get(r.waitlist_id) ?? { position: 1, waiting: 1 };
    return [
      {
        waitlist_id: r.waitlist_id,
        single_class_id: r.single_class_id,
        customer_id: r.customer_id,
        createdAt: r.createdAt.toISOString(),
        ...place,
        auto_book: r.auto_book,
        single_class,
      },
    ];
  });
}

/** One entry with its class. */
export async function toWaitlistOutput(db: Db, row: WaitlistRow): Promise<WaitlistOutput> {
  const [one] = await toWaitlistOutputs(db, [row]);
  if (!one) throw new Error(`waitlist ${row.waitlist_id} lost its class`);
  return one;
}
