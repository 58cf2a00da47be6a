/**
 * Seat maps. A class type's spot_map lists seats per row, back row first
 * ('4,6,6': 4 seats at the back, then two rows of 6 in front, next to the
 * coach). Seats are numbered from the back row, left to right, starting at 1.
 */

/** Seats per row (back row first), or null when there is no usable map. */
export function parseSpotMap(spotMap: string | null | undefined): number[] | null {
  if (!spotMap || !spotMap.trim()) return null;
  const parts = spotMap.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d+$/.test(part))) return null;
  const rows = parts.map(Number);
  return rows.reduce((sum, n) => sum + n, 0) > 0 ? rows : null;
}

export interface SeatRow {
  /** 1 is the back row. */
  row: number;
  seats: number[];
}

/** Rows in display order: back row at the top, the front row last (above the 'Coach' bar). */
export function seatRows(spotMap: string | null | undefined): SeatRow[] {
  const rows = parseSpotMap(spotMap);
  if (!rows) return [];
  let next = 1;
  return rows.map((count, index) => {
    const seats = Array.from({ length: count }, (_, i) => next + i);
    next += count;
    return { row: index + 1, seats };
  });
}

/** Number of seats on the map (0 without a map). */
export function totalSeats(spotMap: string | null | undefined): number {
  return (parseSpotMap(spotMap) ?? []).reduce((sum, n) => sum + n, 0);
}

/** True when the seat exists on the map. */
export function isValidSpot(spotMap: string | null | undefined, spot: number): boolean {
  return Number.isInteger(spot) && spot >= 1 && spot <= totalSeats(spotMap);
}

export type SeatState = 'free' | 'taken' | 'closed';

/**
 * A class's seats as someone taking a new place sees them: a seat someone (or their guest) sits in is taken; once
 * no place is left every other seat is closed, since a class's capacity can be below its type's map (a class of 3
 * in a room of 8 bikes is full at 3, whatever seats are empty).
 */
export function seatStates(spotMap: string | null | undefined, taken: readonly number[], placesLeft: number): { row: number; seats: { seat: number; state: SeatState }[] }[] {
  const occupied = new Set(taken);
  return seatRows(spotMap).map((row) => ({
    row: row.row,
    seats: row.seats.map((seat) => ({ seat, state: occupied.has(seat) ? 'taken' : placesLeft > 0 ? 'free' : 'closed' })),
  }));
}

/**
 * A class's seat map (decision 140): its room's when the class is in a room that has one, else its class type's.
 * The one rule every reader follows; SQL readers use classSpotMapSql (db), the same coalesce.
 */
export function classSeatMap(room: { spot_map: string | null } | null | undefined, classType: { spot_map: string | null }): string | null {
  return room?.spot_map ?? classType.spot_map;
}
