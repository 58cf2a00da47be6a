import type { MessageParts } from '../compose.ts';

/**
 * "Reservar cada semana": the clock books each week's class like any other
 * booking; a booking it made is confirmed by the usual confirmation. When the
 * booking service refuses a week (no credits left, the class full, a
 * penalty), the customer is told which class was missed and why, while there
 * is still time to do something about it.
 * WhatsApp template: estudio_semanal_sin_lugar: {{1}} name, {{2}} class, {{3}} date and time, {{4}} the reason, {{5}} link to the class.
 */
export interface StandingBookingMissed {
  /** The customer's first name. */
  name: string | null;
  className: string;
  /** classWhen(…) of the class. */
  when: string;
  /** The booking service's Spanish refusal. */
  reason: string;
  /** The class in the portal's calendar. */
  classUrl: string;
}

export function standingBookingMissed(input: StandingBookingMissed): MessageParts {
  return {
    kind: 'standing-booking-missed',
    subject: `No pudimos reservar tu ${input.className} de cada semana`,
    greetingName: input.name,
    paragraphs: [
      `Intentamos reservar tu lugar de cada semana en ${input.className} del ${input.when}, pero no fue posible:`,
      input.reason,
      'Tu lugar de cada semana sigue activo: la próxima semana lo intentamos de nuevo.',
    ],
    details: [
      ['Clase', input.className],
      ['Fecha', input.when],
    ],
    action: { label: 'Ver la clase', url: input.classUrl },
    footnotes: ['Para dejar de reservar cada semana, entra a Mis Reservaciones.'],
    whatsapp: { template: 'estudio_semanal_sin_lugar', parameters: [input.name ?? '', input.className, input.when, input.reason, input.classUrl] },
  };
}
