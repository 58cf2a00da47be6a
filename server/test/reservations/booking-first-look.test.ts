import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { domainErrors } from '@estudio/core';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { auth_user } from '@estudio/db/schema/identity';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { call, countingStatements, rowsOf, startRacingServer, type RacingServer, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { createBookers, newClass, withSettings, type Booker } from '../support/reservations-fixtures.ts';

/**
 * Decision 042: a full class is refused from one unlocked read before the
 * booking's transaction, with the answer the locked path gives. These tell
 * the story from the customer's side on both databases: the refusal in
 * Spanish, a place freed by a cancellation booked at once (never a stale
 * "full"), and every answer that comes before "full" on the locked path still
 * given first.
 */
let server: TestServer;
demoStudio([], (s) => ({ server } = s));

const book = (token: string, body: Record<string, unknown>) => call(server.app, 'POST', '/api/class_reservations', { token, body });
const cancel = (token: string, id: number) => call(server.app, 'POST', `/api/class_reservations/${id}/cancel`, { token });
const errorOf = (code: keyof typeof domainErrors) => ({ code, message: domainErrors[code].message });
const creditOf = async (b: Booker) =>
  (await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, b.available_class_id)))[0]?.available_classes;

/** A class two days ahead with `capacity` places, booked full by the first `capacity` of `bookers`. */
async function fullClass(prefix: string, capacity: number, people: number) {
  const classId = await newClass(server.db, { minutesAhead: 48 * 60, capacity, classType: 'Yoga' });
  const bookers = await createBookers(server.db, server.config.AUTH_SECRET, people, { prefix });
  const reservations: number[] = [];
  for (const b of bookers.slice(0, capacity)) {
    const res = await book(b.token, { single_class_id: classId });
    expect(res.status).toBe(200);
    reservations.push((res.body as { class_reservation: { class_reservation_id: number } }).class_reservation.class_reservation_id);
  }
  return { classId, bookers, reservations };
}

describe('a full class is refused before any lock (decision 042)', () => {
  it('a customer who comes late hears in Spanish that the class is full, and keeps her credit', async () => {
    const { classId, bookers } = await fullClass('primera-mirada-llena', 2, 3);
    const late = bookers[2] as Booker;
    const res = await book(late.token, { single_class_id: classId });
    expect(res.status).toBe(412);
    expect(res.body).toEqual(errorOf('booking/class-full'));
    expect(res.body.message).toBe('Lo sentimos, esta clase ya está llena.');
    expect(await creditOf(late)).toBe(1);
  });

  it('a place freed by a cancellation is booked by the next customer at once: the read that refuses is never stale', async () => {
    const { classId, bookers, reservations } = await fullClass('primera-mirada-libre', 1, 3);
    const [first, second, third] = bookers as [Booker, Booker, Booker];
    expect((await book(second.token, { single_class_id: classId })).status).toBe(412);
    expect((await cancel(first.token, reservations[0] as number)).status).toBe(200);
    const res = await book(second.token, { single_class_id: classId });
    expect(res.status).toBe(200);
    expect(await creditOf(second)).toBe(0);
    // And full again for the next one.
    expect((await book(third.token, { single_class_id: classId })).body).toEqual(errorOf('booking/class-full'));
  });

  it('answers the locked path gives before "full" still come first on a full class', async () => {
    const { classId, bookers } = await fullClass('primera-mirada-orden', 1, 2);
    const [inside, outside] = bookers as [Booker, Booker];
    // Booked already: 409, not 412.
    expect((await book(inside.token, { single_class_id: classId })).body).toEqual(errorOf('booking/already-booked'));
    // A guest where the studio takes none: said before the count.
    await withSettings(server.db, { allow_class_guests: 'false' }, async () => {
      expect((await book(outside.token, { single_class_id: classId, guest: 'Ana López' })).body).toEqual(errorOf('booking/guest-not-allowed'));
    });
    // A class that does not exist, and one cancelled while full.
    expect((await book(outside.token, { single_class_id: 2_000_000_000 })).body).toEqual(errorOf('class/not-found'));
    await server.db.update(single_class).set({ cancelledAt: new Date() }).where(eq(single_class.single_class_id, classId));
    expect((await book(outside.token, { single_class_id: classId })).body).toEqual(errorOf('booking/class-cancelled'));
  });

  it("a change of the studio's settings counts from the next booking (the first look keeps them only while their fingerprint is the same)", async () => {
    const classId = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });
    const [a] = (await createBookers(server.db, server.config.AUTH_SECRET, 1, { prefix: 'primera-mirada-ajustes' })) as [Booker];
    await withSettings(server.db, { allow_class_guests: 'false' }, async () => {
      expect((await book(a.token, { single_class_id: classId, guest: 'Ana López' })).body).toEqual(errorOf('booking/guest-not-allowed'));
    });
    // Guests allowed again: the next rule speaks (her one credit does not cover the guest's class).
    await withSettings(server.db, { allow_class_guests: 'true' }, async () => {
      expect((await book(a.token, { single_class_id: classId, guest: 'Ana López' })).body).toEqual(errorOf('booking/guest-no-credits'));
    });
    // Written straight to the table, same length, updated_at untouched: still the next booking's rule.
    await withSettings(server.db, { reservation_timeframe_hours: '72' }, async () => {
      expect((await book(a.token, { single_class_id: classId })).body).toEqual(errorOf('booking/outside-window'));
      await server.db.update(app_config).set({ value: '12' }).where(eq(app_config.key, 'reservation_timeframe_hours'));
      expect((await book(a.token, { single_class_id: classId })).status).toBe(200);
    });
  });

  it('on a full class with seats, a seat already taken is said first, as under the lock; a free seat hears the class is full', async () => {
    const classId = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 1, classType: 'Indoor Cycling' });
    const [a, b] = (await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: 'primera-mirada-asiento' })) as [Booker, Booker];
    expect((await book(a.token, { single_class_id: classId, spot: 1 })).status).toBe(200);
    expect((await book(b.token, { single_class_id: classId, spot: 1 })).body).toEqual(errorOf('booking/spot-taken'));
    expect((await book(b.token, { single_class_id: classId, spot: 2 })).body).toEqual(errorOf('booking/class-full'));
  });

  it("a full class of a package's buyers tells a customer who did not buy it that it is for the package's buyers", async () => {
    const [pkg] = await server.db.select({ id: purchase.class_package_id }).from(purchase).where(sql`${purchase.class_package_id} is not null`).limit(1);
    if (!pkg?.id) throw new Error('no package in the seed');
    const classId = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 0, classType: 'Yoga', classPackageId: pkg.id });
    const [someone] = await createBookers(server.db, server.config.AUTH_SECRET, 1, { prefix: 'primera-mirada-paquete' });
    expect((await book((someone as Booker).token, { single_class_id: classId })).body).toEqual(errorOf('booking/package-only'));
  });
});

describe("a customer's own booking: her token's check reads the first look (decision 060)", () => {
  it('a customer refused from a full class costs the database one statement, her token check included', async () => {
    const counting = countingStatements(server.db);
    const app = await server.withConfig({}, { db: counting.db });
    const { classId, bookers } = await fullClass('una-sentencia', 1, 3);
    const [, late, later] = bookers as [Booker, Booker, Booker];
    // The first one on this server may read the studio's settings into memory.
    expect((await call(app, 'POST', '/api/class_reservations', { token: late.token, body: { single_class_id: classId } })).status).toBe(412);
    counting.counter.statements = 0;
    const res = await call(app, 'POST', '/api/class_reservations', { token: later.token, body: { single_class_id: classId } });
    expect(res.body).toEqual(errorOf('booking/class-full'));
    expect(counting.counter.statements).toBe(1);
    // Over /trpc too.
    counting.counter.statements = 0;
    const overTrpc = await call(app, 'POST', '/trpc/reservations.create', { token: later.token, body: { single_class_id: classId } });
    expect(overTrpc.body.error).toMatchObject({ data: { domainCode: 'booking/class-full' } });
    expect(counting.counter.statements).toBe(1);
  });

  it('the token is still checked in full: a session ended, an account disabled or a customer deleted books nothing', async () => {
    const classId = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 5, classType: 'Yoga' });
    const [ended, disabled, deleted] = (await createBookers(server.db, server.config.AUTH_SECRET, 3, { prefix: 'primera-mirada-token' })) as [Booker, Booker, Booker];
    const uidOf = async (b: Booker) => (await server.db.select({ uid: customer.uid }).from(customer).where(eq(customer.customer_id, b.customer_id)))[0]?.uid ?? '';
    await server.db
      .update(auth_user)
      .set({ tokens_valid_after: new Date(Date.now() + 60_000) })
      .where(eq(auth_user.uid, await uidOf(ended)));
    await server.db
      .update(auth_user)
      .set({ disabledAt: new Date() })
      .where(eq(auth_user.uid, await uidOf(disabled)));
    await server.db.update(customer).set({ deletedAt: new Date() }).where(eq(customer.customer_id, deleted.customer_id));
    expect((await book(ended.token, { single_class_id: classId })).body).toEqual(errorOf('auth/id-token-revoked'));
    expect((await book(disabled.token, { single_class_id: classId })).body).toEqual(errorOf('auth/user-disabled'));
    expect((await book(deleted.token, { single_class_id: classId })).body).toEqual(errorOf('customer/not-found'));
    const booked = await server.db.select().from(class_reservation).where(eq(class_reservation.single_class_id, classId));
    expect(booked).toEqual([]);
    for (const b of [ended, disabled, deleted]) expect(await creditOf(b)).toBe(1);
  });

  it('a seat with a guest is counted as asked: the guest\'s seat taken is said, and a free pair books', async () => {
    const classId = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 6, classType: 'Indoor Cycling' });
    const [a, b] = (await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: 'primera-mirada-invitado', credits: 2 })) as [Booker, Booker];
    expect((await book(a.token, { single_class_id: classId, spot: 3 })).status).toBe(200);
    // Her own seat is free, her guest's is not.
    expect((await book(b.token, { single_class_id: classId, spot: 1, guest: 'Ana López', guest_spot: 3 })).body).toEqual(errorOf('booking/spot-taken'));
    // A guest's seat sent without a guest holds no seat: refused as the locked path refuses it.
    expect((await book(b.token, { single_class_id: classId, spot: 1, guest_spot: 3 })).body).toEqual(errorOf('booking/guest-spot-invalid'));
    const res = await book(b.token, { single_class_id: classId, spot: 1, guest: 'Ana López', guest_spot: 2 });
    expect(res.status).toBe(200);
    expect(res.body.class_reservation).toMatchObject({ spot: 1, guest: 'Ana López', guest_spot: 2 });
  });
});

/** PostgreSQL only: the refusal takes no lock, and a booking with room still waits for the class lock. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the first look on PostgreSQL', () => {
  let race: RacingServer;
  beforeAll(async () => {
    race = await startRacingServer();
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  it('while another transaction holds the class row, a full class is refused at once and a class with room waits for the lock', async () => {
    const full = await newClass(race.db, { minutesAhead: 48 * 60, capacity: 1, classType: 'Yoga' });
    const open = await newClass(race.db, { minutesAhead: 49 * 60, capacity: 1, classType: 'Yoga' });
    const [a, b, c] = (await createBookers(race.db, race.secret, 3, { prefix: 'primera-mirada-cerrojo' })) as [Booker, Booker, Booker];
    expect((await race.post('/api/class_reservations', a.token, { single_class_id: full })).status).toBe(200);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = race.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from single_class where single_class_id in (${full}, ${open}) for update`);
      locked();
      await held;
    });
    await isLocked;
    try {
      const started = performance.now();
      const refused = await race.post('/api/class_reservations', b.token, { single_class_id: full });
      expect(refused.status).toBe(412);
      expect(refused.body.code).toBe('booking/class-full');
      expect(performance.now() - started).toBeLessThan(2_000);

      let answered = false;
      const waiting = race.post('/api/class_reservations', c.token, { single_class_id: open }).then((r) => {
        answered = true;
        return r;
      });
      // The booking has reached the class's lock and waits on it (PostgreSQL says so): only then is "not answered" an answer.
      await vi.waitFor(
        async () => {
          const [waiting] = await rowsOf<{ n: number }>(
            race.db,
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
          );
          expect(waiting?.n).toBeGreaterThanOrEqual(1);
        },
        { timeout: 10_000 },
      );
      expect(answered).toBe(false);
      release();
      await holder;
      expect((await waiting).status).toBe(200);
    } finally {
      release();
      await holder;
    }
  });
});
