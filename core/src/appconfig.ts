import { passwordLengthCeiling, passwordLengthFloor } from './password-policy.ts';
import { isTimeZoneName, parseTimezoneOffset, standardOffsetHours, timezoneOffsetRange } from './rules/time.ts';
import { isValidClabe } from './rules/clabe.ts';
import { periodicityFitsWindow } from './rules/cfdi-periods.ts';
import { rfcKind, rfcProblem, normalizeRfc } from './rules/rfc.ts';
import { regimeOf } from './rules/sat-catalogues.ts';

/**
 * Every app-configuration key named by the specification, with a new studio's
 * value: what works for any studio (rules, features, the zone most of Mexico
 * keeps) and nothing that only one studio can say (its logo, pictures, texts,
 * contact and bank details are empty until its owner writes them; the demo
 * studio's seed writes its own). Values are strings, as the spec's
 * `{config: [{key, value}]}` carries them; `GET /api/appconfig` reads the
 * stored value over this one.
 */
export const appConfigDefaults = {
  // Branding and contact
  business_name: 'Tu estudio',
  tagline: '',
  primary: '#d6336c',
  secondary: '#1c7ed6',
  accent: '#f59f00',
  navbar_logo: '',
  favicon: '',
  bg_login: '',
  social_media_image: '',
  app_css: '',
  head_tracking_code: '',
  body_tracking_code: '',
  email: '',
  whatsapp: '',
  facebook: '',
  instagram: '',
  tiktok: '',
  location: '',
  domain: 'localhost',
  powered_by_url: '',
  powered_by_name: '',

  // Features
  single_class_enabled: 'true',
  videos_enabled: 'true',
  subscriptions_enabled: 'true',
  allow_restricted_class_types: 'true',
  allow_restricted_times: 'false',
  waitlist_enabled: 'true',
  qrcode_enabled: 'true',
  reservation_rating_enabled: 'true',
  allow_class_guests: 'true',
  /** A guest is paid with one more of the booker's class credits ('false': guests come free). */
  guest_uses_credit: 'true',
  unlimited_membership_penalties_enabled: 'true',
  banner_enabled: 'false',
  banner_text: '',
  banner_link: '/mystudio',
  class_packages_name: 'Paquetes',
  class_packages_path: '/mystudio/paquetes',
  popup_presencial_enabled: 'false',
  popup_presencial_src: '',
  popup_presencial_link: '',

  // Time and reservation rules
  timezone: 'America/Mexico_City',
  timezone_offset: '6',
  reservation_timeframe_hours: '0',
  reservation_timeframe_minutes: '30',
  /** Days before a class that its booking opens (0: as soon as it is on the calendar). */
  reservation_opens_days: '0',
  cancel_timeframe_value: '12',
  cancel_timeframe_unit: 'hours',
  allow_cancel_reservations: 'true',
  allow_cancel_after_treshold: 'true',
  max_cancels_per_available_class: '2',
  /** Consecutive no-shows before an unlimited member is penalised (a customer's own value wins). */
  unlimited_max_no_shows_for_penalty: '3',
  /** Days an unlimited member stays blocked after the penalty starts. */
  unlimited_penalty_days: '7',
  /** Minutes before a class starts that the desk begins checking in (decision 016). */
  check_in_opens_minutes: '60',
  /** Minutes after a class ends that the desk still checks in (late arrivals, the roster marked after class). */
  check_in_closes_minutes: '30',

  // Messages and the studio's clock
  /** A confirmation (access code, how to cancel, .ics) for every booking. */
  booking_confirmations_enabled: 'true',
  /** A reminder this many hours before each class. */
  reminders_enabled: 'true',
  reminder_hours_before: '2',
  /** When a place frees up, book the first on the waitlist who has a credit (instead of messaging everyone at once). */
  waitlist_auto_promote: 'false',
  /** Minutes before the class after which places are no longer given automatically (everyone is messaged instead). */
  waitlist_promotion_cutoff_minutes: '60',
  /** Days before credits expire that their owner is told (0: never). */
  credits_expiring_notice_days: '7',
  /** Days after a failed subscription charge that it is tried again, comma separated; after the last, it is cancelled. */
  subscription_retry_days: '1,3,5',
  /** The owner's e-mail with yesterday's numbers, each morning at this hour (studio time). */
  owner_summary_enabled: 'true',
  owner_summary_hour: '7',
  /** Where the summary goes; empty: the studio's contact e-mail. */
  owner_summary_email: '',

  // Checkout and payments
  stripe_public: '',
  stripe_checkout_mode: 'elements',
  cash_checkout_enabled: 'true',
  checkout_disabled: 'false',
  checkout_redirect_url: '',
  /** Hours an unpaid 'Efectivo' purchase holds its place (package and event limits, discount uses) before it lapses. */
  cash_hold_hours: '24',
  /** Minutes an unfinished card or PayPal attempt holds its place. */
  card_hold_minutes: '30',
  payment_sources_enabled: 'true',
  paypal_enabled: 'false',
  paypal_client_id: '',
  discounts_enabled: 'true',
  /**
   * Who may gift (decision 037): Recepción gifts packages whose price is at most this many pesos
   * (default: one class, a courtesy; 0: Recepción gifts nothing). Administrators always may.
   */
  reception_gift_max_price: '180',
  signup_fee: '',
  home_reserve_class_package_id: '',
  /** Bank transfer for 'Efectivo' orders (decision 029): shown on the order page; empty CLABE: no transfer details. */
  bank_name: '',
  bank_clabe: '',
  bank_beneficiary: '',
  /** Mexico's money (decisions 080-083): OXXO vouchers and SPEI transfers through Stripe, meses sin intereses. */
  oxxo_enabled: 'true',
  spei_enabled: 'true',
  /** Calendar days an OXXO voucher lasts (Stripe: 1 to 7; it expires at 23:59 Mexico City). */
  oxxo_expires_days: '3',
  /** Meses sin intereses on card payments of at least this many pesos (0: off). */
  installments_min_amount: '1000',
  /** Days before a subscription paid by OXXO or SPEI renews that its new voucher or transfer details are sent. */
  renewal_notice_days: '5',
  /** Days after the charge date an unpaid OXXO/SPEI renewal waits before the subscription lapses. */
  renewal_grace_days: '3',

  // CFDI 4.0 invoices (decision 084); the studio's identity is empty until the owner writes it (the demo seed fills it)
  cfdi_enabled: 'true',
  fiscal_rfc: '',
  fiscal_legal_name: '',
  fiscal_regime: '',
  /** Lugar de expedición: the postcode the invoices are issued from. */
  fiscal_postcode: '',
  cfdi_series: 'F',
  cfdi_global_series: 'G',
  cfdi_credit_note_series: 'NC',
  /** SAT c_ClaveProdServ of class packages and of memberships (01010101: «No existe en el catálogo»). */
  sat_product_key_classes: '01010101',
  sat_product_key_memberships: '01010101',
  /** SAT c_ClaveUnidad of a sale (E48: unidad de servicio). */
  sat_unit_key: 'E48',
  /** IVA included in the prices, percent: 16, 8 (border region) or 0. */
  cfdi_iva_rate: '16',
  /** Days after a purchase a customer may ask for its invoice; 0: until the end of the purchase's month. */
  cfdi_request_days: '0',
  /** How often the global invoice of the sales nobody invoiced is issued. */
  cfdi_global_periodicity: 'month',

  // Files
  files_location: 'server',
  S3_ENDPOINT: '',
  bucket: '',
  region: '',

  // Sign-in provider
  firebaseConfig: '{"provider":"local"}',
  password_min_length: '8',
  password_max_length: '',
  password_require_lowercase: 'false',
  password_require_uppercase: 'false',
  password_require_numeric: 'false',
  password_require_non_alphanumeric: 'false',

  // Landing sections: enabled flag and order
  hero_enabled: 'true',
  hero_order: '1',
  hero_title: '',
  hero_text: '',
  hero_image: '',
  about_enabled: 'true',
  about_order: '2',
  about_title: 'Nosotros',
  about_text: '',
  about_image: '',
  mission_enabled: 'true',
  mission_order: '3',
  mission_title: 'Misión',
  mission_text: '',
  mission_image: '',
  class_types_enabled: 'true',
  class_types_order: '4',
  coaches_enabled: 'true',
  coaches_order: '5',
  packages_enabled: 'true',
  packages_order: '6',
  announcements_enabled: 'true',
  announcements_order: '7',
  schedule_enabled: 'true',
  schedule_order: '8',
} as const satisfies Record<string, string>;

export type AppConfigKey = keyof typeof appConfigDefaults;

/**
 * The tab's icon: the studio's favicon, or, while it has none, the installable app's icon the server draws from the
 * studio's initial on its colour (decision 106).
 */
export const faviconOf = (config: Pick<AppConfigMap, 'favicon'>): string => config.favicon.trim() || '/app/icono-192.png';

/** Settings only admins read: GET /api/appconfig leaves them out for everyone else (the owner's own address). */
export const appConfigPrivateKeys: readonly AppConfigKey[] = [
  'owner_summary_email',
  'reception_gift_max_price',
  // The studio's fiscal identity and invoicing setup are the owner's (decision 084).
  'fiscal_rfc',
  'fiscal_legal_name',
  'fiscal_regime',
  'fiscal_postcode',
  'cfdi_series',
  'cfdi_global_series',
  'cfdi_credit_note_series',
  'sat_product_key_classes',
  'sat_product_key_memberships',
  'sat_unit_key',
  'cfdi_iva_rate',
  'cfdi_global_periodicity',
];
export const appConfigKeys = Object.keys(appConfigDefaults) as AppConfigKey[];
export type AppConfigMap = Record<AppConfigKey, string>;

export interface AppConfigEntry { key: string; value: string }

/**
 * Turns the spec's key/value list into a lookup, falling back to the defaults,
 * also for a value that does not fit its setting (stored before app-config
 * values were checked): a time zone 'Mars/Olympus' reads as the default zone
 * instead of failing every schedule and report.
 */
export function configMap(entries: readonly AppConfigEntry[]): AppConfigMap {
  const map: Record<string, string> = { ...appConfigDefaults };
  for (const { key, value } of entries) if (isValidAppConfigValue(key, value)) map[key] = value;
  return map as AppConfigMap;
}

export const isOn = (value: string | undefined): boolean => value === 'true' || value === '1';

/**
 * How a setting's value is checked before it is saved (and when it is read:
 * a value stored before these checks that fails them gives way to the default).
 * Keys not listed here are free text.
 */
type SettingKind =
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number; optional?: boolean }
  | { kind: 'choice'; options: readonly string[] }
  | { kind: 'colour' }
  /** An IANA zone name, or '' for none (then timezone_offset decides, decision 030). */
  | { kind: 'timezone' }
  /** The spec's timezone_offset: whole hours behind UTC, -14 to 12 ('6' Mexico City). */
  | { kind: 'utc-offset' }
  | { kind: 'email' }
  | { kind: 'url' }
  | { kind: 'whatsapp' }
  | { kind: 'text'; min: number; max: number }
  | { kind: 'json-object' }
  /** '' or the id of a class package; the server checks that the package exists. */
  | { kind: 'package-id' }
  /** Comma-separated days, increasing, 1 to 30 each, at most 6 ('1,3,5'); '' for none. */
  | { kind: 'day-list' }
  /** '' or an 18-digit CLABE with its check digit (isValidClabe). */
  | { kind: 'clabe' }
  /** '' or an RFC with its check digit (the studio's own). */
  | { kind: 'rfc' }
  /** '' or a code of the SAT's c_RegimenFiscal. */
  | { kind: 'regime' }
  /** '' or a five-digit postcode. */
  | { kind: 'postcode' }
  /** An 8-digit key of the SAT's c_ClaveProdServ. */
  | { kind: 'sat-product-key' }
  /** A key of the SAT's c_ClaveUnidad (2 or 3 letters and digits). */
  | { kind: 'sat-unit-key' }
  /** A CFDI series: up to 25 letters. */
  | { kind: 'series' };

interface SettingRule {
  /** The setting's name as the admin reads it, in the error message. */
  label: string;
  rule: SettingKind;
}

const bool = (label: string): SettingRule => ({ label, rule: { kind: 'boolean' } });
const int = (label: string, min: number, max: number, optional = false): SettingRule => ({ label, rule: { kind: 'integer', min, max, optional } });
/** The landing's sections by their config prefix (`<prefix>_enabled`, `<prefix>_order`), in the spec's order, with their names. */
export const landingSectionLabels = {
  hero: 'Portada',
  about: 'Nosotros',
  mission: 'Misión',
  class_types: 'Tipos de clase',
  coaches: 'Coaches',
  packages: 'Paquetes',
  announcements: 'Avisos',
  schedule: 'Horario',
} as const;

/** The checked settings. password_min_length never goes below the password floor (decision 013). */
export const appConfigRules: Partial<Record<AppConfigKey, SettingRule>> = {
  business_name: { label: 'Nombre del estudio', rule: { kind: 'text', min: 1, max: 120 } },
  primary: { label: 'Color principal', rule: { kind: 'colour' } },
  secondary: { label: 'Color secundario', rule: { kind: 'colour' } },
  accent: { label: 'Color de acento', rule: { kind: 'colour' } },
  email: { label: 'Correo de contacto', rule: { kind: 'email' } },
  whatsapp: { label: 'WhatsApp', rule: { kind: 'whatsapp' } },
  facebook: { label: 'Facebook', rule: { kind: 'url' } },
  instagram: { label: 'Instagram', rule: { kind: 'url' } },
  tiktok: { label: 'TikTok', rule: { kind: 'url' } },
  powered_by_url: { label: 'Enlace de «Powered by»', rule: { kind: 'url' } },
  checkout_redirect_url: { label: 'Dirección a la que lleva el pago', rule: { kind: 'url' } },
  S3_ENDPOINT: { label: 'Servidor S3', rule: { kind: 'url' } },

  single_class_enabled: bool('Clases sueltas'),
  videos_enabled: bool('Videos'),
  subscriptions_enabled: bool('Suscripciones'),
  allow_restricted_class_types: bool('Créditos limitados a tipos de clase'),
  allow_restricted_times: bool('Créditos limitados a horarios'),
  waitlist_enabled: bool('Lista de espera'),
  qrcode_enabled: bool('Código QR'),
  reservation_rating_enabled: bool('Calificación de clases'),
  allow_class_guests: bool('Invitados en clase'),
  guest_uses_credit: bool('El invitado usa un crédito más'),
  unlimited_membership_penalties_enabled: bool('Penalizaciones de membresía ilimitada'),
  banner_enabled: bool('Banner'),
  popup_presencial_enabled: bool('Aviso emergente'),
  allow_cancel_reservations: bool('Permitir cancelar reservaciones'),
  allow_cancel_after_treshold: bool('Permitir cancelar fuera de tiempo'),
  cash_checkout_enabled: bool('Pago en efectivo'),
  checkout_disabled: bool('Compras desactivadas'),
  payment_sources_enabled: bool('Tarjetas guardadas'),
  paypal_enabled: bool('PayPal'),
  discounts_enabled: bool('Códigos de descuento'),
  password_require_lowercase: bool('Contraseña con minúscula'),
  password_require_uppercase: bool('Contraseña con mayúscula'),
  password_require_numeric: bool('Contraseña con número'),
  password_require_non_alphanumeric: bool('Contraseña con carácter especial'),

  timezone: { label: 'Zona horaria', rule: { kind: 'timezone' } },
  timezone_offset: { label: 'Diferencia horaria (horas)', rule: { kind: 'utc-offset' } },
  reservation_timeframe_hours: int('Anticipación para reservar (horas)', 0, 720),
  reservation_timeframe_minutes: int('Anticipación para reservar (minutos)', 0, 1440),
  reservation_opens_days: int('Días antes de la clase en que se abren las reservaciones (0: siempre abiertas)', 0, 365),
  cancel_timeframe_value: int('Anticipación para cancelar', 0, 10_000),
  cancel_timeframe_unit: { label: 'Unidad de anticipación para cancelar', rule: { kind: 'choice', options: ['hours', 'hour', 'minutes', 'minute', 'seconds', 'second', 'days', 'day'] } },
  max_cancels_per_available_class: int('Cancelaciones por crédito', 0, 100),
  unlimited_max_no_shows_for_penalty: int('Inasistencias antes de la penalización', 1, 100),
  unlimited_penalty_days: int('Días de penalización', 0, 365),
  check_in_opens_minutes: int('Minutos antes de la clase en que abre el registro de asistencia', 0, 1440),
  check_in_closes_minutes: int('Minutos después de la clase en que cierra el registro de asistencia', 0, 1440),

  booking_confirmations_enabled: bool('Confirmación de reservaciones'),
  reminders_enabled: bool('Recordatorios de clase'),
  reminder_hours_before: int('Horas antes de la clase para el recordatorio', 1, 72),
  waitlist_auto_promote: bool('Asignar lugares de la lista de espera automáticamente'),
  waitlist_promotion_cutoff_minutes: int('Minutos antes de la clase en que se deja de asignar lugares automáticamente', 0, 1440),
  credits_expiring_notice_days: int('Días de aviso antes de que venzan los créditos', 0, 60),
  subscription_retry_days: { label: 'Días para reintentar un cobro rechazado', rule: { kind: 'day-list' } },
  owner_summary_enabled: bool('Resumen diario para el dueño'),
  owner_summary_hour: int('Hora del resumen diario', 0, 23),
  owner_summary_email: { label: 'Correo del resumen diario', rule: { kind: 'email' } },

  stripe_checkout_mode: { label: 'Modo de pago con Stripe', rule: { kind: 'choice', options: ['elements', 'checkout'] } },
  cash_hold_hours: int('Horas que se aparta una compra en efectivo', 1, 720),
  card_hold_minutes: int('Minutos que se aparta un pago con tarjeta', 1, 1440),
  reception_gift_max_price: int('Precio máximo de un paquete que Recepción puede regalar ($, 0: no regala)', 0, 1_000_000),
  signup_fee: { label: 'Paquete de inscripción', rule: { kind: 'package-id' } },
  home_reserve_class_package_id: { label: 'Paquete de «Reserva tu clase» en la portada', rule: { kind: 'package-id' } },
  bank_name: { label: 'Banco para transferencias', rule: { kind: 'text', min: 0, max: 60 } },
  bank_clabe: { label: 'CLABE interbancaria', rule: { kind: 'clabe' } },
  bank_beneficiary: { label: 'Beneficiario de la cuenta', rule: { kind: 'text', min: 0, max: 120 } },
  oxxo_enabled: bool('Pago en efectivo en OXXO'),
  spei_enabled: bool('Pago por transferencia SPEI'),
  oxxo_expires_days: int('Días que dura una ficha OXXO', 1, 7),
  installments_min_amount: int('Meses sin intereses desde ($, 0: no se ofrecen)', 0, 1_000_000),
  renewal_notice_days: int('Días antes de la renovación en que se envía la ficha o la transferencia', 1, 15),
  renewal_grace_days: int('Días de gracia para pagar una renovación con ficha o transferencia', 0, 15),
  cfdi_enabled: bool('Facturación (CFDI)'),
  fiscal_rfc: { label: 'RFC del estudio', rule: { kind: 'rfc' } },
  fiscal_legal_name: { label: 'Nombre o razón social del estudio', rule: { kind: 'text', min: 0, max: 254 } },
  fiscal_regime: { label: 'Régimen fiscal del estudio', rule: { kind: 'regime' } },
  fiscal_postcode: { label: 'Lugar de expedición (código postal)', rule: { kind: 'postcode' } },
  cfdi_series: { label: 'Serie de las facturas', rule: { kind: 'series' } },
  cfdi_global_series: { label: 'Serie de la factura global', rule: { kind: 'series' } },
  cfdi_credit_note_series: { label: 'Serie de las notas de crédito', rule: { kind: 'series' } },
  sat_product_key_classes: { label: 'Clave de producto del SAT para paquetes de clases', rule: { kind: 'sat-product-key' } },
  sat_product_key_memberships: { label: 'Clave de producto del SAT para membresías', rule: { kind: 'sat-product-key' } },
  sat_unit_key: { label: 'Clave de unidad del SAT', rule: { kind: 'sat-unit-key' } },
  cfdi_iva_rate: { label: 'IVA incluido en los precios (%)', rule: { kind: 'choice', options: ['16', '8', '0'] } },
  cfdi_request_days: int('Días para pedir factura después de la compra (0: hasta fin de mes)', 0, 90),
  cfdi_global_periodicity: { label: 'Periodicidad de la factura global', rule: { kind: 'choice', options: ['day', 'week', 'fortnight', 'month', 'two_months'] } },
  files_location: { label: 'Ubicación de los archivos', rule: { kind: 'choice', options: ['server', 's3'] } },

  firebaseConfig: { label: 'Configuración de Firebase', rule: { kind: 'json-object' } },
  password_min_length: int('Longitud mínima de contraseña', passwordLengthFloor, passwordLengthCeiling),
  password_max_length: int('Longitud máxima de contraseña', passwordLengthFloor, passwordLengthCeiling, true),

  ...Object.fromEntries(
    Object.entries(landingSectionLabels).flatMap(([section, name]) => [
      [`${section}_enabled`, bool(`Sección ${name}`)],
      [`${section}_order`, int(`Orden de la sección ${name}`, 1, 99)],
    ]),
  ),
};

export const landingSectionKeys = Object.keys(landingSectionLabels) as LandingSectionKey[];
export type LandingSectionKey = keyof typeof landingSectionLabels;

/**
 * The enabled sections, sorted by their configured order (ties and unreadable
 * orders keep the spec's order): the portal's landing and the console's
 * preview of it read the same list. 'Nosotros' and 'Misión' are left out
 * while they have neither text nor picture (a new studio's), rather than
 * showing a heading over nothing.
 */
export function landingSections(
  config: Pick<AppConfigMap, `${LandingSectionKey}_enabled` | `${LandingSectionKey}_order` | 'about_text' | 'about_image' | 'mission_text' | 'mission_image'>,
): LandingSectionKey[] {
  const order = (key: LandingSectionKey) => {
    const raw = config[`${key}_order`];
    const value = raw.trim() === '' ? Number.NaN : Number(raw);
    return Number.isFinite(value) ? value : Number.MAX_SAFE_INTEGER;
  };
  const hasSomething = (key: LandingSectionKey) =>
    key === 'about' ? Boolean(config.about_text.trim() || config.about_image.trim()) : key === 'mission' ? Boolean(config.mission_text.trim() || config.mission_image.trim()) : true;
  return landingSectionKeys.filter((key) => isOn(config[`${key}_enabled`]) && hasSomething(key)).sort((a, b) => order(a) - order(b));
}

const emailFormat = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function fits(rule: SettingKind, value: string): boolean {
  switch (rule.kind) {
    case 'boolean':
      return ['true', 'false', '1', '0'].includes(value);
    case 'integer': {
      if (rule.optional && value === '') return true;
      if (!/^-?\d{1,6}$/.test(value)) return false;
      const n = Number(value);
      return n >= rule.min && n <= rule.max;
    }
    case 'choice':
      return rule.options.includes(value);
    case 'colour':
      return /^#[0-9a-fA-F]{6}$/.test(value);
    case 'timezone':
      return value === '' || isTimeZoneName(value.trim());
    case 'utc-offset':
      return parseTimezoneOffset(value) !== null;
    case 'email':
      return value === '' || (value.length <= 254 && emailFormat.test(value));
    case 'url':
      return value === '' || (value.length <= 2000 && isHttpUrl(value));
    case 'whatsapp':
      return value === '' || /^\+?\d{10,15}$/.test(value);
    case 'text': {
      const length = [...value.trim()].length;
      return length >= rule.min && length <= rule.max;
    }
    case 'json-object':
      try {
        const parsed: unknown = JSON.parse(value);
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
      } catch {
        return false;
      }
    case 'package-id':
      return value === '' || /^[1-9]\d{0,9}$/.test(value);
    case 'day-list': {
      if (value === '') return true;
      const days = value.split(',').map((d) => d.trim());
      if (days.length > 6 || !days.every((d) => /^\d{1,2}$/.test(d))) return false;
      const n = days.map(Number);
      return n.every((d, i) => d >= 1 && d <= 30 && (i === 0 || d > (n[i - 1] as number)));
    }
    case 'clabe':
      return value === '' || isValidClabe(value);
    case 'rfc':
      return value === '' || (normalizeRfc(value) === value && rfcProblem(value) === null);
    case 'regime':
      return value === '' || regimeOf(value) !== null;
    case 'postcode':
      return value === '' || /^\d{5}$/.test(value);
    case 'sat-product-key':
      return /^\d{8}$/.test(value);
    case 'sat-unit-key':
      return /^[A-Z0-9]{2,3}$/.test(value);
    case 'series':
      return /^[A-Za-z]{0,25}$/.test(value);
  }
}

function hint(rule: SettingKind): string {
  switch (rule.kind) {
    case 'boolean':
      return 'debe ser «true» (activado) o «false» (desactivado)';
    case 'integer':
      return `debe ser un número entero entre ${rule.min} y ${rule.max}${rule.optional ? ', o quedar vacío' : ''}`;
    case 'choice':
      return `debe ser uno de: ${rule.options.join(', ')}`;
    case 'colour':
      return 'debe ser un color en formato #RRGGBB, por ejemplo #d6336c';
    case 'timezone':
      return 'debe ser una zona horaria válida, por ejemplo America/Mexico_City';
    case 'utc-offset':
      return `debe ser el número de horas completas que el estudio va detrás de la hora universal (UTC), de ${timezoneOffsetRange.min} a ${timezoneOffsetRange.max}; por ejemplo 6 para la Ciudad de México`;
    case 'email':
      return 'debe ser un correo electrónico válido';
    case 'url':
      return 'debe ser una dirección completa que empiece con https://';
    case 'whatsapp':
      return 'debe tener de 10 a 15 dígitos';
    case 'text':
      return `debe tener entre ${rule.min} y ${rule.max} caracteres`;
    case 'json-object':
      return 'debe ser un objeto JSON';
    case 'package-id':
      return 'debe ser el número de un paquete que exista, o quedar vacío';
    case 'day-list':
      return 'deben ser días de 1 a 30, de menor a mayor y separados por comas (por ejemplo 1,3,5), o quedar vacío';
    case 'clabe':
      return 'debe tener 18 dígitos y el último debe ser su dígito verificador; revísala en tu estado de cuenta';
    case 'rfc':
      return 'debe ser un RFC válido en mayúsculas (12 caracteres para una empresa, 13 para una persona física), con su dígito verificador; cópialo de la Constancia de Situación Fiscal';
    case 'regime':
      return 'debe ser un régimen fiscal del catálogo del SAT (por ejemplo 601 o 626)';
    case 'postcode':
      return 'deben ser los 5 números del código postal';
    case 'sat-product-key':
      return 'deben ser los 8 números de una clave del catálogo de productos y servicios del SAT (01010101 si ninguna aplica)';
    case 'sat-unit-key':
      return 'debe ser una clave de unidad del SAT en mayúsculas, por ejemplo E48 (unidad de servicio)';
    case 'series':
      return 'deben ser solo letras, hasta 25';
  }
}

/** The Spanish message for a value that does not fit its setting. */
export function appConfigValueText(key: string, reason: 'invalid' | 'max-below-min' = 'invalid'): string {
  const setting = appConfigRules[key as AppConfigKey];
  if (!setting) return 'El valor de la configuración no es válido.';
  if (reason === 'max-below-min') {
    return `El valor de «${setting.label}» no es válido: no puede ser menor que «${appConfigRules.password_min_length?.label}».`;
  }
  return `El valor de «${setting.label}» no es válido: ${hint(setting.rule)}.`;
}

/** True when the value fits its setting's type (keys without a rule take any text). */
export function isValidAppConfigValue(key: string, value: string): boolean {
  const setting = appConfigRules[key as AppConfigKey];
  return !setting || fits(setting.rule, value);
}

/** The keys whose value names a class package (the server checks that it exists). */
export const appConfigPackageKeys: readonly AppConfigKey[] = (Object.keys(appConfigRules) as AppConfigKey[]).filter(
  (key) => appConfigRules[key]?.rule.kind === 'package-id',
);

/**
 * The first problem of a change: a value that does not fit its setting, or a
 * maximum password length below the minimum once the change is applied over
 * `current` (the stored values). Null when every value fits.
 */
export function appConfigProblem(
  entries: readonly AppConfigEntry[],
  current: Readonly<Record<string, string>>,
): { key: string; message: string } | null {
  for (const { key, value } of entries) {
    if (!isValidAppConfigValue(key, value)) return { key, message: appConfigValueText(key) };
  }
  const after = { ...current, ...Object.fromEntries(entries.map((e) => [e.key, e.value])) };
  const min = Number(after.password_min_length || appConfigDefaults.password_min_length);
  const max = after.password_max_length ?? '';
  if (max !== '' && Number(max) < min) return { key: 'password_max_length', message: appConfigValueText('password_max_length', 'max-below-min') };
  return timeZoneProblem(entries) ?? fiscalProblem(entries, after);
}

/**
 * Decision 084: the studio's regime must be one of its RFC's persona (a company cannot be in 612), and the global
 * invoice's periodicity must wait for the request window of its sales (periodicityFitsWindow).
 */
function fiscalProblem(entries: readonly AppConfigEntry[], after: Readonly<Record<string, string>>): { key: string; message: string } | null {
  const touched = new Set(entries.map((e) => e.key));
  const rfc = after.fiscal_rfc ?? '';
  const regime = regimeOf(after.fiscal_regime ?? '');
  const kind = rfc ? rfcKind(rfc) : null;
  if ((touched.has('fiscal_rfc') || touched.has('fiscal_regime')) && kind && regime && !regime[kind]) {
    return {
      key: touched.has('fiscal_regime') ? 'fiscal_regime' : 'fiscal_rfc',
      message: `El «Régimen fiscal del estudio» no corresponde a su RFC: ${regime.code} es para ${kind === 'moral' ? 'personas físicas' : 'empresas (personas morales)'} y el RFC es de ${kind === 'moral' ? 'una empresa' : 'una persona física'}.`,
    };
  }
  const periodicity = after.cfdi_global_periodicity ?? appConfigDefaults.cfdi_global_periodicity;
  const days = after.cfdi_request_days ?? appConfigDefaults.cfdi_request_days;
  if ((touched.has('cfdi_global_periodicity') || touched.has('cfdi_request_days')) && !periodicityFitsWindow(periodicity, days)) {
    return {
      key: touched.has('cfdi_global_periodicity') ? 'cfdi_global_periodicity' : 'cfdi_request_days',
      message:
        'La «Periodicidad de la factura global» no espera al plazo para pedir factura: el SAT pide emitir la factura global a más tardar 72 horas después de su periodo, y una venta que aún puede facturarse a una persona no puede ir en ella. Con el plazo hasta fin de mes usa periodicidad mensual o bimestral; con un plazo en días, usa 3 días o menos.',
    };
  }
  return null;
}

/** The value a change gives `key` (the last one when it is written twice), or undefined when it leaves it alone. */
const changedValue = (entries: readonly AppConfigEntry[], key: AppConfigKey): string | undefined => entries.findLast((e) => e.key === key)?.value;

/**
 * Decision 030: `timezone` and `timezone_offset` must say the same thing. The
 * offset is whole hours, so a zone whose standard time is not (Asia/Kolkata,
 * UTC+5:30) cannot be the studio's; a change that sets both must make them agree.
 */
function timeZoneProblem(entries: readonly AppConfigEntry[]): { key: string; message: string } | null {
  const zone = changedValue(entries, 'timezone')?.trim();
  if (!zone) return null;
  const hours = standardOffsetHours(zone);
  if (hours === null) {
    return { key: 'timezone', message: `El valor de «Zona horaria» no es válido: ${zone} no está a un número de horas completas de la hora universal (UTC), y la diferencia horaria del estudio se cuenta en horas completas.` };
  }
  const offset = changedValue(entries, 'timezone_offset');
  if (offset !== undefined && parseTimezoneOffset(offset) !== hours) {
    return { key: 'timezone_offset', message: `La «Diferencia horaria (horas)» no coincide con la zona horaria ${zone}, que es de ${hours} horas. Escribe ${hours} o cambia solo uno de los dos.` };
  }
  return null;
}

/**
 * A change as it is saved, with the other time-zone setting brought in step
 * (decision 030): a new zone writes its standard offset ('America/Tijuana' →
 * '8'); a new offset the studio's zone does not have clears the zone (''), so
 * the offset decides, as the spec says. An offset equal to the zone's (a
 * settings form saved whole) leaves the zone and its daylight saving alone.
 * Call it after appConfigProblem found nothing.
 */
export function appConfigChangeInStep(entries: readonly AppConfigEntry[], current: Readonly<Record<string, string>>): AppConfigEntry[] {
  const zone = changedValue(entries, 'timezone')?.trim();
  const offset = changedValue(entries, 'timezone_offset');
  if (zone !== undefined && offset === undefined) {
    const hours = zone ? standardOffsetHours(zone) : null;
    return hours === null ? [...entries] : [...entries, { key: 'timezone_offset', value: String(hours) }];
  }
  if (offset !== undefined && zone === undefined) {
    // A zone never saved is the default one.
    const storedZone = (current.timezone ?? appConfigDefaults.timezone).trim();
    if (storedZone && isTimeZoneName(storedZone) && standardOffsetHours(storedZone) !== parseTimezoneOffset(offset)) {
      return [...entries, { key: 'timezone', value: '' }];
    }
  }
  return [...entries];
}
