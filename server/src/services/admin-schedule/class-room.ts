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
export async function checkClassRoom(tx: Tx, roomId: number | null, locationId: number, capacity: number): Promise<RoomOfClass | null> {
  if (roomId === null) return null;
  const [row] = await tx
    .select({ room_id: room.room_id, name: room.name, capacity: room.capacity, location_id: room.location_id })
    .from(room)
    .where(and(eq(room.room_id, roomId), isNull(room.deletedAt)));
  if (!row) throw new DomainError('room/not-found');
  if (row.location_id !== locationId) throw new DomainError('room/other-location');
  const over = roomCapacityRefusal(capacity, row);
  if (over) throw new DomainError('room/over-capacity', over);
  return { room_id: row.room_id, name: row.name, capacity: row.capacity };
}
