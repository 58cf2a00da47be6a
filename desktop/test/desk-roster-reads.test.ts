import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openReplica, type ClientReplica } from '@estudio/sync/client/replica';
import { defaultStudioTimeZone } from '@estudio/core';
import { todayClasses, type DeskClass } from '../src/service/queries/today.ts';
import { studioDay } from '../src/service/time.ts';

/**
 * The desk reads today's rosters again after every change (a check-in, a
 * pulled row). It reads again only the classes whose reservations or
 * people changed; the others come from the last read. Whatever changes a
 * roster — a check-in, a new name, a cancellation, a reservation moved or
 * removed, a new one — shows at the next read.
 */
let replica: ClientReplica;
// Two classes an hour apart on the studio's day, whatever the hour the test runs at: in an hour and in two, or,
// after 22:00 in the studio (when the second would fall on the next day), two hours and one hour ago.
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const dayOf = (at: Date) => studioDay(at, defaultStudioTimeZone).date;
const classAt = dayOf(inMinutes(60)) === dayOf(inMinutes(120)) ? inMinutes(60) : inMinutes(-120);
const date = dayOf(classAt);
const [spinning, yoga] = [1, 2];

const classes = async () => new Map((await todayClasses(replica.db, date)).locations.flatMap((l) => l.classes).map((c) => [c.single_class_id, c]));
const roster = (c: DeskClass | undefined) => c?.roster.map((r) => `${r.class_reservation_id} ${r.name} ${r.last_name}${r.attend ? ' ✓' : ''}`);
const run = (query: ReturnType<typeof sql>) => replica.db.execute(query);

beforeAll(async () => {
  replica = await openReplica({ dataDir: 'memory://' });
  await run(sql`insert into location (location_id, name, address) values (1, 'Sala', 'Calle 1')`);
  await run(sql`insert into class_type (class_type_id, name) values (1, 'Cycling')`);
  await run(sql`insert into single_class (single_class_id, class_date, capacity, location_id, class_type_id)
    values (${spinning}, ${classAt.toISOString()}, 20, 1, 1), (${yoga}, ${new Date(classAt.getTime() + 3_600_000).toISOString()}, 20, 1, 1)`);
  await run(sql`insert into customer (customer_id, name, last_name, email) select g, 'Cliente' || g, 'Apellido', 'p' || g || '@correo.mx' from generate_series(1, 6) g`);
  // Spinning: reservations 1–3 (customers 1–3); yoga: 4–6 (customers 4–6).
  await run(sql`insert into class_reservation (class_reservation_id, single_class_id, customer_id)
    select g, case when g <= 3 then ${spinning}::int else ${yoga}::int end, g from generate_series(1, 6) g`);
});
afterAll(() => replica?.close());

describe('today’s rosters, read again after a change', () => {
  it('reads again the class that changed, and keeps the roster of the one that did not', async () => {
    const before = await classes();
    await run(sql`update class_reservation set attend = true, attended_at = now() where class_reservation_id = 2`);
    const after = await classes();
    expect([...after.keys()].sort()).toEqual([spinning, yoga]);
    expect(roster(after.get(spinning))).toEqual(['1 Cliente1 Apellido', '2 Cliente2 Apellido ✓', '3 Cliente3 Apellido']);
    expect(after.get(yoga)?.roster).toBe(before.get(yoga)?.roster);
  });

  it('shows a customer’s new name in every class they are in', async () => {
    await run(sql`update customer set name = 'Renata' where customer_id = 5`);
    expect(roster((await classes()).get(yoga))).toEqual(['4 Cliente4 Apellido', '6 Cliente6 Apellido', '5 Renata Apellido']);
  });

  it('drops a cancelled reservation and a removed one', async () => {
    await run(sql`update class_reservation set deleted_at = now() where class_reservation_id = 4`);
    await run(sql`delete from class_reservation where class_reservation_id = 1`);
    const now = await classes();
    expect(roster(now.get(yoga))).toEqual(['6 Cliente6 Apellido', '5 Renata Apellido']);
    expect(roster(now.get(spinning))).toEqual(['2 Cliente2 Apellido ✓', '3 Cliente3 Apellido']);
  });

  it('moves a reservation from one roster to the other, and adds a new one', async () => {
    await run(sql`update class_reservation set single_class_id = ${yoga} where class_reservation_id = 3`);
    await run(sql`insert into class_reservation (class_reservation_id, single_class_id, customer_id) values (7, ${spinning}, 1)`);
    const now = await classes();
    expect(roster(now.get(spinning))).toEqual(['7 Cliente1 Apellido', '2 Cliente2 Apellido ✓']);
    expect(roster(now.get(yoga))).toEqual(['3 Cliente3 Apellido', '6 Cliente6 Apellido', '5 Renata Apellido']);
    expect(now.get(yoga)?.places).toBe(3);
  });

  it('a cancelled reservation restored (a rollback) comes back, and a class emptied reads empty', async () => {
    await run(sql`update class_reservation set deleted_at = null where class_reservation_id = 4`);
    expect(roster((await classes()).get(yoga))).toContain('4 Cliente4 Apellido');
    await run(sql`update class_reservation set deleted_at = now() where single_class_id = ${spinning}`);
    expect((await classes()).get(spinning)?.roster).toEqual([]);
  });
});
