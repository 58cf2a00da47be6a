import type { MessageParts } from '../compose.ts';

/**
 * The waitlist's messages. Texts in Spanish, tú form, short.
 * WhatsApp templates the studio registers in WhatsApp Manager:
 *  - estudio_lugar_libre: {{1}} name, {{2}} class, {{3}} date and time, {{4}} link to book it.
 *  - estudio_lugar_asignado: {{1}} name, {{2}} class, {{3}} date and time, {{4}} credit used,
 *    {{5}} access code, {{6}} how to cancel without losing the credit.
 */

export interface WaitlistClass {
  /** The customer's first name. */
  name: string;
  className: string;
  /** The class's date and time on the studio's clock ('05 ene 2026 07:00'). */
  when: string;
}

/** Notify-all: a place freed up; the first to book it takes it. `bookUrl` opens the class in the portal. */
export function waitlistSpotFreed(input: WaitlistClass & { bookUrl: string }): MessageParts {
  return {
    kind: 'waitlist-spot-freed',
    subject: `Se liberó un lugar en ${input.className}`,
    greetingName: input.name,
    paragraphs: [
      `¡Se liberó un lugar en ${input.className} del ${input.when}!`,
      'Avisamos a toda la lista de espera al mismo tiempo: el lugar es para la primera persona que reserve.',
    ],
    details: [
      ['Clase', input.className],
      ['Fecha', input.when],
    ],
    action: { label: 'Reservar ahora', url: input.bookUrl },
    footnotes: ['Si ya no te interesa, no tienes que hacer nada: sigues en la lista de espera hasta que empiece la clase.'],
    whatsapp: { template: 'estudio_lugar_libre', parameters: [input.name, input.className, input.when, input.bookUrl] },
  };
}

export interface WaitlistPromotion extends WaitlistClass {
  /** What paid for the booking: the package's title, or 'Membresía ilimitada'. */
  credit: string;
  /** Classes left on that credit after this booking; null for an unlimited membership. */
  creditsLeft: number | null;
  accessCode: string;
  /**
   * How cancelling works for this booking: until when the credit comes back
   * ('04 ene 2026 19:00'), 'late' when that moment already passed (cancelling
   * now loses the credit), 'disabled' when the studio does not allow cancelling.
   */
  cancel: { until: string } | 'late' | 'disabled';
  /** The customer's reservations in the portal (Mis Reservaciones). */
  reservationsUrl: string;
}

/** How to cancel without losing the credit, as one sentence (also the WhatsApp parameter). */
export function promotionCancelLine(input: Pick<WaitlistPromotion, 'cancel' | 'creditsLeft'>): string {
  if (input.cancel === 'disabled') return 'Este estudio no permite cancelar reservaciones; si no puedes asistir, avisa al estudio.';
  if (input.creditsLeft === null) {
    return input.cancel === 'late'
      ? 'Si no puedes asistir, cancela en Mis Reservaciones para liberar el lugar.'
      : `Si no puedes asistir, cancela en Mis Reservaciones antes del ${input.cancel.until} para liberar el lugar.`;
  }
  return input.cancel === 'late'
    ? 'Ya pasó el plazo para cancelar con devolución: si cancelas, el crédito no regresa. Si no puedes asistir, cancela de todos modos para liberar el lugar.'
    : `Si no puedes asistir, cancela en Mis Reservaciones antes del ${input.cancel.until} y tu crédito regresa.`;
}

/** Automatic promotion: the first on the list with a usable credit was booked and charged. */
export function waitlistPromoted(input: WaitlistPromotion): MessageParts {
  const creditText = input.creditsLeft === null ? input.credit : `${input.credit} (te ${input.creditsLeft === 1 ? 'queda 1 clase' : `quedan ${input.creditsLeft} clases`})`;
  const cancelLine = promotionCancelLine(input);
  return {
    kind: 'waitlist-promoted',
    subject: `Tienes lugar en ${input.className}`,
    greetingName: input.name,
    paragraphs: [
      `¡Buenas noticias! Se liberó un lugar en ${input.className} del ${input.when} y, como estabas en la lista de espera, ya te reservamos.`,
      input.creditsLeft === null ? `La reservación usa tu ${input.credit.toLowerCase()}.` : `Usamos un crédito de ${input.credit} para esta reservación.`,
    ],
    details: [
      ['Clase', input.className],
      ['Fecha', input.when],
      ['Crédito usado', creditText],
      ['Código de acceso', input.accessCode],
    ],
    action: { label: 'Ver mis reservaciones', url: input.reservationsUrl },
    footnotes: [cancelLine, 'Muestra tu código de acceso en recepción al llegar.'],
    whatsapp: {
      template: 'estudio_lugar_asignado',
      parameters: [input.name, input.className, input.when, creditText, input.accessCode, cancelLine],
    },
  };
}
