import { studioDayjs, type DateInput } from '../../rules/time.ts';
import type { MessageAttachment, MessageParts } from '../compose.ts';

/**
 * Booking messages written by the studio's clock (decision 021):
 * the confirmation of a booking, the reminder before the class, the penalty
 * after consecutive no-shows with an unlimited membership, and a cash hold
 * that expired. WhatsApp templates (registered by the studio, parameters in
 * this order):
 *  - estudio_confirmacion: {{1}} name, {{2}} class, {{3}} date and time, {{4}} coach, {{5}} location, {{6}} access code, {{7}} Mis Reservaciones link.
 *  - estudio_recordatorio: {{1}} name, {{2}} class, {{3}} date and time, {{4}} location, {{5}} access code.
 *  - estudio_penalizacion: {{1}} name, {{2}} no-shows, {{3}} the date booking resumes.
 *  - estudio_compra_vencida: {{1}} name, {{2}} package, {{3}} link to buy it again.
 *  - estudio_cancelacion: {{1}} name, {{2}} class, {{3}} date and time, {{4}} what happened to the credit.
 * The location parameter carries the seats too ('Sala Norte · Lugar 7'), so the registered templates keep their parameters.
 */

/** 'martes 5 de enero, 07:00' on the studio's clock. */
export function classWhen(date: DateInput, tz: string): string {
  return studioDayjs(date, tz).locale('es').format('dddd D [de] MMMM, HH:mm');
}

export interface BookedClass {
  /** The customer's first name. */
  name: string | null;
  className: string;
  /** classWhen(…) of the class. */
  when: string;
  /** The coaches' names, or '' when the class has none. */
  coach: string;
  /** 'Sala Norte · Av. Reforma 123'. */
  location: string;
  /** The customer's seat (bike, reformer…) on a class with a seat map, or null. */
  spot: number | null;
  /** The guest who comes with the customer, and the guest's seat. */
  guest: { name: string; spot: number | null } | null;
  /** formatAccessCode(…): 'K7M2Q-9XHPT'. */
  accessCode: string;
  /** The portal's Mis Reservaciones, where the QR is. */
  reservationsUrl: string;
}

export interface BookingConfirmation extends BookedClass {
  /** cancellationRuleText(settings): the notice period, or that classes cannot be cancelled. */
  cancelRule: string;
  /**
   * Until when cancelling gives the credit back (classWhen); 'late' when that moment had already passed when the
   * class was booked (a Sunday 10:00 class booked on Saturday night); null when cancelling is off.
   */
  cancelUntil: string | 'late' | null;
  /** The customer's private calendar feed (subscribe once in Google/Apple Calendar). */
  calendarUrl: string;
  /** The .ics invitation of this class. */
  invitation: MessageAttachment;
}

/** 'Lugar 7' and, with a guest, 'Ana (lugar 8)': what the customer holds in the class. */
export function seatText(input: Pick<BookedClass, 'spot' | 'guest'>): string {
  const parts = [input.spot != null ? `Lugar ${input.spot}` : null, input.guest ? `invitado: ${input.guest.name}${input.guest.spot != null ? ` (lugar ${input.guest.spot})` : ''}` : null];
  return parts.filter(Boolean).join(' · ');
}

function classDetails(input: BookedClass): [string, string][] {
  const rows: [string, string][] = [
    ['Clase', input.className],
    ['Fecha', input.when],
  ];
  if (input.coach) rows.push(['Coach', input.coach]);
  // The studio is where to go; 'Lugar' is the seat (the bike, the reformer) the customer holds.
  rows.push(['Estudio', input.location]);
  if (input.spot != null) rows.push(['Tu lugar', String(input.spot)]);
  if (input.guest) rows.push(['Tu invitado', input.guest.spot != null ? `${input.guest.name}, lugar ${input.guest.spot}` : input.guest.name]);
  rows.push(['Código de acceso', input.accessCode]);
  return rows;
}

/** The template's location parameter ({{5}}, {{4}}): the studio, and the seats when there are any. */
const locationParameter = (input: BookedClass) => [input.location, seatText(input)].filter(Boolean).join(' · ');

/** How cancelling works for a new booking, in one sentence. */
export function confirmationCancelLine(input: Pick<BookingConfirmation, 'cancelRule' | 'cancelUntil'>): string {
  if (input.cancelUntil === null) return `${input.cancelRule}.`;
  if (input.cancelUntil === 'late') {
    return 'Esta clase ya no se puede cancelar con devolución del crédito: reservaste dentro del plazo de cancelación. Si no puedes venir, cancela de todos modos para liberar tu lugar.';
  }
  return `${input.cancelRule}: cancela desde Mis Reservaciones a más tardar el ${input.cancelUntil}.`;
}

export function bookingConfirmation(input: BookingConfirmation): MessageParts {
  return {
    kind: 'booking-confirmation',
    subject: `Reservación confirmada: ${input.className}, ${input.when}`,
    greetingName: input.name,
    paragraphs: [
      `¡Tu lugar en ${input.className} está reservado! Te esperamos el ${input.when}.`,
      'En la recepción muestra tu código QR (está en Mis Reservaciones) o dicta tu código de acceso.',
    ],
    details: classDetails(input),
    action: { label: 'Ver mis reservaciones', url: input.reservationsUrl },
    footnotes: [
      confirmationCancelLine(input),
      'Adjuntamos la invitación para tu calendario.',
      `¿Quieres ver todas tus clases en tu calendario (Google, Apple)? Suscríbete a tu calendario personal: ${input.calendarUrl}`,
    ],
    attachments: [input.invitation],
    whatsapp: {
      template: 'estudio_confirmacion',
      parameters: [input.name ?? '', input.className, input.when, input.coach || '—', locationParameter(input), input.accessCode, input.reservationsUrl],
    },
  };
}

export interface ClassReminder extends BookedClass {
  /** 'en 2 horas' */
  startsIn: string;
}

/** 'en 2 horas', 'en 1 hora', 'en 45 minutos'. */
export function startsIn(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
  const hours = Math.round(minutes / 60);
  return `en ${hours} ${hours === 1 ? 'hora' : 'horas'}`;
}

export function classReminder(input: ClassReminder): MessageParts {
  return {
    kind: 'class-reminder',
    subject: `Recordatorio: ${input.className} ${input.startsIn}`,
    greetingName: input.name,
    paragraphs: [`Tu clase de ${input.className} empieza ${input.startsIn} (${input.when}). ¡Te esperamos!`],
    details: classDetails(input),
    action: { label: 'Ver mi código QR', url: input.reservationsUrl },
    footnotes: ['Si ya no puedes venir, cancela desde Mis Reservaciones para que alguien más tome tu lugar.'],
    whatsapp: {
      template: 'estudio_recordatorio',
      parameters: [input.name ?? '', input.className, input.when, locationParameter(input), input.accessCode],
    },
  };
}

export interface NoShowPenalty {
  name: string | null;
  noShows: number;
  /** penaltyDetailText(…): the spec's explanation with the date booking resumes. */
  detail: string;
  /** The date booking resumes (formatDate). */
  resumes: string;
  scheduleUrl: string;
}

export function noShowPenalty(input: NoShowPenalty): MessageParts {
  return {
    kind: 'no-show-penalty',
    subject: 'Tu membresía ilimitada tiene una penalización',
    greetingName: input.name,
    paragraphs: [input.detail, 'Mientras tanto puedes reservar con otros paquetes que tengas. Si crees que es un error, escríbenos.'],
    details: [
      ['Inasistencias consecutivas', String(input.noShows)],
      ['Puedes volver a reservar', input.resumes],
    ],
    action: { label: 'Ver el calendario', url: input.scheduleUrl },
    whatsapp: { template: 'estudio_penalizacion', parameters: [input.name ?? '', String(input.noShows), input.resumes] },
  };
}

export interface HoldExpired {
  name: string | null;
  packageTitle: string;
  /** When the purchase was made (formatDateTime). */
  madeAt: string;
  /** The package's checkout, to buy it again. */
  buyUrl: string;
}

export function holdExpired(input: HoldExpired): MessageParts {
  return {
    kind: 'hold-expired',
    subject: `Tu compra apartada venció: ${input.packageTitle}`,
    greetingName: input.name,
    paragraphs: [
      `Tu compra apartada en efectivo venció: no recibimos el pago de ${input.packageTitle} a tiempo, así que liberamos tu lugar.`,
      'Si todavía lo quieres, puedes comprarlo de nuevo cuando gustes.',
    ],
    details: [
      ['Paquete', input.packageTitle],
      ['Apartado el', input.madeAt],
    ],
    action: { label: 'Comprar de nuevo', url: input.buyUrl },
    whatsapp: { template: 'estudio_compra_vencida', parameters: [input.name ?? '', input.packageTitle, input.buyUrl] },
  };
}

export interface BookingCancelled {
  name: string | null;
  className: string;
  /** classWhen(…) of the class. */
  when: string;
  /** The credit came back to the customer's account; false when it was cancelled late; null for an unlimited membership. */
  creditReturned: boolean | null;
  /** Who cancelled: the customer, or the studio's staff on the customer's behalf. */
  byStudio: boolean;
  /** The portal's calendar, to book another class. */
  scheduleUrl: string;
}

/** A reservation the customer (or the desk for them) cancelled: what happened to the credit, and a way to book again. */
export function bookingCancelled(input: BookingCancelled): MessageParts {
  const credit =
    input.creditReturned === null
      ? 'Tu membresía ilimitada sigue activa.'
      : input.creditReturned
        ? 'Tu crédito regresó a tu cuenta: puedes usarlo en otra clase.'
        : 'El crédito no regresó a tu cuenta porque cancelaste dentro del plazo de cancelación del estudio.';
  return {
    kind: 'booking-cancelled',
    subject: `Reservación cancelada: ${input.className}, ${input.when}`,
    greetingName: input.name,
    paragraphs: [
      input.byStudio ? `El estudio canceló tu reservación de ${input.className} del ${input.when}, como lo pediste.` : `Cancelaste tu reservación de ${input.className} del ${input.when}.`,
      credit,
    ],
    details: [
      ['Clase', input.className],
      ['Fecha', input.when],
      ['Crédito', input.creditReturned === null ? 'Membresía ilimitada' : input.creditReturned ? 'Regresó a tu cuenta' : 'No regresó'],
    ],
    action: { label: 'Reservar otra clase', url: input.scheduleUrl },
    whatsapp: { template: 'estudio_cancelacion', parameters: [input.name ?? '', input.className, input.when, credit] },
  };
}
