import { studioDayjs } from './time.ts';

/**
 * A class in the way of one being scheduled: in the same place at the same
 * time (the same room; the same location when either has no room: decisions
 * 135 and 140), or taught by one of the same coaches.
 */
export interface ScheduleClash {
  className: string;
  start: Date;
  minutes: number;
  locationName: string;
  /** The room the class in the way is in, named in the message when there is one. */
  roomName?: string | null | undefined;
  /** The coach who would teach both, or null when the clash is the place's. */
  coachName: string | null;
}

/** Two classes overlap when each starts before the other ends (one ending as the other starts does not). */
export function classesOverlap(a: { start: Date; minutes: number }, b: { start: Date; minutes: number }): boolean {
  return a.start.getTime() < b.start.getTime() + b.minutes * 60_000 && b.start.getTime() < a.start.getTime() + a.minutes * 60_000;
}

/**
 * The Spanish 409 that names the class in the way: 'Se cruza con Yoga del
 * martes 2 de diciembre, 07:00–08:00, en el Salón A de Roma Norte.' (or
 * 'en Roma Norte' without a room) or 'Ana López ya da Yoga …'; `more` other
 * classes in the way of a series are counted after it.
 */
export function scheduleClashMessage(clash: ScheduleClash, tz: string, more = 0): string {
  const start = studioDayjs(clash.start, tz).locale('es');
  const when = `${start.format('dddd D [de] MMMM, HH:mm')}–${start.add(clash.minutes, 'minute').format('HH:mm')}`;
  const where = clash.roomName ? `en el ${clash.roomName} de ${clash.locationName}` : `en ${clash.locationName}`;
  const first = clash.coachName
    ? `${clash.coachName} ya da ${clash.className} el ${when}, ${where}.`
    : `Se cruza con ${clash.className} del ${when}, ${where}.`;
  const others = more === 0 ? '' : more === 1 ? ' Y se cruza con 1 clase más.' : ` Y se cruza con ${more} clases más.`;
  return `${first}${others} Si es a propósito, confírmalo para guardarla de todos modos.`;
}

/** The 409 of a weekly template whose own times run into each other: 'Dos horarios se cruzan: el martes 8 de diciembre a las 07:00 y a las 07:30.' */
export function templateClashMessage(earlier: Date, later: Date, tz: string): string {
  const first = studioDayjs(earlier, tz).locale('es');
  const second = studioDayjs(later, tz).locale('es');
  const where = first.isSame(second, 'day') ? `el ${first.format('dddd D [de] MMMM')} a las ${first.format('HH:mm')} y a las ${second.format('HH:mm')}` : `el ${first.format('dddd D [de] MMMM, HH:mm')} y el ${second.format('dddd D [de] MMMM, HH:mm')}`;
  return `Dos horarios de la plantilla se cruzan: ${where}. Si es a propósito, confírmalo para guardarla de todos modos.`;
}
