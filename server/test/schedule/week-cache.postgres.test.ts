import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studioTimeZone, weekOf, type SingleClassOutput } from '@estudio/core';
import { createDb, type DbHandle } from '@estudio/db';
import { loadStudioSettings } from '../../src/services/schedule/studio-settings.ts';
import { createFaultDatabase, startServerProcess, type FaultDatabase } from '../support/fault-helpers.ts';
import { demoPassword, fakePortalDist } from '../support/helpers.ts';
import { newClass } from '../support/reservations-fixtures.ts';

/**
 * The week from memory is never stale after a committed write (decision
 * 041): two real server processes on one PostgreSQL database, each
 * with its own cache. A booking through one is in the very next read through
 * the other while reads keep both caches warm in parallel; a cancellation the
 * same the other way round; and while an older transaction holds the change
 * log's horizon back (so the settled position cannot move), a booking is
 * still seen at once, and so is that old transaction's own late commit.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
/** This file's ports. */
const ports = [3318, 3319] as const;

describe.skipIf(!adminUrl)('the week from memory across two server processes (PostgreSQL)', () => {
  let database: FaultDatabase | undefined;
  let handle: DbHandle | undefined;
  let sql: postgres.Sql | undefined;
  const children: ChildProcess[] = [];
  let dataDir = '';
  let portalDist = '';
  let token = '';
  let classId = 0;
  let weekPath = '';

  beforeAll(async () => {
    if (!adminUrl) return;
    dataDir = mkdtempSync(path.join(tmpdir(), 'week-procs-'));
    portalDist = fakePortalDist();
    database = await createFaultDatabase(adminUrl);
    sql = postgres(database.url, { max: 2, onnotice: () => {} });
    handle = await createDb(database.url, { max: 2 });
    classId = await newClass(handle.db, { minutesAhead: 2 * 24 * 60, capacity: 50, classType: 'Yoga' });
    const week = weekOf(new Date(Date.now() + 2 * 24 * 60 * 60_000), studioTimeZone(await loadStudioSettings(handle.db)));
    weekPath = `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`;
    // One after the other: both migrate the same database on start.
    for (const port of ports) children.push(await startServerProcess({ databaseUrl: database.url, port, dataDir, portalDist }));
    const res = await fetch(`http://127.0.0.1:${ports[0]}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ilimitado@estudio.demo', password: demoPassword }),
    });
    token = ((await res.json()) as { idToken: string }).idToken;
  }, 120_000);
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
    await sql?.end({ timeout: 5 });
    await handle?.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (portalDist) rmSync(portalDist, { recursive: true, force: true });
  });

  const ours = async (port: number, signedIn = false): Promise<SingleClassOutput> => {
    const res = await fetch(`http://127.0.0.1:${port}${weekPath}`, signedIn ? { headers: { authorization: `Bearer ${token}` } } : {});
    expect(res.status).toBe(200);
    const found = ((await res.json()) as { single_classes: SingleClassOutput[] }).single_classes.find((c) => c.single_class_id === classId);
    if (!found) throw new Error('the class is in its week');
    return found;
  };
  const post = async (port: number, url: string, body: unknown = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { class_reservation: { class_reservation_id: number } };
  };
  /** Anonymous and signed-in reads on both processes, all at once, until `stop` settles: the caches stay warm and busy. */
  const keepReading = (stop: Promise<unknown>) => {
    let done = false;
    void stop.finally(() => (done = true));
    return Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        while (!done) await ours(ports[i % 2]!, i % 4 < 2);
      }),
    );
  };

  it('ten rounds: booked through one process, seen by the very next read through the other; cancelled there, gone at once here', async () => {
    const base = (await ours(ports[0])).reservation_count;
    for (let round = 0; round < 10; round++) {
      const [booker, reader] = round % 2 ? [ports[1], ports[0]] : [ports[0], ports[1]];
      await Promise.all([ours(reader), ours(reader, true)]);
      const booking = post(booker, '/api/class_reservations', { single_class_id: classId });
      const readers = keepReading(booking);
      const { class_reservation } = await booking;
      const [anonymous, mine] = await Promise.all([ours(reader), ours(reader, true)]);
      expect(anonymous.reservation_count).toBe(base + 1);
      expect(mine.class_reservations.map((r) => r.class_reservation_id)).toEqual([class_reservation.class_reservation_id]);

      const cancelling = post(reader, `/api/class_reservations/${class_reservation.class_reservation_id}/cancel`);
      const more = keepReading(cancelling);
      await cancelling;
      const [after, mineAfter] = await Promise.all([ours(booker), ours(booker, true)]);
      expect(after.reservation_count).toBe(base);
      expect(mineAfter.class_reservations).toEqual([]);
      await Promise.all([readers, more]);
    }
  }, 120_000);

  it('while an older transaction holds the horizon back, a booking is seen at once, and so is that transaction when it commits late', async () => {
    const old = await sql!.reserve();
    try {
      await old`begin`;
      // An id of its own: every pull and position stays below it until it ends.
      await old`select pg_current_xact_id()`;
      const [before] = await Promise.all([ours(ports[1]), ours(ports[0]), ours(ports[1], true)]);

      const { class_reservation } = await post(ports[0], '/api/class_reservations', { single_class_id: classId });
      // The shared part (the count, from memory) as well as the customer's own (read with the stamp).
      const [seen, mine] = await Promise.all([ours(ports[1]), ours(ports[1], true)]);
      expect(seen.reservation_count).toBe(before.reservation_count + 1);
      expect(mine.reservation_count).toBe(before.reservation_count + 1);
      expect(mine.class_reservations.map((r) => r.class_reservation_id)).toEqual([class_reservation.class_reservation_id]);

      await old`update single_class set description = 'Cambio tardío' where single_class_id = ${classId}`;
      expect((await ours(ports[1])).description).not.toBe('Cambio tardío');
      await old`commit`;
      expect((await ours(ports[1])).description).toBe('Cambio tardío');
      expect((await ours(ports[0])).description).toBe('Cambio tardío');
      await post(ports[1], `/api/class_reservations/${class_reservation.class_reservation_id}/cancel`);
    } finally {
      old.release();
    }
  }, 60_000);
});
