import { studioDayjs } from './time.ts';

/**
 * Rooms of a location (decision 140): the Spanish words of their refusals,
 * composed here so the server builds no text by hand.
 */

/** How a class's place reads: 'Roma Norte · Salón A', or the location alone. */
export function placeLabel(locationName: string, roomName: string | null | undefined): string {
  return roomName ? `${locationName} · ${roomName}` : locationName;
}

/** A class's capacity over its room's, or null when the room does not cap it (no room, or a room without a capacity). */
export function roomCapacityRefusal(classCapacity: number, room: { name: string; capacity: number | null } | null | undefined): string | null {
  if (!room || room.capacity === null || classCapacity <= room.capacity) return null;
  return `El cupo de la clase (${classCapacity}) es mayor que el de ${room.name} (${room.capacity} ${room.capacity === 1 ? 'lugar' : 'lugares'}). Baja el cupo o elige otro salón.`;
}

/** A room's new capacity below a class still to come in it: names the first such class. */
export function roomCapacityBelowClassMessage(clash: { className: string; start: Date; capacity: number }, tz: string): string {
  const start = studioDayjs(clash.start, tz).locale('es');
  return `${clash.className} del ${start.format('dddd D [de] MMMM, HH:mm')} tiene cupo de ${clash.capacity}: el salón no puede tener menos. Baja antes el cupo de la clase o déjala en otro salón.`;
}

/** A room with classes still to come: how many and the first one's date. */
export function roomInUseMessage(upcoming: number, first: Date, tz: string): string {
  const day = studioDayjs(first, tz).locale('es').format('dddd D [de] MMMM');
  const classes = upcoming === 1 ? `una clase por venir, el ${day}. Cámbiala de salón o cancélala antes.` : `${upcoming} clases por venir, la primera el ${day}. Cámbialas de salón o cancélalas antes.`;
  return `No puedes eliminar este salón: tiene ${classes}`;
}
