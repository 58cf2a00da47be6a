import type { MessageParts } from '../compose.ts';

/**
 * Messages from the studio itself: a class it cancelled, a class another
 * coach gives, and the owner's daily summary. WhatsApp templates:
 *  - estudio_clase_cancelada: {{1}} name, {{2}} class, {{3}} date and time, {{4}} what happens to the credit or the waitlist
 *    (and the studio's note, when it wrote one).
 *  - estudio_cambio_coach: {{1}} name, {{2}} class, {{3}} date and time, {{4}} the coach who gives it, {{5}} the coach
 *    who was to give it.
 *  - estudio_cambio_clase: {{1}} name, {{2}} class, {{3}} the date and time it was, {{4}} what it is now (time, place,
 *    coach, in one line).
 * The daily summary is e-mail only.
 */

export interface CancelledClass {
  name: string;
  className: string;
  when: string;
  /** The portal's calendar, to book another class. */
  scheduleUrl: string;
  /** The studio's own words ('la coach se enfermó'), one line; null or absent: none. */
  note?: string | null;
}

/**
 * The class a customer booked or waited for was cancelled by the studio.
 * `booked`: 'credit' (a class credit came back), 'unlimited' (the membership
 * had nothing to give back) or 'waitlist' (they were on the waitlist).
 */
export function classCancelled(input: CancelledClass & { was: 'credit' | 'unlimited' | 'waitlist' }): MessageParts {
  const outcome =
    input.was === 'credit'
      ? 'Te devolvimos el crédito que usaste para reservarla.'
      : input.was === 'unlimited'
        ? 'Tu membresía ilimitada sigue vigente para reservar otra clase.'
        : 'Estabas en su lista de espera; ya no esperas lugar en ella.';
  return {
    kind: 'class-cancelled',
    subject: `Clase cancelada: ${input.className}`,
    greetingName: input.name,
    paragraphs: [`Lamentamos avisarte que la clase de ${input.className} del ${input.when} fue cancelada por el estudio.`, ...(input.note ? [noteLine(input.note)] : []), outcome],
    details: [
      ['Clase', input.className],
      ['Fecha', input.when],
    ],
    action: { label: 'Reservar otra clase', url: input.scheduleUrl },
    // The template has no room of its own for the note: it goes with what happens to the credit, in one line.
    whatsapp: { template: 'estudio_clase_cancelada', parameters: [input.name, input.className, input.when, input.note ? `${outcome} ${noteLine(input.note)}` : outcome] },
  };
}

const noteLine = (note: string) => `Nota del estudio: ${note}`;

/** A class she booked is given by another coach (a substitute): her place stays, and she may cancel it as usual. */
export function classCoachChanged(input: { name: string; className: string; when: string; coach: string; previousCoach: string; reservationsUrl: string }): MessageParts {
  return {
    kind: 'class-coach-changed',
    subject: `Cambio de coach: ${input.className}, ${input.when}`,
    greetingName: input.name,
    paragraphs: [
      `Tu clase de ${input.className} del ${input.when} la dará ${input.coach} en lugar de ${input.previousCoach}.`,
      'Tu lugar sigue reservado. Si prefieres no tomarla, puedes cancelarla desde Mis Reservaciones con las reglas de siempre.',
    ],
    details: [
      ['Clase', input.className],
      ['Fecha', input.when],
      ['Coach', input.coach],
    ],
    action: { label: 'Ver mis reservaciones', url: input.reservationsUrl },
    whatsapp: { template: 'estudio_cambio_coach', parameters: [input.name, input.className, input.when, input.coach, input.previousCoach] },
  };
}

/**
 * A class she booked changed its time, place or coaches (one class, or a series' classes edited together): her place
 * stays, and she may cancel it as usual. `now` says what it is now, only what changed.
 */
export function classChanged(input: {
  name: string;
  className: string;
  /** When it was, as she booked it. */
  was: string;
  now: { when?: string; place?: string; coaches?: string };
  reservationsUrl: string;
}): MessageParts {
  const changes = [
    ...(input.now.when ? [`ahora es el ${input.now.when}`] : []),
    ...(input.now.place ? [`en ${input.now.place}`] : []),
    ...(input.now.coaches ? [`con ${input.now.coaches}`] : []),
  ];
  const summary = changes.join(', ');
  return {
    kind: 'class-changed',
    subject: `Cambio en tu clase: ${input.className}, ${input.was}`,
    greetingName: input.name,
    paragraphs: [
      `Tu clase de ${input.className} del ${input.was} cambió: ${summary}.`,
      'Tu lugar sigue reservado. Si ya no te acomoda, puedes cancelarla desde Mis Reservaciones con las reglas de siempre.',
    ],
    details: [
      ['Clase', input.className],
      ['Antes', input.was],
      ...(input.now.when ? [['Ahora', input.now.when] as [string, string]] : []),
      ...(input.now.place ? [['Lugar', input.now.place] as [string, string]] : []),
      ...(input.now.coaches ? [['Coach', input.now.coaches] as [string, string]] : []),
    ],
    action: { label: 'Ver mis reservaciones', url: input.reservationsUrl },
    whatsapp: { template: 'estudio_cambio_clase', parameters: [input.name, input.className, input.was, summary] },
  };
}

/** The numbers of the owner's daily summary (money already as '1,234.50' strings with the currency sign). */
export interface OwnerSummary {
  businessName: string;
  /** 'lunes 30 nov 2026' — the day summarised and the next one. */
  yesterday: string;
  tomorrow: string;
  attendance: { classes: number; booked: number; checkedIn: number; noShows: number };
  sales: { count: number; total: string; byMethod: { method: string; count: number; total: string }[] };
  cancelledClasses: { className: string; time: string }[];
  tomorrowClasses: { className: string; time: string; booked: number; capacity: number }[];
  tomorrowTotal: { booked: number; capacity: number };
}

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((100 * part) / whole)}\u00a0%` : '—');
const ofTotal = (part: number, whole: number) => `${part} de ${whole} (${percent(part, whole)})`;

/** The owner's e-mail each morning: yesterday's attendance, no-shows, sales, cancelled classes, tomorrow's fill rate. */
export function ownerDailySummary(s: OwnerSummary): MessageParts {
  const a = s.attendance;
  const details: [string, string][] = [
    ['Clases de ayer', String(a.classes)],
    ['Asistencias / reservaciones', ofTotal(a.checkedIn, a.booked)],
    ['Inasistencias', String(a.noShows)],
    ['Ventas de ayer', s.sales.count === 0 ? 'Sin ventas' : `${s.sales.count} · ${s.sales.total}`],
    ...s.sales.byMethod.map((m): [string, string] => [`Ventas · ${m.method}`, `${m.count} · ${m.total}`]),
    ['Clases canceladas ayer', s.cancelledClasses.length === 0 ? 'Ninguna' : s.cancelledClasses.map((c) => `${c.time} ${c.className}`).join(', ')],
    ...(s.tomorrowClasses.length === 0
      ? [['Clases de mañana', 'Sin clases programadas'] as [string, string]]
      : s.tomorrowClasses.map((c): [string, string] => [`Mañana ${c.time} ${c.className}`, ofTotal(c.booked, c.capacity)])),
    ...(s.tomorrowClasses.length === 0 ? [] : [['Ocupación de mañana', ofTotal(s.tomorrowTotal.booked, s.tomorrowTotal.capacity)] as [string, string]]),
  ];
  return {
    kind: 'owner-daily-summary',
    subject: `Resumen de ${s.businessName}: ${s.yesterday}`,
    greetingName: null,
    paragraphs: [`Este es el resumen de ayer, ${s.yesterday}, y de lo que viene mañana, ${s.tomorrow}, en ${s.businessName}.`],
    details,
    footnotes: ['Recibes este correo porque el resumen diario está activado en la configuración del estudio.'],
    whatsapp: null,
  };
}
