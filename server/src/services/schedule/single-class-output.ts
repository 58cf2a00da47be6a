import { classSeatMap, packageAccessStatuses, yearlessBirthdate, type SingleClassOutput } from '@estudio/core';
import { purchase } from '@estudio/db/schema/purchases';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { anyId, idArray, preparedStatement } from '@estudio/db/prepared';
import { class_type, instructor, location, room } from '@estudio/db/schema/catalogue';
import { file } from '@estudio/db/schema/content';
import { class_package } from '@estudio/db/schema/packages';
import { class_reservation, waitlist } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor, single_class_tag } from '@estudio/db/schema/schedule';
import { tag } from '@estudio/db/schema/videos';
import type { Db } from '../../db.ts';

export type SingleClassRow = typeof single_class.$inferSelect;

/** A class without the caller's own reservations and waitlist (lists of reservations and waitlists embed this). */
export type SingleClassPublicOutput = Omit<SingleClassOutput, 'class_reservations' | 'waitlist_id' | 'package_access'>;

const ofCustomer = sql.placeholder('customerId');

/**
 * A class's places and taken seats, aggregated over its live reservations
 * (grouped by single_class_id): each reservation takes one place and its guest
 * another (the spec's "a guest takes a place"); a guest's seat is taken like
 * anyone's. The week cache refreshes a week's places with the same
 * columns (week-cache.ts).
 */
export function placesColumns() {
  return {
    single_class_id: class_reservation.single_class_id,
    places: sql<number>`(count(*) + count(${class_reservation.guest}))::int`,
    spots: sql<number[] | null>`(select array_agg(s order by s) from unnest(array_agg(${class_reservation.spot}) || array_agg(${class_reservation.guest_spot})) s where s is not null)`,
  };
}

/** A class's places as the output gives them, from placesColumns' row (none: no live reservation). */
export function placesOf(row: { places: number; spots: number[] | null } | undefined): Pick<SingleClassOutput, 'reservation_count' | 'taken_spots'> {
  return { reservation_count: Number(row?.places ?? 0), taken_spots: (row?.spots ?? []).map(Number) };
}

/*
 * The statements of loadSingleClassOutputs, built once (db/src/prepared.ts):
 * the week's reload, the reservation lists and the confirmations all run
 * them, and drizzle built their text and mapping on every call.
 */
const classesStatement = preparedStatement((db) =>
  db
    .select({ c: single_class, ct: class_type, l: location, rm: { room_id: room.room_id, name: room.name, spot_map: room.spot_map }, event_name: class_package.title })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(location, eq(location.location_id, single_class.location_id))
    .leftJoin(room, eq(room.room_id, single_class.room_id))
    .leftJoin(class_package, eq(class_package.class_package_id, single_class.class_package_id))
    .where(anyId(single_class.single_class_id))
    .prepare('class_outputs'),
);
/** The places of the given classes (placesColumns), for `ids` as loadSingleClassOutputs passes them. */
const placesStatement = preparedStatement((db) =>
  db.select(placesColumns()).from(class_reservation).where(and(anyId(class_reservation.single_class_id), isNull(class_reservation.deletedAt))).groupBy(class_reservation.single_class_id).prepare('class_places'),
);
const instructorsStatement = preparedStatement((db) =>
  db
    .select({
      single_class_id: single_class_instructor.single_class_id,
      instructor_id: instructor.instructor_id,
      name: instructor.name,
      last_name: instructor.last_name,
      nick_name: instructor.nick_name,
      birthdate: instructor.birthdate,
      file_src: file.src,
      file_name: file.name,
      file_type: file.type,
    })
    .from(single_class_instructor)
    .innerJoin(instructor, eq(instructor.instructor_id, single_class_instructor.instructor_id))
    .leftJoin(file, eq(file.file_id, instructor.file_id))
    .where(anyId(single_class_instructor.single_class_id))
    .orderBy(asc(instructor.order), asc(instructor.instructor_id))
    .prepare('class_instructors'),
);
const tagsStatement = preparedStatement((db) =>
  db
    .select({ single_class_id: single_class_tag.single_class_id, tag_id: tag.tag_id, name: tag.name, color: tag.color })
    .from(single_class_tag)
    .innerJoin(tag, eq(tag.tag_id, single_class_tag.tag_id))
    .where(anyId(single_class_tag.single_class_id))
    .orderBy(asc(tag.name))
    .prepare('class_tags'),
);
const ownStatement = preparedStatement((db) =>
  db
    .select({
      single_class_id: class_reservation.single_class_id,
      class_reservation_id: class_reservation.class_reservation_id,
      spot: class_reservation.spot,
      guest: class_reservation.guest,
      guest_spot: class_reservation.guest_spot,
    })
    .from(class_reservation)
    .where(and(anyId(class_reservation.single_class_id), eq(class_reservation.customer_id, ofCustomer), isNull(class_reservation.deletedAt)))
    .orderBy(asc(class_reservation.class_reservation_id))
    .prepare('class_own_reservations'),
);
const waitsStatement = preparedStatement((db) =>
  db
    .select({ single_class_id: waitlist.single_class_id, waitlist_id: waitlist.waitlist_id })
    .from(waitlist)
    .where(and(anyId(waitlist.single_class_id), eq(waitlist.customer_id, ofCustomer)))
    .prepare('class_own_waits'),
);
/** The packages whose classes the caller may book (the booking's own rule: packageAccessStatuses). */
const accessStatement = preparedStatement((db) =>
  db
    .selectDistinct({ class_package_id: purchase.class_package_id })
    .from(purchase)
    .where(and(eq(purchase.customer_id, ofCustomer), inArray(purchase.status, packageAccessStatuses)))
    .prepare('class_package_access'),
);

/** The live places and taken seats of the given classes, by class (none: no live reservation; see placesOf). */
export async function loadPlaces(db: Db, ids: readonly number[]): Promise<{ single_class_id: number; places: number; spots: number[] | null }[]> {
  return ids.length === 0 ? [] : placesStatement(db, { ids: idArray(ids) });
}

/**
 * Builds the spec's single_class output for a set of classes in a fixed number
 * of queries, whatever the number of classes (no query per class): classes with
 * their class type, location and room, one aggregate of places and seats, instructors,
 * tags, and — for a signed-in customer — their own live reservations and
 * waitlist entries. The result keeps the order of `ids` (unknown ids are skipped).
 *
 * reservation_count counts places: each live reservation takes one, and its
 * guest takes another (the spec's "a guest takes a place").
 */
export async function loadSingleClassOutputs(db: Db, ids: readonly number[], customerId: number | null = null): Promise<SingleClassOutput[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];

  const values = { ids: idArray(unique), customerId };
  const [classes, counts, instructors, tags, own, waits, access] = await Promise.all([
    classesStatement(db, values),
    placesStatement(db, values),
    instructorsStatement(db, values),
    tagsStatement(db, values),
    customerId === null ? [] : ownStatement(db, values),
    customerId === null ? [] : waitsStatement(db, values),
    customerId === null ? [] : accessStatement(db, values),
  ]);
  const accessBy = new Set(access.map((a) => a.class_package_id));

  const countBy = new Map(counts.map((r) => [r.single_class_id, r]));
  const instructorsBy = groupBy(instructors, (r) => r.single_class_id);
  const tagsBy = groupBy(tags, (r) => r.single_class_id);
  const ownBy = groupBy(own, (r) => r.single_class_id);
  const waitBy = new Map(waits.map((w) => [w.single_class_id, w.waitlist_id]));
  const classBy = new Map(classes.map((r) => [r.c.single_class_id, r]));

  const out: SingleClassOutput[] = [];
  for (const id of ids) {
    const row = classBy.get(id);
    if (!row) continue;
    const { c, ct, l, rm, event_name } = row;
    const count = countBy.get(id);
    out.push({
      single_class_id: c.single_class_id,
      class_date: c.class_date.toISOString(),
      duration_minutes: c.duration_minutes,
      description: c.description,
      capacity: c.capacity,
      location_id: c.location_id,
      class_type_id: c.class_type_id,
      class_package_id: c.class_package_id,
      event_name: c.class_package_id === null ? null : event_name,
      icon: c.icon,
      class_series_id: c.class_series_id,
      cancelledAt: c.cancelledAt?.toISOString() ?? null,
      ...placesOf(count),
      class_type: {
        class_type_id: ct.class_type_id,
        name: ct.name,
        icon: ct.icon,
        description: ct.description,
        spot_map: ct.spot_map,
        color: ct.color,
        level: ct.level,
        what_to_bring: ct.what_to_bring,
      },
      location: { location_id: l.location_id, name: l.name, address: l.address },
      room_id: c.room_id,
      room: rm ? { room_id: rm.room_id, name: rm.name } : null,
      spot_map: classSeatMap(rm, ct),
      class_instructors: (instructorsBy.get(id) ?? []).map((i) => ({
        instructor_id: i.instructor_id,
        name: i.name,
        last_name: i.last_name,
        nick_name: i.nick_name,
        birthdate: yearlessBirthdate(i.birthdate),
        file: i.file_src === null ? null : { src: i.file_src, name: i.file_name, type: i.file_type },
      })),
      tags: (tagsBy.get(id) ?? []).map((t) => ({ tag_id: t.tag_id, name: t.name, color: t.color })),
      class_reservations: (ownBy.get(id) ?? []).map((r) => ({ class_reservation_id: r.class_reservation_id, spot: r.spot, guest: r.guest, guest_spot: r.guest_spot })),
      waitlist_id: waitBy.get(id) ?? null,
      package_access: c.class_package_id === null || accessBy.has(c.class_package_id),
    });
  }
  return out;
}

/** One class by id, or null. */
export async function loadSingleClassOutput(db: Db, id: number, customerId: number | null = null): Promise<SingleClassOutput | null> {
  const [one] = await loadSingleClassOutputs(db, [id], customerId);
  return one ?? null;
}

/** The class as lists of reservations and waitlists embed it (no caller-specific fields). */
export function toPublicSingleClass(output: SingleClassOutput): SingleClassPublicOutput {
  const { class_reservations: _own, waitlist_id: _wait, package_access: _access, ...rest } = output;
  return rest;
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}
