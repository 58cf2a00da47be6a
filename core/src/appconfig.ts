/**
 * Every app-configuration key named by the specification, with the demo
 * studio's value. Values are strings, as the spec's `{config: [{key, value}]}`
 * carries them. The seed writes these; `GET /api/appconfig` reads them back.
 */
export const appConfigDefaults = {
  // Branding and contact
  business_name: 'Estudio Demo',
  tagline: 'Muévete, respira, vuelve a ti.',
  primary: '#d6336c',
  secondary: '#1c7ed6',
  accent: '#f59f00',
  navbar_logo: '/demo/logo.svg',
  favicon: '/demo/favicon.svg',
  bg_login: '/demo/bg-login.jpg',
  social_media_image: '/demo/social.jpg',
  app_css: '',
  head_tracking_code: '',
  body_tracking_code: '',
  email: 'hola@estudio.demo',
  whatsapp: '5512345678',
  facebook: 'https://facebook.com/estudiodemo',
  instagram: 'https://instagram.com/estudiodemo',
  tiktok: 'https://tiktok.com/@estudiodemo',
  location: 'Av. Álvaro Obregón 120, Roma Norte, Ciudad de México',
  domain: 'localhost',
  powered_by_url: 'https://estudio.demo',
  powered_by_name: 'Estudio Demo',

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
  unlimited_membership_penalties_enabled: 'true',
  banner_enabled: 'true',
  banner_text: '¡Nuevo! Clases de Barre los sábados. Reserva tu lugar.',
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
  cancel_timeframe_value: '12',
  cancel_timeframe_unit: 'hours',
  allow_cancel_reservations: 'true',
  allow_cancel_after_treshold: 'true',
  max_cancels_per_available_class: '2',
  /** Consecutive no-shows before an unlimited member is penalised (a customer's own value wins). */
  unlimited_max_no_shows_for_penalty: '3',
  /** Days an unlimited member stays blocked after the penalty starts. */
  unlimited_penalty_days: '7',

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
  signup_fee: '',
  home_reserve_class_package_id: '',

  // Files
  files_location: 'server',
  S3_ENDPOINT: '',
  bucket: '',
  region: '',

  // Sign-in provider
  firebaseConfig: '{"provider":"local"}',
  password_min_length: '6',
  password_max_length: '',
  password_require_lowercase: 'false',
  password_require_uppercase: 'false',
  password_require_numeric: 'false',
  password_require_non_alphanumeric: 'false',

  // Landing sections: enabled flag and order
  hero_enabled: 'true',
  hero_order: '1',
  hero_title: 'Estudio Demo',
  hero_text: 'Clases de yoga, pilates, indoor cycling y barre en la Roma y en Coyoacán.',
  hero_image: '/demo/hero.jpg',
  about_enabled: 'true',
  about_order: '2',
  about_title: 'Nosotros',
  about_text: 'Somos un estudio boutique fundado en 2019 en la Ciudad de México. Grupos pequeños, coaches certificados y un ambiente donde todos son bienvenidos.',
  about_image: '/demo/about.jpg',
  mission_enabled: 'true',
  mission_order: '3',
  mission_title: 'Misión',
  mission_text: 'Acompañarte a moverte con intención, todos los días, con clases que se adaptan a ti.',
  mission_image: '/demo/mission.jpg',
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
export const appConfigKeys = Object.keys(appConfigDefaults) as AppConfigKey[];
export type AppConfigMap = Record<AppConfigKey, string>;

export interface AppConfigEntry { key: string; value: string }

/** Turns the spec's key/value list into a lookup, falling back to the defaults. */
export function configMap(entries: readonly AppConfigEntry[]): AppConfigMap {
  const map: Record<string, string> = { ...appConfigDefaults };
  for (const { key, value } of entries) map[key] = value;
  return map as AppConfigMap;
}

export const isOn = (value: string | undefined): boolean => value === 'true' || value === '1';
