import type { BookingWindowConfig } from './booking-window.ts';
import { studioDayjs, type DateInput } from './time.ts';

/**
 * "Reservar cada semana": a customer keeps a place in the same class every
 * week. The place is a slot on the studio's wall clock (the class type, the
 * location, the weekday and the start time); a substitute coach does not
 * change it, a class moved to another hour is no longer it. Each week's class
 * is booked through the booking service like any other booking, once, as
 * soon as its booking opens; what it refuses is told to the customer.
 */
export interface StandingSlot {
  class_type_id: number;
  location_id: number;
  /** ISO weekday on the studio's clock: 1 Monday … 7 Sunday. */
  weekday: number;
  /** Minutes after local midnight of the start, e.g. 420 for 07:00. */
  start_minute: number;
}

interface SlotClass {
  class_date: DateInput;
  class_type_id: number;
  location_id: number;
}

/** The weekly slot a class is in, read on the studio's clock. */
export function weeklySlotOf(c: SlotClass, timeZone: string): StandingSlot {
  const local = studioDayjs(c.class_date, timeZone);
  return {
    class_type_id: c.class_type_id,
    location_id: c.location_id,
    weekday: ((local.day() + 6) % 7) + 1,
    start_minute: local.hour() * 60 + local.minute(),
  };
}

/** Whether a class falls in the slot (same discipline, place, weekday and start on the studio's clock). */
export function isInWeeklySlot(slot: StandingSlot, c: SlotClass, timeZone: string): boolean {
  const other = weeklySlotOf(c, timeZone);
  return (
    other.class_type_id === slot.class_type_id &&
    other.location_id === slot.location_id &&
    other.weekday === slot.weekday &&
    other.start_minute === slot.start_minute
  );
}

/**
 * How far ahead the clock books a slot's classes: as far as the studio opens
 * booking (reservation_opens_days), or a week when booking opens as soon as a
 * class is scheduled; a standing place never spends a month of credits at once.
 */
export function standingHorizonMs(config: BookingWindowConfig): number {
  const days = Math.floor(Number(config.reservation_opens_days));
  return (Number.isFinite(days) && days > 0 ? days : 7) * 86_400_000;
}

/** 'martes 07:00', the slot as a customer reads it. */
export function describeWeeklySlot(slot: Pick<StandingSlot, 'weekday' | 'start_minute'>): string {
  const day = weekdayNames[slot.weekday - 1] ?? '';
  const hh = String(Math.floor(slot.start_minute / 60)).padStart(2, '0');
  const mm = String(slot.start_minute % 60).padStart(2, '0');
  return `${day} ${hh}:${mm}`;
}

export const weekdayNames = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'] as const;
