import { and, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instructor, location } from '@estudio/db/schema/catalogue';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { demoPassword, startRacingServer, type RacingServer } from '../support/helpers.ts';
import { anyLocationId, classTypeId, createBookers, newClass } from '../support/reservations-fixtures.ts';

/**
 * The admin's schedule writes racing the customers' bookings on PostgreSQL
 * (a real pool, requests fired at once). PGlite has one connection and cannot
 * race, so these run only with TEST_DATABASE_URL.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('admin schedule races on PostgreSQL', () => {
  let race: RacingServer;
  let admin: string;
  beforeAll(async () => {
    race = await startRacingServer();
    const res = await fetch(`${race.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@estudio.demo', password: demoPassword }),
    });
    admin = ((await res.json()) as { idToken: string }).idToken;
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  it('cancelling a class while 150 customers book it: no live reservation survives, every credit is whole', async () => {
    for (let round = 0; round < 4; round++) {
      const classId = await newClass(race.db, { minutesAhead: 48 * 60 + round * 60, capacity: 200, classType: 'Yoga' });
      const bookers = await createBookers(race.db, race.secret, 150, { prefix: `carrera-cancelar-${round}`, credits: 1 });
      // Half book before the cancel is sent, half race it.
      const early = await Promise.all(bookers.slice(0, 30).map((b) => race.post('/api/class_reservations', b.token, { single_class_id: classId })));
      expect(early.every((r) => r.status === 200)).toBe(true);
      // The cancel leaves a moment after the burst, so it lands among bookings holding the class lock.
      const cancelled = new Promise<void>((resolve) => setTimeout(resolve, 15 + round * 10)).then(() =>
        race.post<{ code?: string; reservations_cancelled?: number; credits_returned?: number }>(`/api/single_class/${classId}/cancel`, admin, {}),
      );
      const results = await Promise.all([
        cancelled,
        ...bookers.slice(30).map((b) => race.post('/api/class_reservations', b.token, { single_class_id: classId })),
      ]);
      expect(results.filter((r) => r.status >= 500)).toEqual([]);
      const [cancel] = results;
      expect(cancel?.status).toBe(200);
      const late = results.slice(1);
      expect(late.every((r) => r.status === 200 || (r.status === 412 && r.body.code === 'booking/class-cancelled'))).toBe(true);
      // Every booking that won before the cancel was cancelled by it, with its credit back.
      const bookedBeforeCancel = 30 + late.filter((r) => r.status === 200).length;
      expect(cancel?.body.reservations_cancelled).toBe(bookedBeforeCancel);
      expect(cancel?.body.credits_returned).toBe(bookedBeforeCancel);

      const live = await race.db
        .select()
        .from(class_reservation)
        .where(and(eq(class_reservation.single_class_id, classId), isNull(class_reservation.deletedAt)));
      expect(live).toEqual([]);
      const credits = await race.db.select().from(available_classes).where(inArray(available_classes.customer_id, bookers.map((b) => b.customer_id)));
      expect(credits.map((c) => c.available_classes)).toEqual(bookers.map(() => 1));
    }
  });

  it('the same weekly template sent 8 times at once creates each class once', async () => {
    const type = await classTypeId(race.db, 'Yoga');
    // Four whole weeks about a year ahead, Monday to Sunday: never in the past, whatever the clock reads.
    const monday = new Date(Date.now() + 365 * 86_400_000);
    monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
    const day = (offset: number) => new Date(monday.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const body = {
      start_date: day(0),
      end_date: day(27),
      slots: [
        { weekday: 2, time: '10:00' },
        { weekday: 4, time: '10:00' },
      ],
      location_id: await anyLocationId(race.db),
      class_type_id: type.id,
      capacity: 12,
      duration_minutes: 50,
    };
    const results = await Promise.all(Array.from({ length: 8 }, () => race.post<{ created?: number }>('/api/single_class/repeat', admin, body)));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(results.reduce((n, r) => n + (r.body.created ?? 0), 0)).toBe(8);
    const rows = await race.db
      .select({ class_date: single_class.class_date })
      .from(single_class)
      .where(and(eq(single_class.class_type_id, type.id), eq(single_class.capacity, 12), eq(single_class.duration_minutes, 50)));
    const starts = rows.map((r) => r.class_date.toISOString()).filter((d) => d >= day(0) && d <= `${day(28)}T12`);
    expect(starts).toHaveLength(8);
    expect(new Set(starts).size).toBe(8);
  });

  it('eight overlapping classes for one place and one coach sent at once: one is saved, seven are told which class is in the way', async () => {
    const type = await classTypeId(race.db, 'Barre');
    const [coach] = await race.db.select({ id: instructor.instructor_id }).from(instructor).orderBy(instructor.instructor_id).limit(1);
    const locations = await race.db.select({ id: location.location_id }).from(location).orderBy(location.location_id);
    // About a year and a half ahead, at 06:00 and five minutes apart: each overlaps every other.
    const day = new Date(Date.now() + 540 * 86_400_000).toISOString().slice(0, 10);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        race.post<{ code?: string }>('/api/single_class', admin, {
          date: day,
          time: `06:${String(i * 5).padStart(2, '0')}`,
          duration_minutes: 60,
          capacity: 10,
          // Half in another place with the same coach: the coach's lock serialises those too.
          location_id: locations[i % 2]?.id,
          class_type_id: type.id,
          instructor_ids: [coach?.id],
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'schedule/overlap')).toBe(true);
    const saved = await race.db.select().from(single_class).where(and(eq(single_class.class_type_id, type.id), gte(single_class.class_date, new Date(`${day}T00:00:00Z`)), lt(single_class.class_date, new Date(`${day}T23:59:59Z`))));
    expect(saved).toHaveLength(1);
  });
});
