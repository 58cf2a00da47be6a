import { app_config, available_classes, class_package, class_reservation, customer, payment_method, product, purchase, single_class } from '@estudio/db';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { applyDeskMutation } from '@estudio/server/services/desk/apply-desk-mutation';
import { and, asc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectServerLink } from '../src/client/direct-link.ts';
import { openReplica, query, type ClientReplica } from '../src/client/replica.ts';
import { createSyncClient } from '../src/client/sync-client.ts';
import type { SyncClient } from '../src/client/types.ts';
import { flakyLink, optimisticThenServer, staffOf, type FlakyLink } from './fixtures.ts';

/**
 * What staff see at once is what the server then does: each desk mutation is
 * made offline, the rows it touched are read from the replica, and after the
 * sync the server's rows (pulled into the same replica) must say the same,
 * apart from ids of new rows and the instants of the writes themselves.
 */
let server: TestDb;
let replica: ClientReplica;
let client: SyncClient;
let link: FlakyLink;
let cliente: { customer_id: number };

beforeAll(async () => {
  server = await createTestDb();
  // The owner lets Recepción gift packages up to $2,000 (decision 037), so the gift below is applied, not refused.
  await server.db
    .insert(app_config)
    .values({ key: 'reception_gift_max_price', value: '2000' })
    .onConflictDoUpdate({ target: app_config.key, set: { value: '2000' } });
  const staff = await staffOf(server.db);
  replica = await openReplica({ dataDir: 'memory://' });
  link = flakyLink(createDirectServerLink({ db: server.db, staff, apply: applyDeskMutation }));
  client = createSyncClient({ replica, link, clientId: crypto.randomUUID(), backoff: { initialMs: 20, maxMs: 200 } });
  await client.start();
  const [row] = await replica.db.select({ customer_id: customer.customer_id }).from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  if (!row) throw new Error('no cliente');
  cliente = row;
});
afterAll(async () => {
  await client?.stop();
  await replica?.close();
  await server?.close();
});


/**
 * Equal, except that instants computed from "now" (an expiry, a membership
 * end) may differ by the time the push took: a minute is plenty.
 */
function expectSame(local: unknown, confirmed: unknown): void {
  const same = (a: unknown, b: unknown): boolean => {
    if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && Math.abs(a.getTime() - b.getTime()) < 60_000;
    if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
    if (a && b && typeof a === 'object' && typeof b === 'object') {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      return [...keys].every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
    }
    return Object.is(a, b);
  };
  // On a mismatch, toEqual prints the diff.
  if (!same(local, confirmed)) expect(local).toEqual(confirmed);
}

/** The row without the instants of the write itself (and any other keys named). */
function withoutWriteTimes(row: object, ...more: string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...row };
  for (const key of ['createdAt', 'updatedAt', ...more]) delete copy[key];
  return copy;
}

describe('optimistic effects match the server', () => {
  it('checkIn', async () => {
    const [r] = await replica.db
      .select({ id: class_reservation.class_reservation_id, class_date: single_class.class_date })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(and(isNull(class_reservation.deletedAt), eq(class_reservation.attend, false), isNull(single_class.cancelledAt), lt(single_class.class_date, new Date())))
      .orderBy(asc(class_reservation.class_reservation_id))
      .limit(1);
    if (!r) throw new Error('no reservation');
    const read = async () => (await replica.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, r.id))).map((r) => withoutWriteTimes(r));
    const { local, confirmed } = await optimisticThenServer(link, client, () => client.mutate('checkIn', { class_reservation_id: r.id, at: r.class_date.toISOString() }), read);
    expect(local[0]).toMatchObject({ attend: true });
    expectSame(local, confirmed);
  });

  it('walkIn: the reservation and the credit it spent', async () => {
    const [open] = await query<{ single_class_id: number }>(
      replica.db,
      sql`select c.single_class_id from single_class c where c.cancelled_at is null and c.class_package_id is null
          and c.class_date > now() + interval '2 hours'
          and c.capacity > (select count(*) + count(guest) from class_reservation r where r.single_class_id = c.single_class_id and r.deleted_at is null)
          and not exists (select 1 from class_reservation r where r.single_class_id = c.single_class_id and r.customer_id = ${cliente.customer_id})
          order by c.class_date limit 1`,
    );
    if (!open) throw new Error('no open class');
    const read = async () => {
      const reservations = await replica.db
        .select()
        .from(class_reservation)
        .where(and(eq(class_reservation.customer_id, cliente.customer_id), eq(class_reservation.single_class_id, open.single_class_id)));
      const credits = await replica.db
        .select({ id: available_classes.available_class_id, left: available_classes.available_classes })
        .from(available_classes)
        .where(eq(available_classes.customer_id, cliente.customer_id))
        .orderBy(asc(available_classes.available_class_id));
      // The access code is drawn by each database (the desk's provisional row has its own until the server's arrives).
      return { reservations: reservations.map((r) => withoutWriteTimes(r, 'class_reservation_id', 'access_code')), credits };
    };
    const { local, confirmed } = await optimisticThenServer(
      link,
      client,
      () => client.mutate('walkIn', { customer_id: cliente.customer_id, single_class_id: open.single_class_id, spot: null, guest: null }),
      read,
    );
    expect(local.reservations).toHaveLength(1);
    expectSame(local, confirmed);
  });

  it('removeClasses', async () => {
    const read = () =>
      replica.db
        .select({ id: available_classes.available_class_id, left: available_classes.available_classes })
        .from(available_classes)
        .where(eq(available_classes.customer_id, cliente.customer_id))
        .orderBy(asc(available_classes.available_class_id));
    const before = await read();
    const { local, confirmed } = await optimisticThenServer(link, client, () => client.mutate('removeClasses', { customer_id: cliente.customer_id, amount: 2, reason: 'Ajuste de saldo' }), read);
    expect(local).not.toEqual(before);
    expectSame(local, confirmed);
  });

  it('giveAccess then revokeAccess: the purchase, its credit and the membership', async () => {
    const packages = await replica.db.select().from(class_package).where(isNull(class_package.deletedAt)).orderBy(asc(class_package.class_package_id));
    for (const title of ['10 Clases', 'Ilimitado Mensual']) {
      const pkg = packages.find((p) => p.title === title);
      if (!pkg) throw new Error(`no package ${title}`);
      const read = async () => {
        const [p] = await replica.db
          .select()
          .from(purchase)
          .where(and(eq(purchase.customer_id, cliente.customer_id), eq(purchase.class_package_id, pkg.class_package_id), eq(purchase.provider, 'admin')))
          .orderBy(sql`${purchase.createdAt} desc`)
          .limit(1);
        const credits = p ? await replica.db.select().from(available_classes).where(eq(available_classes.purchase_id, p.purchase_id)) : [];
        const [who] = await replica.db.select({ has_unlimited: customer.has_unlimited, until: customer.unlimited_membership_expiration }).from(customer).where(eq(customer.customer_id, cliente.customer_id));
        return {
          purchase: p ? withoutWriteTimes(p, 'purchase_id') : null,
          credits: credits.map((c) => ({ left: c.available_classes, class_type_id: c.class_type_id, expiration_date: c.expiration_date, deleted: c.deletedAt !== null })),
          member: { has_unlimited: who?.has_unlimited, until: who?.until },
        };
      };
      const given = await optimisticThenServer(
        link,
        client,
        () => client.mutate('giveAccess', { customer_id: cliente.customer_id, class_package_id: pkg.class_package_id, package_days: null, is_gift: title === '10 Clases', payment_method_id: null, bill: false, reason: 'Cortesía', terminal: null }),
        read,
      );
      expect(given.local.purchase).toMatchObject({ status: 'completed', class_amount: pkg.class_amount });
      expectSame(given.local, given.confirmed);

      const [bought] = await replica.db
        .select({ id: purchase.purchase_id })
        .from(purchase)
        .where(and(eq(purchase.customer_id, cliente.customer_id), eq(purchase.class_package_id, pkg.class_package_id), eq(purchase.provider, 'admin')))
        .orderBy(sql`${purchase.purchase_id} desc`)
        .limit(1);
      if (!bought || bought.id < 0) throw new Error('the purchase did not arrive');
      const revoked = await optimisticThenServer(link, client, () => client.mutate('revokeAccess', { purchase_id: bought.id, reason: 'Se cargó por error' }), read);
      expect(revoked.local.purchase).toMatchObject({ status: 'revoked' });
      expect(revoked.local.credits.every((c) => c.deleted)).toBe(true);
      expectSame(revoked.local, revoked.confirmed);
    }
  });

  it('sellAtDesk: a package and two products in one cart, their credit and the shelf', async () => {
    const [pkg] = await replica.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
    const counted = await replica.db.select().from(product).where(isNotNull(product.stock)).orderBy(asc(product.product_id));
    const [cash] = await replica.db.select().from(payment_method).where(eq(payment_method.provider, 'cash'));
    if (!pkg || counted.length < 2 || !cash) throw new Error('no package, products or cash');
    const read = async () => {
      const [p] = await replica.db
        .select()
        .from(purchase)
        .where(and(eq(purchase.customer_id, cliente.customer_id), eq(purchase.class_package_id, pkg.class_package_id), eq(purchase.provider, 'admin')))
        .orderBy(sql`${purchase.createdAt} desc`)
        .limit(1);
      const credits = p ? await replica.db.select().from(available_classes).where(eq(available_classes.purchase_id, p.purchase_id)) : [];
      const shelf = await replica.db.select({ id: product.product_id, stock: product.stock }).from(product).where(isNotNull(product.stock)).orderBy(asc(product.product_id));
      return {
        purchase: p ? withoutWriteTimes(p, 'purchase_id') : null,
        credits: credits.map((c) => ({ left: c.available_classes, expiration_date: c.expiration_date })),
        shelf,
      };
    };
    const sold = await optimisticThenServer(
      link,
      client,
      () =>
        client.mutate('sellAtDesk', {
          customer_id: cliente.customer_id,
          packages: [{ class_package_id: pkg.class_package_id, package_days: null }],
          products: counted.slice(0, 2).map((x, i) => ({ product_id: x.product_id, quantity: i + 1 })),
          discount_code: null,
          payment_method_id: cash.payment_method_id,
          bill: false,
          terminal: null,
          cash_part: null,
        }),
      read,
    );
    expect(sold.local.shelf.slice(0, 2).map((x) => x.stock)).toEqual(counted.slice(0, 2).map((x, i) => x.stock! - (i + 1)));
    expectSame(sold.local, sold.confirmed);
  });

  it('markPurchasePaid: a pending cash purchase grants its credit', async () => {
    const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
    if (!pkg) throw new Error('no package');
    const [pending] = await server.db
      .insert(purchase)
      .values({ customer_id: cliente.customer_id, class_package_id: pkg.class_package_id, payment_method_id: 2, title: pkg.title, amount: pkg.price, total_payment: pkg.price, class_amount: pkg.class_amount, expiration_days: pkg.expiration_days, status: 'pending', provider: 'cash' })
      .returning();
    if (!pending) throw new Error('no purchase');
    // A pull hands out changes below the cluster's oldest open transaction (decision 008); on a PostgreSQL shared
    // with other test files' open transactions that can take a few rounds.
    for (let round = 0; round < 100; round++) {
      await client.syncNow();
      if ((await replica.db.select({ id: purchase.purchase_id }).from(purchase).where(eq(purchase.purchase_id, pending.purchase_id))).length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const read = async () => {
      const [p] = await replica.db.select().from(purchase).where(eq(purchase.purchase_id, pending.purchase_id));
      const credits = await replica.db.select().from(available_classes).where(eq(available_classes.purchase_id, pending.purchase_id));
      return {
        purchase: p ? withoutWriteTimes(p) : null,
        credits: credits.map((c) => ({ left: c.available_classes, class_type_id: c.class_type_id, expiration_date: c.expiration_date })),
      };
    };
    const { local, confirmed } = await optimisticThenServer(link, client, () => client.mutate('markPurchasePaid', { purchase_id: pending.purchase_id, paid_with: 'cash' }), read);
    expect(local.purchase).toMatchObject({ status: 'completed' });
    expect(local.credits).toHaveLength(1);
    expectSame(local, confirmed);
  });

  it('markReservationPaid: a cash reservation becomes paid', async () => {
    const [cash] = await replica.db
      .select({ id: class_reservation.class_reservation_id })
      .from(class_reservation)
      .where(and(eq(class_reservation.is_cash, true), eq(class_reservation.is_paid, false), isNull(class_reservation.deletedAt)))
      .limit(1);
    if (!cash) throw new Error('the seed has no unpaid cash reservation');
    const read = async () => (await replica.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, cash.id))).map((r) => withoutWriteTimes(r));
    const { local, confirmed } = await optimisticThenServer(link, client, () => client.mutate('markReservationPaid', { class_reservation_id: cash.id }), read);
    expect(local[0]).toMatchObject({ is_paid: true });
    expectSame(local, confirmed);
  });
});
