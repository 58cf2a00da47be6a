import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@estudio/db';
import { outbox_message } from '@estudio/db/schema/outbox';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { buildServer } from '../../src/app.ts';
import { waitlistPromotionJob } from '../../src/services/clock/waitlist-promotion.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { testConfig } from '../support/helpers.ts';
import { createBookers, newClass, withSettings, type Booker } from '../support/reservations-fixtures.ts';

/*
 * Automatic promotion under real concurrency (decision 023): on PostgreSQL,
 * customers cancel over HTTP while two clock runners (two connection pools,
 * as two server processes) promote from the waitlist at the same time, and
 * waiting customers also try to book the freed places themselves. The class
 * never goes over capacity and nobody is booked or charged twice.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('waitlist promotion race on PostgreSQL', () => {
  let testDb: TestDb;
  let http: DbHandle;
  let runnerA: DbHandle;
  let runnerB: DbHandle;
  let app: FastifyInstance;
  let base: string;
  const config = testConfig();
  const silent = { info: () => {}, warn: () => {}, error: () => {} };

  beforeAll(async () => {
    testDb = await createTestDb();
    http = await createDb(testDb.url, { max: 10 });
    runnerA = await createDb(testDb.url, { max: 3 });
    runnerB = await createDb(testDb.url, { max: 3 });
    app = await buildServer({ config, db: http.db });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    for (const h of [http, runnerA, runnerB]) await h?.close();
    await testDb?.close();
  });

  const post = async (path: string, token: string, body: Record<string, unknown> = {}) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { code?: string; class_reservation?: { class_reservation_id: number } } };
  };
  const run = (h: DbHandle) => waitlistPromotionJob.run({ db: h.db, config, messages: messageContextOf(config), log: silent }, new Date());

  it('parallel cancellations, two runners and self-bookings: never over capacity, nobody charged twice, one message per promotion', async () => {
    await withSettings(http.db, { waitlist_auto_promote: 'true', waitlist_promotion_cutoff_minutes: '60' }, async () => {
      // The seed's own waitlists first, so what follows is this class's alone.
      await run(runnerA);
      const capacity = 6;
      const classId = await newClass(http.db, { minutesAhead: 3 * 24 * 60, capacity, classType: 'Barre' });
      const holders = await createBookers(http.db, config.AUTH_SECRET, capacity, { prefix: `carrera-espera-${Date.now()}`, credits: 1 });
      const reservations: number[] = [];
      for (const h of holders) {
        const res = await post('/api/class_reservations', h.token, { single_class_id: classId });
        expect(res.status).toBe(200);
        reservations.push(res.body.class_reservation?.class_reservation_id ?? 0);
      }
      // Twelve waiting: every third has no credit left (skipped by promotion), the rest two each.
      const waiting: Booker[] = await createBookers(http.db, config.AUTH_SECRET, 12, { prefix: `carrera-lista-${Date.now()}`, credits: 2 });
      const broke = new Set(waiting.filter((_, i) => i % 3 === 0).map((w) => w.customer_id));
      await http.db.update(available_classes).set({ available_classes: 0 }).where(inArray(available_classes.customer_id, [...broke]));
      for (const w of waiting) await http.db.insert(waitlist).values({ single_class_id: classId, customer_id: w.customer_id, auto_book: true });

      // Everything at once: six cancellations, two runners looping, and four waiting customers booking by themselves.
      const loop = async (h: DbHandle) => {
        for (let i = 0; i < 8; i++) {
          await run(h);
          await new Promise((r) => setTimeout(r, 15));
        }
      };
      const selfBookers = waiting.filter((w) => !broke.has(w.customer_id)).slice(-4);
      await Promise.all([
        ...holders.map((h, i) => post(`/api/class_reservations/${reservations[i]}/cancel`, h.token)),
        loop(runnerA),
        loop(runnerB),
        ...selfBookers.map(async (w) => {
          await new Promise((r) => setTimeout(r, 40));
          return post('/api/class_reservations', w.token, { single_class_id: classId });
        }),
      ]);
      await Promise.all([run(runnerA), run(runnerB)]);

      const live = await http.db
        .select()
        .from(class_reservation)
        .where(and(eq(class_reservation.single_class_id, classId), isNull(class_reservation.deletedAt)));
      // Six places freed, nine waiting customers with credit: the class is full again, never over.
      expect(live.length).toBe(capacity);
      const bookedIds = live.map((r) => r.customer_id);
      expect(new Set(bookedIds).size).toBe(bookedIds.length);
      expect(bookedIds.every((id) => !broke.has(id))).toBe(true);
      expect(bookedIds.every((id) => waiting.some((w) => w.customer_id === id))).toBe(true);

      // Each booked customer paid exactly one class (2 → 1); everyone else still has what they had.
      const credits = await http.db
        .select({ customer_id: available_classes.customer_id, left: available_classes.available_classes })
        .from(available_classes)
        .where(inArray(available_classes.customer_id, waiting.map((w) => w.customer_id)));
      for (const c of credits) {
        expect(c.left, `customer ${c.customer_id}`).toBe(broke.has(c.customer_id) ? 0 : bookedIds.includes(c.customer_id) ? 1 : 2);
      }
      // The booked left the list; the rest still wait.
      const still = await http.db.select({ customer_id: waitlist.customer_id }).from(waitlist).where(eq(waitlist.single_class_id, classId));
      expect(still.map((w) => w.customer_id).sort()).toEqual(waiting.map((w) => w.customer_id).filter((id) => !bookedIds.includes(id)).sort());

      // One 'waitlist-promoted' e-mail per reservation the clock made, never two.
      const promoted = await http.db
        .select()
        .from(outbox_message)
        .where(and(eq(outbox_message.kind, 'waitlist-promoted'), inArray(outbox_message.customer_id, waiting.map((w) => w.customer_id))));
      const promotedIds = promoted.map((m) => m.customer_id);
      expect(promoted.length).toBeGreaterThan(0);
      expect(new Set(promotedIds).size).toBe(promotedIds.length);
      expect(promotedIds.every((id) => id !== null && bookedIds.includes(id))).toBe(true);
      const selfBooked = bookedIds.filter((id) => !promotedIds.includes(id));
      expect(selfBooked.every((id) => selfBookers.some((w) => w.customer_id === id))).toBe(true);
      expect(promoted.length + selfBooked.length).toBe(capacity);
    });
  }, 60_000);
});
