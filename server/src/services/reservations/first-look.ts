import { configMap, packageAccessStatuses, type AppConfigEntry, type AppConfigMap } from '@estudio/core';
import { eq, sql } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { preparedStatement } from '@estudio/db/prepared';
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
    settings: await settingsStamped(db, row.settingsStamp),
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
      settingsStamp: sql<string>`(select ${settingsStampSql} from app_config a)`,
    })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(classId, sql.placeholder('singleClassId')))
    .prepare('booking_first_look');
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareFirstLook>>();

/**
 * The studio's settings fingerprinted in SQL: each key and value prefixed with
 * its length (so no value can pass for another split of the same text), in key
 * order, through md5. The first look reads these 32 characters instead of the
 * settings themselves (6 KB of JSON on the demo studio, built and sent on every
 * booking: issue 21), and the settings are read again only when it changes.
 */
const settingsStampSql = sql.raw(`md5(coalesce(string_agg(length(a.key) || ':' || a.key || length(a.value) || ':' || a.value, '' order by a.key), ''))`);

/** The settings with the fingerprint of that same read, so the copy is never filed under another version's stamp. */
const readStampedSettings = preparedStatement((db) =>
  db
    .select({
      stamp: sql<string>`${settingsStampSql}`,
      settings: sql<string>`coalesce(json_agg(json_build_object('key', a.key, 'value', a.value)), '[]'::json)::text`,
    })
    .from(sql`app_config a`)
    .prepare('studio_settings_stamped'),
);

/**
 * The settings as a lookup, kept in memory while their fingerprint stays the
 * same: they change seldom, and parsing and checking every value was 1% of a
 * rush's CPU. A change counts from the next booking's first look, which reads
 * the new stamp; a booking that raced the change reads the newer copy. Keyed by
 * content, so one copy serves every database of the process that holds the
 * same settings (the tests run several). Frozen, since every booking shares it.
 */
let lastSettings: { stamp: string; map: AppConfigMap } | null = null;
async function settingsStamped(db: Db, stamp: string): Promise<AppConfigMap> {
  if (lastSettings?.stamp === stamp) return lastSettings.map;
  // Read on this booking's own connection, even when others read at the same moment: a read shared across
  // bookings would run inside one of their transactions and fail with it.
  return readSettings(db);
}

async function readSettings(db: Db): Promise<AppConfigMap> {
  const [row] = await readStampedSettings(db);
  const read = { stamp: row?.stamp ?? '', map: Object.freeze(configMap(JSON.parse(row?.settings ?? '[]') as AppConfigEntry[])) };
  lastSettings = read;
  return read.map;
}
