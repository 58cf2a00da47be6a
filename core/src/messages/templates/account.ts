import type { MessageParts } from '../compose.ts';

/**
 * The account's e-mails: password reset, the invitation of a
 * customer the studio registered at the desk to create a password, the
 * confirmation of a new sign-in e-mail, and the invitation to rate an online
 * class. E-mail only (no WhatsApp template). The wording is the one the
 * product has always sent (once in core/src/mail.ts), laid out by compose().
 */

/** "24 horas", "1 hora", "90 minutos": links live from minutes to a day. */
export function linkLifetime(minutes: number): string {
  if (minutes % 60 !== 0) return `${minutes} minutos`;
  const hours = minutes / 60;
  return hours === 1 ? '1 hora' : `${hours} horas`;
}

export interface AccountLink {
  businessName: string;
  link: string;
  /** How long the link works. */
  minutes: number;
}

export function passwordReset(input: AccountLink): MessageParts {
  return {
    kind: 'password-reset',
    subject: `Restablece tu contraseña de ${input.businessName}`,
    paragraphs: [
      `Recibimos una solicitud para restablecer la contraseña de tu cuenta en ${input.businessName}.`,
      `Para elegir una nueva contraseña, abre este enlace (vence en ${input.minutes} minutos):`,
    ],
    action: { label: 'Elegir nueva contraseña', url: input.link },
    footnotes: ['Si no fuiste tú, ignora este correo; tu contraseña no cambiará.'],
  };
}

/** To a customer the studio registered at the desk, who signed up or asked for recovery (decision 017). */
export function customerClaim(input: AccountLink): MessageParts {
  return {
    kind: 'customer-claim',
    subject: `Crea tu contraseña de ${input.businessName}`,
    paragraphs: [
      `El equipo de ${input.businessName} ya te registró con este correo. Para entrar a tu cuenta en línea (tus clases y créditos están ahí), crea tu contraseña con este enlace (vence en ${linkLifetime(input.minutes)}):`,
    ],
    action: { label: 'Crear mi contraseña', url: input.link },
    footnotes: ['Si no fuiste tú quien lo pidió, ignora este correo; nadie podrá entrar sin abrir este enlace.'],
  };
}

export interface CustomerInvitation {
  businessName: string;
  /** Her first name, for the greeting. */
  name: string | null;
  link: string;
  /** How long the link works, in days: an invitation is read days after it is sent, not at once. */
  days: number;
}

/**
 * To a customer the studio brought over from another system, or registered at the desk, and chose to invite: the
 * same link as customerClaim, written as an invitation she did not ask for.
 */
export function customerInvitation(input: CustomerInvitation): MessageParts {
  return {
    kind: 'customer-invitation',
    subject: `Crea tu contraseña de ${input.businessName}`,
    greetingName: input.name,
    paragraphs: [
      `${input.businessName} te dio de alta con este correo en su sistema de reservaciones. Con tu cuenta en línea reservas tus clases, ves tus clases disponibles y tu código de acceso para la recepción.`,
      `Solo falta que crees tu contraseña con este enlace (vence en ${input.days === 1 ? '1 día' : `${input.days} días`}):`,
    ],
    action: { label: 'Crear mi contraseña', url: input.link },
    footnotes: [
      'Si el enlace ya venció, pide uno nuevo en «¿Olvidaste tu contraseña?» con este mismo correo.',
      `Si no eres cliente de ${input.businessName}, ignora este correo; nadie podrá entrar sin abrir este enlace.`,
    ],
  };
}

export function emailChange(input: AccountLink): MessageParts {
  return {
    kind: 'email-change',
    subject: `Confirma tu nuevo correo en ${input.businessName}`,
    paragraphs: [
      `Recibimos una solicitud para usar este correo en tu cuenta de ${input.businessName}.`,
      `Para confirmarlo, abre este enlace (vence en ${linkLifetime(input.minutes)}):`,
    ],
    action: { label: 'Confirmar mi correo', url: input.link },
    footnotes: ['Si no fuiste tú, ignora este correo; la cuenta seguirá con su correo actual.'],
  };
}

/** Optional: it carries the stop link. */
export function videoRating(input: { businessName: string; videoName: string; link: string; name?: string | null }): MessageParts {
  return {
    kind: 'video-rating',
    subject: `¿Qué te pareció tu clase online en ${input.businessName}?`,
    greetingName: input.name ?? null,
    paragraphs: [
      `Gracias por tomar "${input.videoName}" en ${input.businessName}.`,
      'Califica el video con una a cinco estrellas; tu opinión nos ayuda a preparar mejores clases:',
    ],
    action: { label: 'Calificar el video', url: input.link },
  };
}

export interface Welcome {
  name: string | null;
  businessName: string;
  /** The portal's calendar (/mystudio). */
  calendarUrl: string;
  /** The package shop. */
  packagesUrl: string;
  /** The name the studio gives its packages ('Paquetes'). */
  packagesName: string;
  /** She already has classes to book with (a trial, a gift): the next step is booking, not buying. */
  hasCredits: boolean;
}

/** After sign-up: the account is ready, and what to do next. E-mail only. */
export function welcome(input: Welcome): MessageParts {
  return {
    kind: 'welcome',
    subject: `Te damos la bienvenida a ${input.businessName}`,
    greetingName: input.name,
    paragraphs: [
      `Tu cuenta en ${input.businessName} está lista. Desde ella reservas tus clases, ves tus créditos y tu código de acceso para la recepción.`,
      input.hasCredits
        ? 'Ya tienes clases disponibles: elige tu primera clase en el calendario.'
        : `Para reservar tu primera clase, elige uno de nuestros ${input.packagesName.toLowerCase()} y después tu horario en el calendario.`,
    ],
    action: input.hasCredits ? { label: 'Reservar mi primera clase', url: input.calendarUrl } : { label: `Ver ${input.packagesName}`, url: input.packagesUrl },
    footnotes: ['Si no creaste esta cuenta, responde a este correo y la revisamos.'],
  };
}
