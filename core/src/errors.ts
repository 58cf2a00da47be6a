/**
 * Typed domain errors. Services throw `new DomainError(code)`; the server turns
 * the code into an HTTP status and the Spanish message below. Adding a code
 * without a message fails the type check.
 */
export const domainErrors = {
  // Validation and generic transport errors
  'validation': { status: 400, message: 'Revisa los campos faltantes o inválidos.' },
  'not-found': { status: 404, message: 'No encontramos lo que buscas.' },
  'route-not-found': { status: 404, message: 'La ruta solicitada no existe.' },
  'unauthenticated': { status: 401, message: 'Debes iniciar sesión para continuar.' },
  'forbidden': { status: 403, message: 'No tienes permiso para realizar esta acción.' },
  'rate-limited': { status: 429, message: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.' },
  'internal': { status: 500, message: 'Hubo un error inesperado. Inténtalo más tarde.' },
  'invalid-json': { status: 400, message: 'El cuerpo de la solicitud no es un JSON válido.' },
  'unsupported-media-type': { status: 415, message: 'El cuerpo de la solicitud debe enviarse como application/json.' },
  'payload-too-large': { status: 413, message: 'La solicitud es demasiado grande.' },
  'method-not-allowed': { status: 405, message: 'El método no está permitido en esta ruta.' },

  // Identity: the codes are Firebase's, so the portal handles both providers alike
  'auth/user-not-found': { status: 400, message: 'Lo sentimos. No encontramos una cuenta con ese correo. ¡Regístrate!' },
  'auth/wrong-password': { status: 400, message: 'La contraseña es incorrecta. Por favor, intenta de nuevo' },
  'auth/email-already-in-use': { status: 400, message: 'Ya tienes una cuenta con nosotros. Por favor, inicia sesión.' },
  'auth/weak-password': { status: 400, message: 'La contraseña no cumple con los requisitos de seguridad.' },
  'auth/invalid-email': { status: 400, message: 'El correo electrónico no es válido.' },
  'auth/id-token-expired': { status: 401, message: 'Tu sesión expiró. Por favor, inicia sesión de nuevo.' },
  'auth/id-token-revoked': { status: 401, message: 'Tu sesión fue cerrada. Por favor, inicia sesión de nuevo.' },
  'auth/invalid-id-token': { status: 401, message: 'Tu sesión no es válida. Por favor, inicia sesión de nuevo.' },
  'auth/invalid-refresh-token': { status: 401, message: 'Tu sesión no es válida. Por favor, inicia sesión de nuevo.' },
  'auth/too-many-requests': { status: 429, message: 'Demasiados intentos de inicio de sesión. Espera unos minutos e inténtalo de nuevo.' },
  'auth/passwords-mismatch': { status: 400, message: 'Las contraseñas no coinciden' },
  'auth/operation-not-allowed': { status: 400, message: 'Con el proveedor de identidad configurado esta acción se realiza desde la aplicación, no desde esta ruta.' },
  'auth/invalid-action-code': { status: 400, message: 'El enlace para restablecer tu contraseña no es válido o ya expiró. Solicita uno nuevo.' },
  'auth/user-disabled': { status: 403, message: 'Esta cuenta ha sido desactivada. Comunícate con el estudio.' },

  // Customer
  'customer/already-exists': { status: 409, message: 'Ya tienes una cuenta con nosotros. Por favor, inicia sesión.' },
  'customer/phone-taken': { status: 409, message: 'Ya existe una cuenta con ese número de teléfono' },
  'customer/phone-format': { status: 400, message: 'El formato del teléfono no es correcto.' },
  'customer/not-found': { status: 404, message: 'No encontramos tu cuenta de cliente.' },
  'customer/terms-not-accepted': { status: 400, message: 'Debes aceptar los términos y condiciones antes de continuar.' },

  // Pages
  'page/not-found': { status: 404, message: 'No encontramos esta página.' },

  // App configuration
  'appconfig/unknown-key': { status: 400, message: 'La clave de configuración no existe.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type DomainErrorCode = keyof typeof domainErrors;

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly status: number;
  constructor(code: DomainErrorCode, message?: string) {
    super(message ?? domainErrors[code].message);
    this.name = 'DomainError';
    this.code = code;
    this.status = domainErrors[code].status;
  }
}

export function isDomainErrorCode(code: unknown): code is DomainErrorCode {
  return typeof code === 'string' && Object.hasOwn(domainErrors, code);
}

/** The JSON body of every error answer of /api (and the `data` of tRPC errors). */
export interface ApiErrorBody {
  code: string;
  message: string;
  /** The field that failed validation, as a dotted path. */
  field?: string;
}
