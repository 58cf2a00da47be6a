import { configMap, packageAccessStatuses, type AppConfigEntry, type AppConfigMap } from '@estudio/core';
import { eq, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { ClassWithType } from './booking-locks.ts';

/** What one unlocked statement says about a booking before any lock is taken (see firstLook). */
export interface FirstLook {
  settings: AppConfigMap;
  /** Null when the class does not exist. */
  klass: ClassWithType | null;
  /** Places taken (live reservations plus their guests) when the statement ran. */
  places: number;
  /** Whether one of the asked seats was held when the statement ran. */
  spotTaken: boolean;
  /** The customer exists and is not deleted. */
  customerLive: boolean;
  /** The customer already holds a live booking of the class. */
  booked: boolean;
  /** The customer bought the class's package (true for a class open to every credit). */
  packageBought: boolean;
}

/**
 * The studio's settings, the class with its class type, its places taken, the
 * asked seats and what the customer has to do with it, in ONE statement without
 * a lock (decision 042). It is the booking's first look: a full class is refused
 * from it before any lock is taken, and the transaction after it reads the
 * class from it instead of again. Each part is true at the moment the statement
 * ran (READ COMMITTED: every commit before it, a cancellation included), so a
 * "full" from it was true after the request arrived; the count that books is
 * still the one under the class lock.
 */
export async function firstLook(db: Db, customerId: number, singleClassId: number, seats: readonly number[]): Promise<FirstLook> {
  let statement = prepared.get(db);
  if (!statement) prepared.set(db, (statement = prepareFirstLook(db)));
  const [row] = await statement.execute({ customerId, singleClassId, seats: `{${seats.map((s) => Math.trunc(s)).join(',')}}` });
  if (!row) {
    return { settings: await loadStudioSettings(db), klass: null, places: 0, spotTaken: false, customerLive: true, booked: false, packageBought: true };
  }
  return {
    settings: settingsOf(row.settings),
    klass: { ...row.c, class_type: row.ct },
    places: Number(row.places),
    spotTaken: row.spotTaken === true,
    customerLive: row.customerLive === true,
    booked: row.booked === true,
    packageBought: row.packageBought === true,
  };
}

/**
 * The first look's statement, built once per database handle (drizzle builds a
 * query's text on every call otherwise: the profile's largest cost after the
 * sockets). The seats travel as one int[] literal, so one text fits every booking.
 */
function prepareFirstLook(db: Db) {
  const statuses = sql.join(
    packageAccessStatuses.map((s) => sql`${s}`),
    sql`, `,
  );
  const classId = single_class.single_class_id;
  const customerId = sql.placeholder('customerId');
  const seats = sql`${sql.placeholder('seats')}::int[]`;
  return db
    .select({
      c: single_class,
      ct: class_type,
      places: sql<number>`(select (count(*) + count(r.guest))::int from class_reservation r where r.single_class_id = ${classId} and r.deleted_at is null)`,
      spotTaken: sql<boolean>`exists(select 1 from class_reservation r where r.single_class_id = ${classId} and r.deleted_at is null and (r.spot = any(${seats}) or r.guest_spot = any(${seats})))`,
      customerLive: sql<boolean>`exists(select 1 from customer cu where cu.customer_id = ${customerId} and cu.deleted_at is null)`,
      booked: sql<boolean>`exists(select 1 from class_reservation r where r.single_class_id = ${classId} and r.customer_id = ${customerId} and r.deleted_at is null)`,
      packageBought: sql<boolean>`(${single_class.class_package_id} is null or exists(select 1 from purchase p where p.customer_id = ${customerId} and p.class_package_id = ${single_class.class_package_id} and p.status in (${statuses})))`,
      settings: sql<string>`(select coalesce(json_agg(json_build_object('key', a.key, 'value', a.value)), '[]'::json)::text from app_config a)`,
    })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(classId, sql.placeholder('singleClassId')))
    .prepare('booking_first_look');
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareFirstLook>>();

/**
 * The settings as read by the statement, turned into a lookup once per text:
 * they change seldom, and parsing and checking every value was 1% of a rush's
 * CPU. Keyed by the exact text read, so a change counts from the next booking.
 * Frozen, since every booking shares it.
 */
let lastSettings: { text: string; map: AppConfigMap } | null = null;
function settingsOf(text: string): AppConfigMap {
  if (lastSettings?.text !== text) lastSettings = { text, map: Object.freeze(configMap(JSON.parse(text) as AppConfigEntry[])) };
  return lastSettings.map;
}
