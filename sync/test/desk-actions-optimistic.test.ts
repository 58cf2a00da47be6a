import { app_config, available_classes, class_reservation, class_type, customer, location, single_class, waitlist } from '@estudio/db';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { applyDeskMutation } from '@estudio/server/services/desk/apply-desk-mutation';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@estudio/core';
import { createDirectServerLink } from '../src/client/direct-link.ts';
import { forgetReplicaSettings } from '../src/client/mutators/index.ts';
import { openReplica, type ClientReplica } from '../src/client/replica.ts';
import { createSyncClient } from '../src/client/sync-client.ts';
import type { SyncClient } from '../src/client/types.ts';
import { eventually, flakyLink, optimisticThenServer, staffOf, type FlakyLink } from './fixtures.ts';

/**
 * The desk's new actions (cancel with the rules or an
 * override, undo a check-in, move, the waitlist) made offline show at once what
 * the server then does; a refusal the replica can already see is refused
 * before anything is queued.
 */
let server: TestDb;
let replica: ClientReplica;
let client: SyncClient;
let link: FlakyLink;
let n = 0;

beforeAll(async () => {
  server = await createTestDb();
  const staff = await staffOf(server.db);
  replica = await openReplica({ dataDir: 'memory://' });
  link = flakyLink(createDirectServerLink({ db: server.db, staff, apply: applyDeskMutation }));
  client = createSyncClient({ replica, link, clientId: crypto.randomUUID(), backoff: { initialMs: 20, maxMs: 200 } });
  await client.start();
});
afterAll(async () => {
  await client?.stop();
  await replica?.close();
  await server?.close();
});

/** A customer with one credit of `credits` classes, on the server, once the replica has it. */
async function person(credits = 3) {
  const [c] = await server.db
    .insert(customer)
    .values({ email: `mostrador-${Date.now()}-${n++}@prueba.mx`, name: 'Paty', last_name: 'Mostrador' })
    .returning();
  if (!c) throw new Error('no customer');
  const [credit] = await server.db.insert(available_classes).values({ customer_id: c.customer_id, available_classes: credits }).returning();
  if (!credit) throw new Error('no credit');
  await reaches(available_classes, eq(available_classes.available_class_id, credit.available_class_id));
  return { customer_id: c.customer_id, credit_id: credit.available_class_id };
}

async function newClass(minutesAhead: number, capacity: number): Promise<number> {
  const [type] = await server.db.select().from(class_type).limit(1);
  const [place] = await server.db.select().from(location).limit(1);
  if (!type || !place) throw new Error('no class type or location');
  const [row] = await server.db
    .insert(single_class)
    .values({
      class_date: new Date(Date.now() + minutesAhead * 60_000),
      duration_minutes: 50,
      capacity,
      location_id: place.location_id,
      class_type_id: type.class_type_id,
      description: 'Clase de prueba',
    })
    .returning();
  if (!row) throw new Error('no class');
  await reaches(single_class, eq(single_class.single_class_id, row.single_class_id));
  return row.single_class_id;
}

/** A reservation booked on the server (spending the credit), once the replica has it. */
async function booked(who: { customer_id: number; credit_id: number }, classId: number, values: Partial<typeof class_reservation.$inferInsert> = {}) {
  const [row] = await server.db
    .insert(class_reservation)
    .values({ single_class_id: classId, customer_id: who.customer_id, available_class_id: who.credit_id, ...values })
    .returning();
  if (!row) throw new Error('no reservation');
  const left = (await serverCredit(who.credit_id)).available_classes - 1;
  await server.db.update(available_classes).set({ available_classes: left }).where(eq(available_classes.available_class_id, who.credit_id));
  await reaches(class_reservation, eq(class_reservation.class_reservation_id, row.class_reservation_id));
  // The spent credit is its own change: a round already under way may bring the reservation without it.
  await reaches(available_classes, and(eq(available_classes.available_class_id, who.credit_id), eq(available_classes.available_classes, left)));
  return row.class_reservation_id;
}

async function serverCredit(id: number) {
  const [row] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, id));
  if (!row) throw new Error('no credit');
  return row;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function reaches(table: any, where: any): Promise<void> {
  await eventually(
    async () => {
      await client.syncNow();
      return (await replica.db.select().from(table).where(where)).length > 0;
    },
    10_000,
    'the row to reach the replica',
  );
}


const reservationOf = async (id: number) => {
  const [r] = await replica.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
  return r ? { deleted: r.deletedAt !== null, credit_returned: r.credit_returned, attend: r.attend, attendedAt: r.attendedAt } : null;
};
const creditOf = async (id: number) => {
  const [c] = await replica.db.select().from(available_classes).where(eq(available_classes.available_class_id, id));
  return c ? { left: c.available_classes, cancels_used: c.cancels_used } : null;
};

async function refusedLocally(mutate: () => Promise<unknown>): Promise<string> {
  try {
    await mutate();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('desk actions: optimistic effects match the server', () => {
  it('cancelReservation in time: the credit comes back and one cancellation is used', async () => {
    const who = await person();
    const klass = await newClass(48 * 60, 5);
    const id = await booked(who, klass);
    const read = async () => ({ r: await reservationOf(id), c: await creditOf(who.credit_id) });
    const args = { class_reservation_id: id, customer_id: who.customer_id, single_class_id: klass, return_credit: null, reason: null };
    const { local, confirmed } = await optimisticThenServer(link, client, () => client.mutate('cancelReservation', args), read);
    expect(local).toMatchObject({ r: { deleted: true, credit_returned: true }, c: { left: 3, cancels_used: 1 } });
    expect(confirmed).toEqual(local);
  });

  it('cancelReservation late: no credit by the rules; with an override and a reason it comes back', async () => {
    const who = await person();
    const klass = await newClass(60, 5);
    const late = await booked(who, klass);
    const read = async (id: number) => ({ r: await reservationOf(id), c: await creditOf(who.credit_id) });
    const ruled = await optimisticThenServer(
      link,
      client,
      () => client.mutate('cancelReservation', { class_reservation_id: late, customer_id: who.customer_id, single_class_id: klass, return_credit: null, reason: null }),
      () => read(late),
    );
    expect(ruled.local).toMatchObject({ r: { deleted: true, credit_returned: false }, c: { left: 2, cancels_used: 0 } });
    expect(ruled.confirmed).toEqual(ruled.local);

    const again = await booked(who, klass);
    const args = { class_reservation_id: again, customer_id: who.customer_id, single_class_id: klass, return_credit: true };
    expect(await refusedLocally(() => client.mutate('cancelReservation', { ...args, reason: null }))).toBe('desk/override-reason');
    const overridden = await optimisticThenServer(link, client, () => client.mutate('cancelReservation', { ...args, reason: 'Autorizó la gerente' }), () => read(again));
    expect(overridden.local).toMatchObject({ r: { deleted: true, credit_returned: true }, c: { left: 2, cancels_used: 0 } });
    expect(overridden.confirmed).toEqual(overridden.local);
  });

  it('undoCheckIn', async () => {
    const who = await person();
    const klass = await newClass(10, 5);
    const id = await booked(who, klass, { attend: true, attendedAt: new Date() });
    const { local, confirmed } = await optimisticThenServer(
      link,
      client,
      () => client.mutate('undoCheckIn', { class_reservation_id: id, customer_id: who.customer_id, single_class_id: klass }),
      () => reservationOf(id),
    );
    expect(local).toMatchObject({ attend: false, attendedAt: null });
    expect(confirmed).toEqual(local);
  });

  it('moveReservation: the old one cancelled, the new one booked with the same credit; a full class is refused on the desk', async () => {
    const who = await person();
    const other = await person();
    const from = await newClass(60, 5);
    const to = await newClass(120, 5);
    const full = await newClass(120, 1);
    await booked(other, full);
    const id = await booked(who, from);
    const args = { class_reservation_id: id, customer_id: who.customer_id, from_single_class_id: from, spot: null };
    expect(await refusedLocally(() => client.mutate('moveReservation', { ...args, single_class_id: full }))).toBe('booking/class-full');
    const read = async () => {
      const live = await replica.db
        .select({ class_id: class_reservation.single_class_id, credit: class_reservation.available_class_id })
        .from(class_reservation)
        .where(and(eq(class_reservation.customer_id, who.customer_id)));
      return { old: await reservationOf(id), live: live.filter((r) => r.class_id === to), c: await creditOf(who.credit_id) };
    };
    const { local, confirmed } = await optimisticThenServer(link, client, () => client.mutate('moveReservation', { ...args, single_class_id: to }), read);
    expect(local).toMatchObject({ old: { deleted: true }, live: [{ class_id: to, credit: who.credit_id }], c: { left: 2, cancels_used: 0 } });
    expect(confirmed).toEqual(local);
  });

  it('joinWaitlist then leaveWaitlist', async () => {
    const who = await person();
    const other = await person();
    const full = await newClass(120, 1);
    await booked(other, full);
    const read = async () =>
      (await replica.db.select({ customer_id: waitlist.customer_id }).from(waitlist).where(eq(waitlist.single_class_id, full))).map((w) => w.customer_id);
    const joined = await optimisticThenServer(link, client, () => client.mutate('joinWaitlist', { customer_id: who.customer_id, single_class_id: full }), read);
    expect(joined.local).toEqual([who.customer_id]);
    expect(joined.confirmed).toEqual(joined.local);
    expect(await refusedLocally(() => client.mutate('joinWaitlist', { customer_id: who.customer_id, single_class_id: full }))).toBe('waitlist/already-joined');
    const left = await optimisticThenServer(link, client, () => client.mutate('leaveWaitlist', { customer_id: who.customer_id, single_class_id: full }), read);
    expect(left.local).toEqual([]);
    expect(left.confirmed).toEqual([]);
  });

  it('walkIn with a guest, where a guest pays with a class: two classes spent, and a customer with one is refused on the desk as on the server', async () => {
    // The studio's settings on the server, and in the replica as the desk copies them there.
    for (const db of [server.db, replica.db]) {
      for (const [key, value] of [['allow_class_guests', 'true'], ['guest_uses_credit', 'true']] as const) {
        await db.insert(app_config).values({ key, value }).onConflictDoUpdate({ target: app_config.key, set: { value } });
      }
    }
    forgetReplicaSettings(replica.db);
    try {
      const klass = await newClass(30, 5);
      const short = await person(1);
      expect(await refusedLocally(() => client.mutate('walkIn', { customer_id: short.customer_id, single_class_id: klass, spot: null, guest: 'Lupita' }))).toBe(
        'booking/guest-no-credits',
      );
      const who = await person(3);
      const read = async () => {
        const [r] = await replica.db.select().from(class_reservation).where(and(eq(class_reservation.customer_id, who.customer_id), eq(class_reservation.single_class_id, klass)));
        return { guest: r?.guest, paid: r?.available_class_id, guestPaid: r?.guest_available_class_id, c: await creditOf(who.credit_id) };
      };
      const { local, confirmed } = await optimisticThenServer(
        link,
        client,
        () => client.mutate('walkIn', { customer_id: who.customer_id, single_class_id: klass, spot: null, guest: 'Lupita' }),
        read,
      );
      expect(local).toMatchObject({ guest: 'Lupita', paid: who.credit_id, guestPaid: who.credit_id, c: { left: 1 } });
      expect(confirmed).toEqual(local);
      // Cancelled with the credit given back: both classes come back, the guest's without using a cancellation.
      const [booking] = await replica.db.select().from(class_reservation).where(and(eq(class_reservation.customer_id, who.customer_id), eq(class_reservation.single_class_id, klass)));
      const back = await optimisticThenServer(
        link,
        client,
        () =>
          client.mutate('cancelReservation', {
            class_reservation_id: booking!.class_reservation_id,
            customer_id: who.customer_id,
            single_class_id: klass,
            return_credit: true,
            reason: 'Se enfermó la invitada',
          }),
        () => creditOf(who.credit_id),
      );
      expect(back.local).toEqual({ left: 3, cancels_used: 0 });
      expect(back.confirmed).toEqual(back.local);
    } finally {
      for (const db of [server.db, replica.db]) {
        for (const key of ['allow_class_guests', 'guest_uses_credit']) await db.delete(app_config).where(eq(app_config.key, key));
      }
      forgetReplicaSettings(replica.db);
    }
  });
});
