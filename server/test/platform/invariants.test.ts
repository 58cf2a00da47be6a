import { readFileSync } from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicatedTableNames, replicatedTables } from '@estudio/core';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import type { Db } from '../../src/db.ts';

/**
 * bench/invariants.sql on the seeded database (PGlite by default, PostgreSQL
 * with TEST_DATABASE_URL): no rows when the data is consistent, and the row of
 * each invariant when it is broken on purpose. Every break runs in a
 * transaction that is rolled back, so each case starts from the same data and
 * expects its own row alone. Constraints that already stop a break (the seat
 * index, the credit check) are dropped inside that transaction: the script is
 * for databases where something went wrong anyway.
 */

const script = readFileSync(new URL('../../../bench/invariants.sql', import.meta.url), 'utf8');

interface Violation {
  invariante: string;
  descripcion: string;
  cantidad: number;
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

async function violations(db: Db): Promise<Violation[]> {
  const found = await rows<{ invariante: string; descripcion: string; cantidad: number | string | bigint }>(db, sql.raw(script));
  return found.map((r) => ({ invariante: r.invariante, descripcion: r.descripcion, cantidad: Number(r.cantidad) }));
}

const brief = (found: Violation[]) => found.map(({ invariante, cantidad }) => ({ invariante, cantidad }));

/**
 * Paid purchases of a new package without classes (so no credits are due)
 * with `limits` (people_limit, limit_per_customer), one per row of the
 * `customers` query, `status` completed unless said (cancelled: paid, then
 * cancelled, which keeps its place in the caps); with `discountLimits` (max_uses_per_customer, max_uses)
 * they use a new code, whose uses are recorded unless `recordUses` is false.
 */
async function paidPurchases(tx: Db, o: { limits: SQL; customers: SQL; discountLimits?: SQL; recordUses?: boolean; status?: 'completed' | 'cancelled' }) {
  await tx.execute(sql`
    insert into class_package (title, price, class_amount, people_limit, limit_per_customer)
    values ('Paquete del invariante', '100.00', 0, ${o.limits})`);
  if (o.discountLimits) {
    await tx.execute(sql`
      insert into discount (code, amount, is_percent, max_uses_per_customer, max_uses)
      values ('INVARIANTE', '50', true, ${o.discountLimits})`);
  }
  const discountId = o.discountLimits ? sql`(select discount_id from discount where code = 'INVARIANTE')` : sql`null`;
  await tx.execute(sql`
    insert into purchase (customer_id, class_package_id, discount_id, title, amount, total_payment, class_amount, status, provider, paid_at)
    select c.customer_id, (select max(class_package_id) from class_package), ${discountId}, 'Paquete del invariante', '100.00', '50.00', 0, ${o.status ?? 'completed'}, 'sandbox', now()
      from (${o.customers}) c`);
  if (!o.discountLimits || o.recordUses === false) return;
  await tx.execute(sql`
    insert into discount_use (discount_id, customer_id, purchase_id)
    select p.discount_id, p.customer_id, p.purchase_id from purchase p
     where p.class_package_id = (select max(class_package_id) from class_package)`);
  await tx.execute(sql`update discount set uses = least(max_uses, 3) where code = 'INVARIANTE' and max_uses is not null`);
}

class Rollback extends Error {}

/** Breaks the data inside a transaction, runs the script there, and rolls everything back. */
async function whenBroken(db: Db, breakIt: (tx: Db) => Promise<unknown>): Promise<Violation[]> {
  let found: Violation[] = [];
  try {
    await db.transaction(async (tx) => {
      await breakIt(tx);
      found = await violations(tx);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return found;
}

let testDb: TestDb;
let db: Db;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
}, 120_000);
afterAll(async () => {
  await testDb?.close();
});

describe('bench/invariants.sql', () => {
  it('answers nothing on the seeded database', async () => {
    expect(await violations(db)).toEqual([]);
  });

  it.each([
    {
      invariant: 'cupo',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          update single_class set capacity = 1
           where single_class_id = (select single_class_id from class_reservation where deleted_at is null
                                     group by single_class_id having count(*) >= 2 order by single_class_id limit 1)`),
    },
    {
      invariant: 'lugar',
      cantidad: 1,
      break: async (tx: Db) => {
        await tx.execute(sql`drop index class_reservation_spot_key`);
        // A second live reservation takes the seat of another in the same class.
        await tx.execute(sql`
          with pair as (
            select a.class_reservation_id as moved, b.spot
              from class_reservation a
              join class_reservation b on b.single_class_id = a.single_class_id and b.class_reservation_id <> a.class_reservation_id
             where a.deleted_at is null and b.deleted_at is null and b.spot is not null
             order by a.class_reservation_id limit 1)
          update class_reservation r set spot = pair.spot from pair where r.class_reservation_id = pair.moved`);
      },
    },
    {
      invariant: 'credito-negativo',
      cantidad: 1,
      break: async (tx: Db) => {
        await tx.execute(sql`alter table available_classes drop constraint available_classes_amount_check`);
        await tx.execute(sql`
          update available_classes set available_classes = -5
           where available_class_id = (select min(available_class_id) from available_classes)`);
      },
    },
    {
      invariant: 'credito-limitado-ilimitado',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          update available_classes set available_classes = -1
           where available_class_id = (select min(ac.available_class_id) from available_classes ac join purchase p using (purchase_id)
                                        where p.class_amount > 0 and ac.available_classes = 0)`),
    },
    {
      // A cancellation that gave the credit back twice: one class more than was bought.
      invariant: 'credito-libro',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          update available_classes set available_classes = available_classes + 1
           where available_class_id = (select min(ac.available_class_id) from available_classes ac join purchase p using (purchase_id)
                                        where p.class_amount > 0 and ac.available_classes >= 0)`),
    },
    {
      // A booking that did not spend its credit: a live reservation on a limited purchase credit that was
      // never decremented. Made here rather than found in the seed (an in-time cancellation on a limited
      // credit, undone): on some days every seeded cancellation is on an unlimited membership.
      invariant: 'credito-libro',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          with credito as (
            select ac.available_class_id, ac.customer_id
              from available_classes ac join purchase p using (purchase_id)
             where p.class_amount > 0 and ac.available_classes >= 0
             order by ac.available_class_id limit 1
          ), clase as (
            select s.single_class_id
              from single_class s, credito
             where (select count(*) + count(o.guest) from class_reservation o
                     where o.single_class_id = s.single_class_id and o.deleted_at is null) < s.capacity
               and not exists (select 1 from class_reservation o where o.single_class_id = s.single_class_id
                                and o.customer_id = credito.customer_id and o.deleted_at is null)
             order by s.single_class_id limit 1
          )
          insert into class_reservation (single_class_id, customer_id, available_class_id)
          select clase.single_class_id, credito.customer_id, credito.available_class_id from credito, clase`),
    },
    {
      invariant: 'credito-ajeno',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          update class_reservation set customer_id = (select customer_id from customer where email = 'nuevo@estudio.demo')
           where class_reservation_id = (select min(class_reservation_id) from class_reservation where available_class_id is not null)`),
    },
    {
      invariant: 'compra-sin-creditos',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          delete from available_classes
           where purchase_id = (select min(p.purchase_id) from purchase p
                                 where p.status in ('active', 'completed') and p.class_amount > 0
                                   and exists (select 1 from available_classes ac where ac.purchase_id = p.purchase_id))`),
    },
    {
      // The counter past the limit (its check constraint is what normally stops this).
      invariant: 'descuento-usos',
      cantidad: 1,
      break: async (tx: Db) => {
        await tx.execute(sql`alter table discount drop constraint discount_uses_check`);
        await tx.execute(sql`update discount set uses = max_uses + 1 where discount_id = (select min(discount_id) from discount where max_uses is not null)`);
      },
    },
    {
      // More recorded uses than the limit while the counter stayed within it.
      invariant: 'descuento-usos',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          insert into discount_use (discount_id, customer_id)
          select d.discount_id, c.customer_id
            from (select discount_id, max_uses from discount where max_uses is not null and max_uses_per_customer is null order by discount_id limit 1) d
            cross join lateral (select customer_id from customer order by customer_id limit d.max_uses + 1) c`),
    },
    {
      invariant: 'descuento-usos-cliente',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          insert into discount_use (discount_id, customer_id)
          select d.discount_id, c.customer_id
            from (select min(discount_id) as discount_id from discount where max_uses_per_customer = 1 and max_uses is null) d,
                 (select customer_id from customer where email = 'cliente@estudio.demo') c,
                 generate_series(1, 2)`),
    },
    {
      // Four paid purchases of a package for three people (the attacker's break 1): a package without classes, so no credits are due.
      invariant: 'paquete-cupo',
      cantidad: 1,
      break: (tx: Db) => paidPurchases(tx, { limits: sql`3, null`, customers: sql`select customer_id from customer where role = 'customer' order by customer_id limit 4` }),
    },
    {
      invariant: 'paquete-por-cliente',
      cantidad: 1,
      break: (tx: Db) =>
        paidPurchases(tx, { limits: sql`null, 1`, customers: sql`select customer_id from customer, generate_series(1, 2) where email = 'cliente@estudio.demo'` }),
    },
    {
      // Three paid purchases with a code for two, each with its use recorded: the recorded uses are over too.
      invariant: 'descuento-compras',
      alongside: ['descuento-usos'],
      cantidad: 1,
      break: (tx: Db) =>
        paidPurchases(tx, {
          limits: sql`null, null`,
          customers: sql`select customer_id from customer where role = 'customer' order by customer_id limit 3`,
          discountLimits: sql`null, 2`,
        }),
    },
    {
      invariant: 'descuento-compras-cliente',
      alongside: ['descuento-usos-cliente'],
      cantidad: 1,
      break: (tx: Db) =>
        paidPurchases(tx, {
          limits: sql`null, null`,
          customers: sql`select customer_id from customer, generate_series(1, 2) where email = 'cliente@estudio.demo'`,
          discountLimits: sql`1, null`,
        }),
    },
    {
      // A failed attempt paid later without taking its use again (the attacker's 6 paid purchases with the counter at 1).
      invariant: 'descuento-compra-sin-uso',
      cantidad: 1,
      break: (tx: Db) =>
        paidPurchases(tx, {
          limits: sql`null, null`,
          customers: sql`select customer_id from customer where email = 'cliente@estudio.demo'`,
          discountLimits: sql`null, null`,
          recordUses: false,
        }),
    },
    {
      // The trial taken twice: the first was paid, then cancelled, and still counts.
      invariant: 'paquete-por-cliente',
      cantidad: 1,
      break: (tx: Db) =>
        paidPurchases(tx, { limits: sql`null, 1`, customers: sql`select customer_id from customer, generate_series(1, 2) where email = 'cliente@estudio.demo'`, status: 'cancelled' }),
    },
    {
      // A code for one use per customer, used on two purchases since cancelled.
      invariant: 'descuento-compras-cliente',
      alongside: ['descuento-usos-cliente'],
      cantidad: 1,
      break: (tx: Db) =>
        paidPurchases(tx, {
          limits: sql`null, null`,
          customers: sql`select customer_id from customer, generate_series(1, 2) where email = 'cliente@estudio.demo'`,
          discountLimits: sql`1, null`,
          status: 'cancelled',
        }),
    },
    {
      // A live purchase without its mark of payment: the sales and the caps would not count it.
      invariant: 'pago-sin-marca',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          update purchase set paid_at = null
           where purchase_id = (select min(p.purchase_id) from purchase p
                                 where p.status in ('active', 'completed')
                                   and not exists (select 1 from available_classes ac where ac.purchase_id = p.purchase_id))`),
    },
    {
      // The receptionist's unlimited credit with no purchase and no trace.
      invariant: 'credito-sin-origen',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          insert into available_classes (customer_id, available_classes)
          select customer_id, -1 from customer where email = 'nuevo@estudio.demo'`),
    },
    {
      // Credits of an order that was never paid.
      invariant: 'credito-sin-origen',
      cantidad: 1,
      break: async (tx: Db) => {
        await tx.execute(sql`
          insert into purchase (customer_id, class_package_id, title, amount, total_payment, class_amount, status, provider)
          select c.customer_id, cp.class_package_id, cp.title, cp.price, cp.price, cp.class_amount, 'pending', 'cash'
            from customer c, class_package cp where c.email = 'nuevo@estudio.demo' and cp.title = '5 Clases'`);
        await tx.execute(sql`
          insert into available_classes (customer_id, purchase_id, available_classes)
          select customer_id, max(purchase_id), 5 from purchase where customer_id = (select customer_id from customer where email = 'nuevo@estudio.demo') group by customer_id`);
      },
    },
    {
      // The cash order cancelled unpaid, then refunded: money that never came in went out of the drawer.
      invariant: 'reembolso-sin-pago',
      cantidad: 1,
      break: async (tx: Db) => {
        await tx.execute(sql`
          insert into purchase (customer_id, class_package_id, title, amount, total_payment, class_amount, status, provider)
          select c.customer_id, cp.class_package_id, cp.title, cp.price, cp.price, 0, 'cancelled', 'cash'
            from customer c, class_package cp where c.email = 'nuevo@estudio.demo' and cp.title = 'Inscripción'`);
        await tx.execute(sql`
          insert into invoice (purchase_id, customer_id, total_payment, status, paid_at)
          select max(purchase_id), customer_id, '300.00', 'refunded', now() from purchase
           where customer_id = (select customer_id from customer where email = 'nuevo@estudio.demo') group by customer_id`);
      },
    },
    {
      // A refund above what was paid.
      invariant: 'reembolso-sin-pago',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          insert into invoice (purchase_id, customer_id, total_payment, status, paid_at)
          select p.purchase_id, p.customer_id, p.total_payment + 1, 'refunded', now()
            from purchase p where p.paid_at is not null and p.total_payment > 0 order by p.purchase_id limit 1`),
    },
    {
      // A cash order the cash-up counts, with no charge recorded for it: the drawer expects money nobody took.
      invariant: 'caja-sin-cobro',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          insert into purchase (customer_id, class_package_id, title, amount, total_payment, class_amount, status, provider, paid_at)
          select c.customer_id, cp.class_package_id, cp.title, cp.price, cp.price, 0, 'completed', 'cash', now()
            from customer c, class_package cp where c.email = 'nuevo@estudio.demo' and cp.title = 'Inscripción'`),
    },
    {
      invariant: 'ilimitado-sin-credito',
      cantidad: 1,
      break: (tx: Db) =>
        tx.execute(sql`
          update available_classes set deleted_at = now()
           where available_classes = -1 and customer_id = (select customer_id from customer where email = 'ilimitado@estudio.demo')`),
    },
  ] as { invariant: string; alongside?: string[]; cantidad: number; break: (tx: Db) => Promise<unknown> }[])('finds $invariant when it is broken', async ({ invariant, alongside = [], cantidad, break: breakIt }) => {
    const found = await whenBroken(db, breakIt);
    const expected = [{ invariante: invariant, cantidad }, ...alongside.map((other) => ({ invariante: other, cantidad: 1 }))];
    expect(brief(found)).toEqual(expected.sort((a, b) => a.invariante.localeCompare(b.invariante)));
    expect(found[0]?.descripcion).toMatch(/\p{L}{3,}/u);
  });

  // Every replicated table, from the list the sync triggers are built from: a table added to replication and
  // not to the script fails here.
  it.each(replicatedTableNames)('finds a %s row that never reached the change log', async (table) => {
    const key = replicatedTables[table].key;
    const found = await whenBroken(db, async (tx) => {
      // The demo studio has no rooms (decision 140): one is made in the transaction the check rolls back.
      if (table === 'room') await tx.execute(sql`insert into room (location_id, name) select location_id, 'Salón de la prueba' from location limit 1`);
      const [row] = await rows<{ key: unknown }>(
        tx,
        sql`select jsonb_build_object(${sql.join(
          key.map((column) => sql`${column}::text, ${sql.identifier(column)}`),
          sql`, `,
        )}) as key from ${sql.identifier(table)} limit 1`,
      );
      if (!row) throw new Error(`el seed no tiene filas de ${table}`);
      await tx.execute(sql`delete from sync_change where table_name = ${table} and row_key = ${JSON.stringify(row.key)}::jsonb`);
    });
    expect(brief(found)).toEqual([{ invariante: 'sync-sin-cambio', cantidad: 1 }]);
  });
});
