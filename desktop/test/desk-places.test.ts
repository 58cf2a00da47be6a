import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openReplica, type ClientReplica } from '@estudio/sync/client/replica';
import { bookableClasses, todayClasses } from '../src/service/queries/today.ts';
import { defaultStudioTimeZone } from '@estudio/core';
import { studioDay } from '../src/service/time.ts';

/**
 * Places a class has taken, on the desk as on the server:
 * each live reservation takes one and its guest another (core's
 * `placesTaken`, the rule the server's booking and class list count with).
 * A class of 14 with 9 bookings, one with a guest, has 10 places taken.
 */
let replica: ClientReplica;
const now = new Date();

const classId = 1;

beforeAll(async () => {
  replica = await openReplica({ dataDir: 'memory://' });
  // The replica's tables take the server's ids as they are (no identity columns), so rows are written as the sync writes them.
  const at = new Date(now.getTime() + 60 * 60_000).toISOString();
  await replica.db.execute(sql`insert into location (location_id, name, address) values (1, 'Sala', 'Calle 1')`);
  await replica.db.execute(sql`insert into class_type (class_type_id, name) values (1, 'Cycling')`);
  await replica.db.execute(sql`insert into single_class (single_class_id, class_date, capacity, location_id, class_type_id) values (${classId}, ${at}, 14, 1, 1)`);
  await replica.db.execute(
    sql`insert into customer (customer_id, name, last_name, email) select g, 'Persona ' || g, 'Prueba', 'p' || g || '@correo.mx' from generate_series(1, 10) g`,
  );
  // Nine live bookings, the first with a guest; a cancelled booking with a guest takes no place.
  await replica.db.execute(
    sql`insert into class_reservation (class_reservation_id, single_class_id, customer_id, spot, guest, guest_spot, deleted_at)
      select g, ${classId}, g, g, case when g in (1, 10) then 'Invitada' end, case when g = 1 then 12 when g = 10 then 13 end, case when g = 10 then now() end
      from generate_series(1, 10) g`,
  );
});
afterAll(() => replica?.close());

describe('places taken on the desk', () => {
  it('counts each guest as a place in the walk-in list, as the server does', async () => {
    const [cls] = await bookableClasses(replica.db, now);
    expect(cls).toMatchObject({ single_class_id: classId, capacity: 14, booked: 10 });
    // The guest's seat is taken as her host's is; a cancelled booking's seats are free again.
    expect(cls?.takenSpots.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 12]);
  });

  it("counts them in today's class card too", async () => {
    // The class's own studio day (an hour from now may be tomorrow in Mexico City).
    const today = await todayClasses(replica.db, studioDay(new Date(now.getTime() + 60 * 60_000), defaultStudioTimeZone).date);
    const cls = today.locations.flatMap((l) => l.classes).find((c) => c.single_class_id === classId);
    expect(cls?.roster).toHaveLength(9);
    expect(cls?.places).toBe(10);
  });
});
