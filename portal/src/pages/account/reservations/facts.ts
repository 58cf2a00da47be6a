import {
  canRate,
  evaluateCancellation,
  isOn,
  reservationDisplayStatus,
  type AppConfigMap,
  type CancellationResult,
  type ReservationDisplayStatus,
} from '@estudio/core';
import type { ReservationWithClass } from '../../../booking/types.ts';

export interface ReservationFacts {
  status: ReservationDisplayStatus;
  cancellation: CancellationResult;
  canRate: boolean;
  /** The QR for the front desk: qrcode_enabled, for a live reservation of a class still ahead. */
  showAccessCode: boolean;
  canEditGuest: boolean;
  /** A live reservation of a class still ahead. */
  upcoming: boolean;
}

/** What Mis Reservaciones shows and offers for one reservation, from core's rules. */
export function reservationFacts(r: ReservationWithClass, config: AppConfigMap, now: Date, cancelsUsed: number): ReservationFacts {
  const classDate = r.single_class.class_date;
  const fields = { deletedAt: r.deletedAt, is_cash: r.is_cash, is_paid: r.is_paid, attend: r.attend, class_date: classDate };
  const ahead = !r.deletedAt && Date.parse(classDate) > now.getTime();
  return {
    status: reservationDisplayStatus(fields, now),
    cancellation: evaluateCancellation({ classDate, now, config, cancelsUsed, cancelled: Boolean(r.deletedAt) }),
    canRate: canRate({ ...fields, class_stars: r.class_stars }, config, now),
    showAccessCode: ahead && isOn(config.qrcode_enabled),
    canEditGuest: ahead && isOn(config.allow_class_guests) && Boolean(r.guest),
    upcoming: ahead,
  };
}

export const statusColor: Record<ReservationDisplayStatus, string> = {
  cancelled: 'gray',
  cashUnpaid: 'orange',
  noShow: 'red',
  attended: 'teal',
  upcoming: 'brand',
};
