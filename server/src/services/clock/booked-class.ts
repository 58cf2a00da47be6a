import { formatAccessCode, type SingleClassOutput } from '@estudio/core';
import { classWhen, type BookedClass } from '@estudio/core/messages/templates/bookings';
import type { MessageContext } from '../messages/message-context.ts';

/** The coaches of a class as the portal names them (nickname, else name and last name). */
export function coachNames(instructors: SingleClassOutput['class_instructors']): string {
  return instructors.map((i) => i.nick_name?.trim() || [i.name, i.last_name].filter(Boolean).join(' ')).join(', ');
}

/** The portal's Mis Reservaciones (each booking's QR and access code are there). */
export const reservationsUrlOf = (ctx: MessageContext) => `${ctx.publicUrl}/mystudio/reservaciones`;

/** What a booking message says about the class (studio time). */
export function bookedClassFacts(
  ctx: MessageContext,
  c: SingleClassOutput,
  reservation: { access_code: string; spot: number | null; guest: string | null; guest_spot: number | null },
  name: string | null,
  tz: string,
): BookedClass {
  return {
    name: name?.trim() || null,
    className: c.class_type.name,
    when: classWhen(c.class_date, tz),
    coach: coachNames(c.class_instructors),
    location: [c.location.name, c.location.address].filter((s) => s?.trim()).join(' · '),
    spot: reservation.spot,
    guest: reservation.guest ? { name: reservation.guest, spot: reservation.guest_spot } : null,
    accessCode: formatAccessCode(reservation.access_code),
    reservationsUrl: reservationsUrlOf(ctx),
  };
}
