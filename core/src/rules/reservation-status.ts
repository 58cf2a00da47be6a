import { texts } from '../texts.ts';
import { toMs, type DateInput } from './time.ts';

export const reservationDisplayStatuses = ['cancelled', 'cashUnpaid', 'noShow', 'attended', 'upcoming'] as const;
export type ReservationDisplayStatus = (typeof reservationDisplayStatuses)[number];

export interface ReservationStatusFields {
  deletedAt: DateInput | null;
  is_cash: boolean;
  is_paid: boolean;
  attend: boolean;
  /** Start of the reservation's class. */
  class_date: DateInput;
}

/**
 * The status shown for a reservation, evaluated in the spec's order:
 * Cancelada, Pago en Efectivo Incompleto, No Asistí (not attended and the
 * class start has passed), Exitosa, Próxima.
 */
export function reservationDisplayStatus(r: ReservationStatusFields, now: DateInput): ReservationDisplayStatus {
  if (r.deletedAt) return 'cancelled';
  if (r.is_cash && !r.is_paid) return 'cashUnpaid';
  if (!r.attend && toMs(r.class_date) < toMs(now)) return 'noShow';
  if (r.attend) return 'attended';
  return 'upcoming';
}

/** The Spanish label of a display status. */
export function reservationStatusText(status: ReservationDisplayStatus): string {
  return texts.reservationStatus[status];
}
