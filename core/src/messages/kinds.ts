/**
 * Every kind of message the product sends. `optional` ones go only
 * through the channels a customer left on (Mi Información) and carry a stop
 * link; the others are transactional and always go: a customer who turned
 * reminders off still gets the password reset, the receipt, and the news that
 * the studio cancelled their class.
 */
export const messageKinds = {
  general: { optional: false, label: 'Mensaje' },
  'password-reset': { optional: false, label: 'Restablecer contraseña' },
  'email-change': { optional: false, label: 'Confirmar correo' },
  'customer-claim': { optional: false, label: 'Crear contraseña' },
  'customer-invitation': { optional: false, label: 'Invitación a crear contraseña' },
  'privacy-request-answered': { optional: false, label: 'Respuesta a una solicitud ARCO' },
  'booking-confirmation': { optional: false, label: 'Confirmación de reservación' },
  'booking-cancelled': { optional: false, label: 'Reservación cancelada' },
  welcome: { optional: false, label: 'Bienvenida' },
  'purchase-pending': { optional: false, label: 'Orden apartada: datos de pago' },
  'class-reminder': { optional: true, label: 'Recordatorio de clase' },
  'class-cancelled': { optional: false, label: 'Clase cancelada' },
  'class-coach-changed': { optional: false, label: 'Cambio de coach' },
  'class-changed': { optional: false, label: 'Cambio de horario o lugar' },
  'waitlist-spot-freed': { optional: true, label: 'Lugar libre en lista de espera' },
  'waitlist-promoted': { optional: false, label: 'Lugar asignado desde la lista de espera' },
  'standing-booking-missed': { optional: false, label: 'Clase de cada semana sin reservar' },
  'no-show-penalty': { optional: false, label: 'Penalización por inasistencias' },
  'hold-expired': { optional: false, label: 'Compra apartada vencida' },
  'purchase-receipt': { optional: false, label: 'Recibo de compra' },
  'credits-expiring': { optional: true, label: 'Créditos por vencer' },
  'subscription-renewed': { optional: false, label: 'Suscripción renovada' },
  'payment-failed': { optional: false, label: 'Pago rechazado' },
  'subscription-cancelled': { optional: false, label: 'Suscripción cancelada' },
  'video-rating': { optional: true, label: 'Calificar video' },
  'owner-daily-summary': { optional: false, label: 'Resumen del día' },
  // Mexico's money (decisions 080-084)
  'payment-instructions': { optional: false, label: 'Ficha OXXO o datos de transferencia' },
  'voucher-expired': { optional: false, label: 'Ficha vencida' },
  'transfer-received': { optional: false, label: 'Transferencia recibida' },
  'renewal-instructions': { optional: false, label: 'Ficha o transferencia para renovar' },
  'cfdi-issued': { optional: false, label: 'Factura (CFDI)' },
} as const satisfies Record<string, { optional: boolean; label: string }>;

export type MessageKind = keyof typeof messageKinds;
export const messageKindNames = Object.keys(messageKinds) as MessageKind[];

export const isOptionalMessage = (kind: string): boolean => messageKinds[kind as MessageKind]?.optional ?? false;
