import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openReplica, type ClientReplica } from '@estudio/sync/client/replica';
import { todayClasses } from '../src/service/queries/today.ts';
import { defaultStudioTimeZone } from '@estudio/core';
import { studioDay } from '../src/service/time.ts';

/**
 * A roster reads in the same order every time: by seat, by name, and people
 * of the same name by when they booked. Without the last key, two María
 * García swapped places whenever a row was written again (a check-in writes
 * it), and the Today screen drew the whole roster again for a change of order.
 */
let replica: ClientReplica;
const classAt = new Date(Date.now() + 60 * 60_000);
const classId = 1;

const rosterIds = async () => {
  const today = await todayClasses(replica.db, studioDay(classAt, defaultStudioTimeZone).date);
  return today.locations.flatMap((l) => l.classes).find((c) => c.single_class_id === classId)?.roster.map((r) => r.class_reservation_id);
};

beforeAll(async () => {
  replica = await openReplica({ dataDir: 'memory://' });
  await replica.db.execute(sql`insert into location (location_id, name, address) values (1, 'Sala', 'Calle 1')`);
  await replica.db.execute(sql`insert into class_type (class_type_id, name) values (1, 'Cycling')`);
  await replica.db.execute(sql`insert into single_class (single_class_id, class_date, capacity, location_id, class_type_id) values (${classId}, ${classAt.toISOString()}, 20, 1, 1)`);
  // Six customers named alike, two named otherwise, none with a seat.
  await replica.db.execute(
    sql`insert into customer (customer_id, name, last_name, email)
      select g, case when g <= 6 then 'María' else 'Ana' end, case when g <= 6 then 'García' else 'Zúñiga' end, 'p' || g || '@correo.mx'
      from generate_series(1, 8) g`,
  );
  await replica.db.execute(
    sql`insert into class_reservation (class_reservation_id, single_class_id, customer_id) select g, ${classId}, g from generate_series(1, 8) g`,
  );
});
afterAll(() => replica?.close());

describe("a roster's order", () => {
  it('is seat, name, then the booking: the same after rows are written again', async () => {
    expect(await rosterIds()).toEqual([7, 8, 1, 2, 3, 4, 5, 6]);
    // Check-ins write rows again, in another order than they were booked.
    for (const id of [3, 1, 5, 8]) await replica.db.execute(sql`update class_reservation set attend = true where class_reservation_id = ${id}`);
    expect(await rosterIds()).toEqual([7, 8, 1, 2, 3, 4, 5, 6]);
  });
});
