import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '@estudio/db';
import { class_reservation, class_type, classSpotMapSql, customer, instructor, location, room, single_class, single_class_instructor } from '@estudio/db';
import { placeLabel, placesTaken } from '@estudio/core';
import { iso, replicaTimeZone, studioDay } from '../time.ts';

export interface RosterEntry {
  class_reservation_id: number;
  customer_id: number;
  name: string;
  last_name: string;
  spot: number | null;
  guest: string | null;
  guest_spot: number | null;
  is_cash: boolean;
  is_paid: boolean;
  attend: boolean;
  attendedAt: string | null;
}

export interface DeskClass {
  single_class_id: number;
  class_date: string;
  duration_minutes: number;
  capacity: number;
  class_type_id: number;
  class_type: string;
  /** The class's seat map: its room's, else its type's (classSpotMapSql). */
  spot_map: string | null;
  location_id: number;
  location: string;
  /** The room of the location, if the class is in one. */
  room: string | null;
  instructors: string[];
  cancelledAt: string | null;
  /** Live reservations, by seat, name, then booking. */
  roster: RosterEntry[];
  /** Places taken: each reservation one, its guest another (core's `placesTaken`, as the server counts). */
  places: number;
}

export interface TodayOutput {
  date: string;
  locations: { location_id: number; name: string; classes: DeskClass[] }[];
}

/** Classes between two instants with their live rosters, in start order. */
export async function classesBetween(db: Db, from: Date, to: Date, only?: number[]): Promise<DeskClass[]> {
  const rows = await db
    .select({
      single_class_id: single_class.single_class_id,
      class_date: single_class.class_date,
      duration_minutes: single_class.duration_minutes,
      capacity: single_class.capacity,
      class_type_id: single_class.class_type_id,
      class_type: class_type.name,
      spot_map: classSpotMapSql(),
      location_id: single_class.location_id,
      location: location.name,
      room: sql<string | null>`(select r.name from ${room} r where r.room_id = ${single_class.room_id})`,
      cancelledAt: single_class.cancelledAt,
    })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(location, eq(location.location_id, single_class.location_id))
    .where(
      and(
        gte(single_class.class_date, from),
        lt(single_class.class_date, to),
        only ? inArray(single_class.single_class_id, only.length ? only : [-1]) : undefined,
      ),
    )
    .orderBy(asc(single_class.class_date), asc(location.order), asc(single_class.single_class_id));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.single_class_id);
  const [rosters, coaches] = await Promise.all([
    rostersOf(db, ids),
    db
      .select({ single_class_id: single_class_instructor.single_class_id, name: instructor.name, nick_name: instructor.nick_name })
      .from(single_class_instructor)
      .innerJoin(instructor, eq(instructor.instructor_id, single_class_instructor.instructor_id))
      .where(inArray(single_class_instructor.single_class_id, ids)),
  ]);
  return rows.map((r) => {
    const roster = rosters.get(r.single_class_id) ?? [];
    return {
      ...r,
      class_date: r.class_date.toISOString(),
      cancelledAt: iso(r.cancelledAt),
      instructors: coaches.filter((c) => c.single_class_id === r.single_class_id).map((c) => c.nick_name || c.name),
      roster,
      places: placesTaken(roster),
    };
  });
}

/** A class's roster as last read, and the version of its rows it was read at (`rosterVersions`). */
interface RosterRead {
  version: string;
  roster: RosterEntry[];
}

/** Per replica, by class: its roster as last read. Callers share these arrays and never change them. */
const rostersRead = new WeakMap<Db, Map<number, RosterRead>>();
/** Rosters kept beyond the ones asked for: about a busy week of classes, a few hundred kilobytes. */
const ROSTERS_KEPT = 500;
/** The version of a class without live reservations (`rosterVersions` returns none for it). */
const NO_RESERVATIONS = 'none';

/**
 * The live rosters of these classes. The desk reads them again after every
 * change (each check-in, each pulled page); only the classes whose rows
 * changed since their last read are read again, the others come from it.
 * Reading a person's row costs the desk's PGlite far more in JavaScript
 * (its wire format) than finding the changed classes costs in SQL.
 */
async function rostersOf(db: Db, ids: number[]): Promise<Map<number, RosterEntry[]>> {
  let read = rostersRead.get(db);
  if (!read) rostersRead.set(db, (read = new Map()));
  const versions = await rosterVersions(db, ids);
  const version = (id: number) => versions.get(id) ?? NO_RESERVATIONS;
  const stale = ids.filter((id) => read.get(id)?.version !== version(id));
  if (stale.length) {
    const people = await rosterRows(db, stale);
    for (const id of stale) {
      // Rows read after their version was: at worst newer than it, and read again next time.
      const roster = people.filter((p) => p.single_class_id === id).map(({ single_class_id: _, attendedAt, ...p }) => ({ ...p, attendedAt: iso(attendedAt) }));
      read.delete(id);
      read.set(id, { version: version(id), roster });
    }
  }
  const wanted = new Set(ids);
  for (const id of read.keys()) {
    if (read.size <= ROSTERS_KEPT + wanted.size) break;
    if (!wanted.has(id)) read.delete(id);
  }
  return new Map(ids.map((id) => [id, read.get(id)?.roster ?? []]));
}

/**
 * Each class's version: how many live reservations it has, and the sums of
 * the transaction ids that wrote their rows and their people's rows
 * (PostgreSQL's `xmin`). A write gives a row a transaction id newer than
 * every row's before it, so any change to the set — a row written, added,
 * cancelled, removed or moved to another class, a person renamed — changes
 * the count or raises a sum; no change leaves a version as it was. A class
 * without reservations has none.
 */
async function rosterVersions(db: Db, ids: number[]): Promise<Map<number, string>> {
  const person = db
    .select({ xmin: sql<string>`${customer}.xmin`.as('person_xmin') })
    .from(customer)
    .where(eq(customer.customer_id, class_reservation.customer_id))
    .limit(1)
    .as('person');
  const rows = await db
    .select({
      single_class_id: class_reservation.single_class_id,
      version: sql<string>`count(*) || ':' || sum(${class_reservation}.xmin::text::bigint) || ':' || sum(${person.xmin}::text::bigint)`,
    })
    .from(class_reservation)
    .crossJoinLateral(person)
    .where(and(inArray(class_reservation.single_class_id, ids), isNull(class_reservation.deletedAt)))
    .groupBy(class_reservation.single_class_id);
  return new Map(rows.map((r) => [r.single_class_id, r.version]));
}

/** The live reservations of these classes with their people, by seat, name, then booking. */
function rosterRows(db: Db, ids: number[]) {
  // Each person's name through the customer's key, a lookup per reservation. Joined as a table, the planner hashed
  // every customer of the studio for a day of a few hundred reservations: 18 ms for 20,000 customers, against 2.6 ms
  // with the lookups. LIMIT (one customer per key) keeps the subquery from being merged back into that join.
  const who = db
    .select({ name: customer.name, last_name: customer.last_name })
    .from(customer)
    .where(eq(customer.customer_id, class_reservation.customer_id))
    .limit(1)
    .as('who');
  return (
    db
      .select({
        single_class_id: class_reservation.single_class_id,
        class_reservation_id: class_reservation.class_reservation_id,
        customer_id: class_reservation.customer_id,
        name: who.name,
        last_name: who.last_name,
        spot: class_reservation.spot,
        guest: class_reservation.guest,
        guest_spot: class_reservation.guest_spot,
        is_cash: class_reservation.is_cash,
        is_paid: class_reservation.is_paid,
        attend: class_reservation.attend,
        attendedAt: class_reservation.attendedAt,
      })
      .from(class_reservation)
      .crossJoinLateral(who)
      .where(and(inArray(class_reservation.single_class_id, ids), isNull(class_reservation.deletedAt)))
      // The reservation last: people of the same name keep their order however often their rows are written.
      .orderBy(sql`${class_reservation.spot} asc nulls last`, asc(who.name), asc(who.last_name), asc(class_reservation.class_reservation_id))
  );
}

/** Today's classes (studio time) grouped by location; every open location gets a tab even on a day without classes. */
export async function todayClasses(db: Db, date?: string): Promise<TodayOutput> {
  const day = studioDay(date ?? new Date(), await replicaTimeZone(db));
  const [classes, places] = await Promise.all([
    classesBetween(db, day.start, day.end),
    db.select({ location_id: location.location_id, name: location.name, available: location.available }).from(location).orderBy(asc(location.order), asc(location.location_id)),
  ]);
  return {
    date: day.date,
    locations: places
      .map((p) => ({ location_id: p.location_id, name: p.name, available: p.available, classes: classes.filter((c) => c.location_id === p.location_id) }))
      .filter((p) => p.available || p.classes.length > 0)
      .map(({ available: _, ...p }) => p),
  };
}

export interface BookableClass {
  single_class_id: number;
  class_date: string;
  class_type: string;
  location: string;
  instructors: string[];
  capacity: number;
  booked: number;
  spot_map: string | null;
  takenSpots: number[];
  /** Customers already booked (a walk-in cannot book the same person twice). */
  customerIds: number[];
}

/** Classes a walk-in can go into: not cancelled, from today (studio time) through the next week. */
export async function bookableClasses(db: Db, now = new Date(), days = 7): Promise<BookableClass[]> {
  const day = studioDay(now, await replicaTimeZone(db));
  const until = new Date(day.start.getTime() + (days + 1) * 86_400_000);
  const classes = await classesBetween(db, day.start, until);
  return classes
    .filter((c) => !c.cancelledAt && new Date(c.class_date).getTime() + c.duration_minutes * 60_000 > now.getTime())
    .map((c) => ({
      single_class_id: c.single_class_id,
      class_date: c.class_date,
      class_type: c.class_type,
      location: placeLabel(c.location, c.room),
      instructors: c.instructors,
      capacity: c.capacity,
      /** Places taken, guests included (the server's count). */
      booked: c.places,
      spot_map: c.spot_map,
      // A guest sits in a seat too.
      takenSpots: c.roster.flatMap((r) => [r.spot, r.guest_spot].filter((seat): seat is number => seat !== null)),
      customerIds: c.roster.map((r) => r.customer_id),
    }));
}
