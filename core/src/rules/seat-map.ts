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
