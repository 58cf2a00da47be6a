import { accessCodeLink } from '@estudio/core';

/**
 * The QR's content: the spec's admin reservation link (the host may carry an
 * admin. prefix; the link keeps this origin) with the reservation's random
 * access code last, which is what the front desk admits by (decision 016).
 */
export function accessCodeUrl(reservationId: number, accessCode: string, origin = window.location.origin): string {
  return accessCodeLink(origin, reservationId, accessCode);
}
