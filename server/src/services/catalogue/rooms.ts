import {
  DomainError,
  roomCapacityBelowClassMessage,
  roomInUseMessage,
  studioTimeZone,
  type RoomCreateInput,
  type RoomOutput,
  type RoomUpdateInput,
} from '@estudio/core';
import { and, asc, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import { isUniqueViolation } from '@estudio/db/errors';
import { class_type, location, room } from '@estudio/db/schema/catalogue';
import { single_class } from '@estudio/db/schema/schedule';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { lockLocationSchedule } from '../admin-schedule/schedule-clash.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { definedOnly } from '../content/removed.ts';

/*
 * Rooms of a location (decision 140): each with its seat map and capacity.
 * Every change is in the activity log, in the transaction of the change.
 */

const columns = {
  room_id: room.room_id,
  location_id: room.location_id,
  name: room.name,
  capacity: room.capacity,
  spot_map: room.spot_map,
};

/** A second live room of the same name in one location is a 409, not a 500. */
async function nameFree<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('room/name-taken');
    throw error;
  }
}

/** GET /api/rooms?location_id=: the location's live rooms, by name. */
export async function listRooms(db: Db, locationId: number): Promise<{ rooms: RoomOutput[] }> {
  const rows = await db
    .select(columns)
    .from(room)
    .where(and(eq(room.location_id, locationId), isNull(room.deletedAt)))
    .orderBy(asc(room.name), asc(room.room_id));
  return { rooms: rows };
}

/** POST /api/rooms: a room of a location. Logged. */
export async function createRoom(db: Db, input: RoomCreateInput, actorId: number): Promise<{ room: RoomOutput }> {
  return nameFree(() =>
    db.transaction(async (tx) => {
      const [place] = await tx.select({ id: location.location_id }).from(location).where(eq(location.location_id, input.location_id));
      if (!place) throw new DomainError('location/not-found');
      const values = { location_id: input.location_id, name: input.name, capacity: input.capacity ?? null, spot_map: input.spot_map ?? null };
      const [row] = await tx.insert(room).values(values).returning(columns);
      if (!row) throw new DomainError('internal');
      await recordAudit(tx, { actorId, action: 'create', entity: 'room', entityId: row.room_id, changes: values });
      return { room: row };
    }),
  );
}

/** The live room, locked with its location's schedule, so no class is saved in it while it changes. */
async function lockRoom(tx: Tx, roomId: number) {
  const [found] = await tx.select({ location_id: room.location_id }).from(room).where(and(eq(room.room_id, roomId), isNull(room.deletedAt)));
  if (!found) throw new DomainError('room/not-found');
  await lockLocationSchedule(tx, found.location_id);
  const [row] = await tx.select().from(room).where(and(eq(room.room_id, roomId), isNull(room.deletedAt))).for('update');
  if (!row) throw new DomainError('room/not-found');
  return row;
}

/** The room's live classes still to start, soonest first. */
const upcomingIn = (roomId: number, now: Date) =>
  and(eq(single_class.room_id, roomId), isNull(single_class.cancelledAt), gte(single_class.class_date, now));

/**
 * PUT /api/rooms: changes what is sent. A capacity below that of a class still to come in the room is refused,
 * naming the class: its capacity is lowered first, or it moves to another room. Logged.
 */
export async function updateRoom(db: Db, input: RoomUpdateInput, actorId: number, now = new Date()): Promise<{ room: RoomOutput }> {
  const { room_id: roomId, ...fields } = input;
  const tz = studioTimeZone(await loadStudioSettings(db));
  return nameFree(() =>
    db.transaction(async (tx) => {
      const current = await lockRoom(tx, roomId);
      if (fields.capacity !== undefined && fields.capacity !== null && (current.capacity === null || fields.capacity < current.capacity)) {
        const [bigger] = await tx
          .select({ className: class_type.name, start: single_class.class_date, capacity: single_class.capacity })
          .from(single_class)
          .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
          .where(and(upcomingIn(roomId, now), gt(single_class.capacity, fields.capacity)))
          .orderBy(asc(single_class.class_date), asc(single_class.single_class_id))
          .limit(1);
        if (bigger) throw new DomainError('room/capacity-below-class', roomCapacityBelowClassMessage(bigger, tz));
      }
      const changes = definedOnly(fields);
      const [row] = await tx
        .update(room)
        .set({ ...changes, updatedAt: now })
        .where(eq(room.room_id, roomId))
        .returning(columns);
      if (!row) throw new DomainError('room/not-found');
      await recordAudit(tx, { actorId, action: 'update', entity: 'room', entityId: roomId, changes: { ...changes, location_id: row.location_id } });
      return { room: row };
    }),
  );
}

/**
 * DELETE /api/rooms/{room_id}: removes a room with no class still to come (its past classes keep it, for their
 * seat map and history); one with classes to come is a 409 saying how many and the first one's day. Logged.
 */
export async function removeRoom(db: Db, roomId: number, actorId: number, now = new Date()): Promise<{ room: RoomOutput }> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  return db.transaction(async (tx) => {
    await lockRoom(tx, roomId);
    const [upcoming] = await tx
      .select({ count: sql<number>`count(*)::int`, first: sql<Date | null>`min(${single_class.class_date})`.mapWith(single_class.class_date) })
      .from(single_class)
      .where(upcomingIn(roomId, now));
    if (upcoming && upcoming.count > 0 && upcoming.first) throw new DomainError('room/in-use', roomInUseMessage(upcoming.count, upcoming.first, tz));
    const [row] = await tx.update(room).set({ deletedAt: now, updatedAt: now }).where(eq(room.room_id, roomId)).returning(columns);
    if (!row) throw new DomainError('room/not-found');
    await recordAudit(tx, { actorId, action: 'delete', entity: 'room', entityId: roomId, changes: { name: row.name, location_id: row.location_id } });
    return { room: row };
  });
}
