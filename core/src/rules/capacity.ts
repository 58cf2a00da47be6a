/** A live reservation as far as capacity is concerned. */
export interface ReservationPlaces {
  guest: string | null;
  deletedAt?: Date | string | null;
}

/** Places a booking takes: the customer, plus one for a guest. */
export function placesForBooking(guest: string | null | undefined): number {
  return guest ? 2 : 1;
}

/** Places taken by live reservations: each takes one, and its guest another. Cancelled rows are ignored. */
export function placesTaken(reservations: readonly ReservationPlaces[]): number {
  return reservations.reduce((sum, r) => (r.deletedAt ? sum : sum + placesForBooking(r.guest)), 0);
}

/** Spec: a class is full when the reservation count reaches capacity, or when data is missing. */
export function isClassFull(c: { capacity?: number | null; reservation_count?: number | null } | null | undefined): boolean {
  if (!c || typeof c.capacity !== 'number' || typeof c.reservation_count !== 'number') return true;
  return c.reservation_count >= c.capacity;
}

/** True when `extra` more places fit in the class. */
export function hasRoomFor(c: { capacity: number; reservation_count: number }, extra: number): boolean {
  return c.reservation_count + extra <= c.capacity;
}
