import { configMap, heldSeats, packageAccessStatuses, type AppConfigEntry, type AppConfigMap } from '@estudio/core';
import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { classSpotMapSql } from '@estudio/db';
import { single_class } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { idArray, preparedStatement } from '@estudio/db/prepared';
import type { ClassWithType } from './booking-locks.ts';

/** What one unlocked statement says about a booking before any lock is taken (see firstLook). */
export interface FirstLook {
  /** Whose booking of which class and seats it was read for: another booking reads its own. */
  ask: FirstLookAsk & { customerId: number };
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

/** The class and the seats a first look is read for (the customer comes from the caller or the booking). */
export interface FirstLookAsk {
  singleClassId: number;
  /** The seats the booking holds (its own and its guest's), as createReservation counts them (seatsHeldBy). */
  seats: readonly number[];
}

/** The seats a booking holds: its own, and its guest's when it brings one (a guest seat without a guest is refused). */
export function seatsHeldBy(booking: { spot: number | null; guest: string | null; guestSpot: number | null }): number[] {
  return heldSeats({ spot: booking.spot, guest_spot: booking.guest === null ? null : booking.guestSpot });
}

/** Whether a first look was read for this very booking (same customer, class and seats). */
export function isFirstLookFor(first: FirstLook, customerId: number, singleClassId: number, seats: readonly number[]): boolean {
  const { ask } = first;
  return ask.customerId === customerId && ask.singleClassId === singleClassId && ask.seats.join(',') === seats.join(',');
}

/**
 * The booking a self-booking call asks for, read from its input as sent (the
 * middleware runs before the input is parsed), so the caller's token check can
 * carry its first look (decision 060). Null when the input does not plainly
 * name one class, or books for someone else (customer_id): that booking reads
 * its own. A misread costs only a second statement: createReservation uses a
 * first look only when it was read for the same customer, class and seats.
 */
export function firstLookAskOf(rawInput: unknown): FirstLookAsk | null {
  if (typeof rawInput !== 'object' || rawInput === null) return null;
  const input = rawInput as Record<string, unknown>;
  if (input.customer_id !== undefined) return null;
  const singleClassId = input.single_class_id;
  const spot = input.spot ?? null;
  const guestSpot = input.guest_spot ?? null;
  if (!isId(singleClassId) || (spot !== null && !isId(spot)) || (guestSpot !== null && !isId(guestSpot))) return null;
  const guest = typeof input.guest === 'string' ? input.guest.trim() || null : null;
  return { singleClassId, seats: seatsHeldBy({ spot, guest, guestSpot }) };
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * The studio's settings, the class with its class type, its places taken, the
 * asked seats and what the customer has to do with it, in ONE statement without
 * a lock (decision 042). It is the booking's first look: a full class is refused
 * from it before any lock is taken, and the transaction after it reads the
 * class from it instead of again. Each part is true at the moment the statement
 * ran (READ COMMITTED: every commit before it, a cancellation included), so a
 * "full" from it was true after the request arrived; the count that books is
 * still the one under the class lock. A customer booking for themselves gets it
 * from their token's check instead, read by the same statement (decision 060).
 */
export async function firstLook(db: Db, customerId: number, singleClassId: number, seats: readonly number[]): Promise<FirstLook> {
  let statement = prepared.get(db);
  if (!statement) prepared.set(db, (statement = prepareFirstLook(db)));
  const [row] = await statement.execute({ customerId, singleClassId, seats: idArray(seats) });
  const ask = { customerId, singleClassId, seats };
  if (!row) {
    return { ask, settings: await loadStudioSettings(db), klass: null, places: 0, spotTaken: false, customerLive: true, booked: false, packageBought: true };
  }
  return firstLookOfRow(db, ask, row);
}

/**
 * The first look's columns, for the customer `customerId` stands for (a bound
 * parameter here, the caller's customer row in the token's check) and the
 * class of the statement's `single_class` and `class_type`, the seats bound
 * as 'seats' (one int[] literal, idArray, so one text fits every booking).
 * One definition for both statements that read it.
 */
export function firstLookColumns(customerId: SQLWrapper) {
  const statuses = sql.join(
    packageAccessStatuses.map((s) => sql`${s}`),
    sql`, `,
  );
  const classId = single_class.single_class_id;
  const seats = sql`${sql.placeholder('seats')}::int[]`;
  return {
    c: single_class,
    ct: class_type,
    spot_map: classSpotMapSql(),
    places: sql<number>`(select (count(*) + count(r.guest))::int from class_reservation r where r.single_class_id = ${classId} and r.deleted_at is null)`,
    spotTaken: sql<boolean>`exists(select 1 from class_reservation r where r.single_class_id = ${classId} and r.deleted_at is null and (r.spot = any(${seats}) or r.guest_spot = any(${seats})))`,
    customerLive: sql<boolean>`exists(select 1 from customer cu where cu.customer_id = ${customerId} and cu.deleted_at is null)`,
    booked: sql<boolean>`exists(select 1 from class_reservation r where r.single_class_id = ${classId} and r.customer_id = ${customerId} and r.deleted_at is null)`,
    packageBought: sql<boolean>`(${single_class.class_package_id} is null or exists(select 1 from purchase p where p.customer_id = ${customerId} and p.class_package_id = ${single_class.class_package_id} and p.status in (${statuses})))`,
    settingsStamp: sql<string>`(select ${settingsStampSql} from app_config a)`,
  };
}

/** A row of firstLookColumns; the class and its type are null when a statement joined a class that does not exist. */
export interface FirstLookRow {
  c: typeof single_class.$inferSelect | null;
  ct: typeof class_type.$inferSelect | null;
  spot_map: string | null;
  places: number;
  spotTaken: boolean;
  customerLive: boolean;
  booked: boolean;
  packageBought: boolean;
  settingsStamp: string;
}

/** The first look a row of firstLookColumns says, with the settings its stamp names. */
export async function firstLookOfRow(db: Db, ask: FirstLook['ask'], row: FirstLookRow): Promise<FirstLook> {
  return {
    ask,
    settings: await settingsStamped(db, row.settingsStamp),
    klass: row.c && row.ct ? { ...row.c, class_type: row.ct, spot_map: row.spot_map } : null,
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
 * sockets).
 */
function prepareFirstLook(db: Db) {
  return db
    .select(firstLookColumns(sql.placeholder('customerId')))
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(single_class.single_class_id, sql.placeholder('singleClassId')))
    .prepare('booking_first_look');
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareFirstLook>>();

/**
 * The studio's settings fingerprinted in SQL: each key and value prefixed with
 * its length (so no value can pass for another split of the same text), in key
 * order, through md5. The first look reads these 32 characters instead of the
 * settings themselves (6 KB of JSON on the demo studio, built and sent on every
 * booking:), and the settings are read again only when it changes.
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
