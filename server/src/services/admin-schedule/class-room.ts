import { DomainError, roomCapacityRefusal } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '@estudio/db';
import { room } from '@estudio/db/schema/catalogue';

export interface RoomOfClass {
  room_id: number;
  name: string;
  capacity: number | null;
}

/**
 * The room a class is put in (decision 140), checked: a live room of the
 * class's own location, whose capacity, when it states one, the class's does
 * not exceed. Null when the class has no room.
 */
export async function checkClassRoom(
  tx: Tx,
  roomId: number | null,
  locationId: number,
  capacity: number,
  read: (roomId: number) => Promise<RoomRow | undefined> = (id) => readRoom(tx, id),
): Promise<RoomOfClass | null> {
  if (roomId === null) return null;
  const row = await read(roomId);
  if (!row) throw new DomainError('room/not-found');
  if (row.location_id !== locationId) throw new DomainError('room/other-location');
  const over = roomCapacityRefusal(capacity, row);
  if (over) throw new DomainError('room/over-capacity', over);
  return { room_id: row.room_id, name: row.name, capacity: row.capacity };
}

type RoomRow = RoomOfClass & { location_id: number };

async function readRoom(tx: Tx, roomId: number): Promise<RoomRow | undefined> {
  const [row] = await tx
    .select({ room_id: room.room_id, name: room.name, capacity: room.capacity, location_id: room.location_id })
    .from(room)
    .where(and(eq(room.room_id, roomId), isNull(room.deletedAt)));
  return row;
}

/** A reader for an edit of many classes: each room is read once, and each class is still checked against it. */
export function roomsReadOnce(tx: Tx): (roomId: number) => Promise<RoomRow | undefined> {
  const read = new Map<number, Promise<RoomRow | undefined>>();
  return (roomId) => {
    let row = read.get(roomId);
    if (!row) read.set(roomId, (row = readRoom(tx, roomId)));
    return row;
  };
}
