import type { MessageParts } from '../compose.ts';
import type { PrivacyRequestKind } from '../../schemas/privacy.ts';

/**
 * The answer to her ARCO request (decisions 124, 128): which request, its outcome and the studio's words. E-mail
 * only, and necessary: the law makes the studio answer her, whatever she chose about optional messages.
 */

/** What she asked for, as the sentence "tu solicitud de …" says it. */
const requested: Record<PrivacyRequestKind, string> = {
  access: 'acceso a tus datos personales',
  rectification: 'rectificación de tus datos personales',
  cancellation: 'cancelación de tus datos personales',
  opposition: 'oposición al uso de tus datos personales',
};

const kindNames: Record<PrivacyRequestKind, string> = { access: 'Acceso', rectification: 'Rectificación', cancellation: 'Cancelación', opposition: 'Oposición' };

export interface PrivacyAnswer {
  businessName: string;
  name: string | null;
  kind: PrivacyRequestKind;
  status: 'done' | 'refused';
  /** The studio's answer, as staff wrote it. */
  answer: string;
  /** The day it was received, as people read it ('3 de marzo de 2026'). */
  receivedOn: string;
  /** Mi Información, where she reads her requests; null once her account is closed. */
  accountUrl: string | null;
}

export function privacyRequestAnswered(input: PrivacyAnswer): MessageParts {
  const closed = input.kind === 'cancellation' && input.status === 'done';
  return {
    kind: 'privacy-request-answered',
    subject: `${input.businessName} respondió tu solicitud sobre tus datos personales`,
    greetingName: input.name,
    paragraphs: [
      input.status === 'done'
        ? `Atendimos tu solicitud de ${requested[input.kind]}, que recibimos el ${input.receivedOn}. Esta es nuestra respuesta:`
        : `Revisamos tu solicitud de ${requested[input.kind]}, que recibimos el ${input.receivedOn}, y no podemos atenderla. Esta es nuestra respuesta:`,
      input.answer,
      ...(closed
        ? [
            'Como lo pediste, borramos tus datos personales y cerramos tu cuenta: ya no puedes iniciar sesión. Por ley conservamos tus compras, pagos y facturas, sin tu nombre.',
            'Este es el último correo que te enviamos.',
          ]
        : input.status === 'refused'
          ? ['Si tienes dudas sobre la respuesta, responde a este correo.']
          : []),
    ],
    details: [
      ['Solicitud', kindNames[input.kind]],
      ['Recibida', input.receivedOn],
      ['Resultado', input.status === 'done' ? 'Atendida' : 'Rechazada'],
    ],
    action: input.accountUrl ? { label: 'Ver mis solicitudes', url: input.accountUrl } : null,
  };
}
