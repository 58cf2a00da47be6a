import { appConfigRules, globalPeriodicities, landingSectionLabels, landingSectionKeys, mxTexts, taxRegimes, type AppConfigKey } from '@estudio/core';
import { noticeKeys } from '../outbox/AutomaticNotices.tsx';
import { bankTransferKeys } from '../packages/BankTransferSettings.tsx';

/**
 * The studio's settings (the app configuration, `GET/PUT /api/appconfig`) as
 * an owner thinks of them: five tabs, each a few titled groups of fields.
 * The screen is built from this description; a field's name is core's
 * appConfigRules label when the setting has one (the same words the server's
 * refusal uses), otherwise the label written here.
 */
/** image: the console's upload-with-preview widget; the setting keeps the stored file's address. */
export type SettingKind = 'text' | 'textarea' | 'switch' | 'integer' | 'colour' | 'choice' | 'timezone' | 'package' | 'code' | 'image';

export interface SettingField {
  key: AppConfigKey;
  kind: SettingKind;
  /** For settings without a label in core's appConfigRules. */
  label?: string;
  help?: string;
  options?: { value: string; label: string }[];
  /** Spans the whole row of the grid. */
  wide?: boolean;
}

export interface SettingsGroup {
  title: string;
  intro?: string;
  fields: SettingField[];
}

export type SettingsTabKey = 'marca' | 'reservas' | 'pagos' | 'facturacion' | 'sitio' | 'notificaciones';

export interface SettingsTab {
  key: SettingsTabKey;
  label: string;
  groups: SettingsGroup[];
}

export const labelOf = (field: SettingField): string => appConfigRules[field.key]?.label ?? field.label ?? field.key;

const sw = (key: AppConfigKey, help?: string): SettingField => ({ key, kind: 'switch', ...(help ? { help } : {}) });
const int = (key: AppConfigKey, help?: string): SettingField => ({ key, kind: 'integer', ...(help ? { help } : {}) });
const text = (key: AppConfigKey, label?: string, help?: string): SettingField => ({ key, kind: 'text', ...(label ? { label } : {}), ...(help ? { help } : {}) });
const image = (key: AppConfigKey, label: string, help?: string): SettingField => ({ key, kind: 'image', label, ...(help ? { help } : {}) });

/** The landing's sections: shown or not, and their place (1 goes first). */
const sectionFields: SettingField[] = landingSectionKeys.flatMap((section) => [
  { key: `${section}_enabled` as AppConfigKey, kind: 'switch' as const, label: landingSectionLabels[section] },
  { key: `${section}_order` as AppConfigKey, kind: 'integer' as const },
]);

export const settingsTabs: SettingsTab[] = [
  {
    key: 'marca',
    label: 'Marca',
    groups: [
      {
        title: 'Nombre y colores',
        fields: [
          text('business_name'),
          text('tagline', 'Lema', 'Se muestra en la portada cuando no hay texto de portada.'),
          { key: 'primary', kind: 'colour' },
          { key: 'secondary', kind: 'colour' },
          { key: 'accent', kind: 'colour' },
        ],
      },
      {
        title: 'Imágenes',
        intro: 'Arrastra o elige cada imagen: se guarda en los archivos del estudio y se ve aquí antes de guardar.',
        fields: [
          image('navbar_logo', 'Logo de la barra superior'),
          image('favicon', 'Icono de la pestaña (favicon)'),
          image('bg_login', 'Fondo de la pantalla de entrada'),
          image('social_media_image', 'Imagen al compartir en redes'),
        ],
      },
      {
        title: 'Contacto y redes',
        fields: [
          text('email'),
          text('whatsapp', undefined, '10 dígitos, o con + y el código de país.'),
          text('location', 'Dirección del estudio'),
          text('facebook'),
          text('instagram'),
          text('tiktok'),
          text('powered_by_name', 'Nombre de «Powered by»'),
          text('powered_by_url'),
        ],
      },
    ],
  },
  {
    key: 'reservas',
    label: 'Reservas',
    groups: [
      {
        title: 'Zona horaria',
        intro: 'Todas las horas del estudio se muestran en esta zona. Al guardar una zona se escribe su diferencia horaria; al cambiar solo la diferencia, la zona se quita.',
        fields: [
          { key: 'timezone', kind: 'timezone', help: 'Por ejemplo America/Mexico_City o America/Tijuana.' },
          { key: 'timezone_offset', kind: 'integer', help: 'Horas detrás de la hora universal: 6 para la Ciudad de México.' },
        ],
      },
      {
        title: 'Reservar',
        fields: [
          int('reservation_timeframe_hours'),
          int('reservation_timeframe_minutes'),
          int('reservation_opens_days'),
          sw('waitlist_enabled'),
          sw('allow_class_guests'),
          sw('guest_uses_credit'),
          int('check_in_opens_minutes'),
          int('check_in_closes_minutes'),
        ],
      },
      {
        title: 'Cancelar',
        fields: [
          sw('allow_cancel_reservations'),
          sw('allow_cancel_after_treshold', 'Fuera de tiempo el crédito no se devuelve.'),
          int('cancel_timeframe_value'),
          {
            key: 'cancel_timeframe_unit',
            kind: 'choice',
            options: [
              { value: 'minutes', label: 'Minutos' },
              { value: 'hours', label: 'Horas' },
              { value: 'days', label: 'Días' },
            ],
          },
          int('max_cancels_per_available_class'),
        ],
      },
      {
        title: 'Membresía ilimitada',
        fields: [sw('unlimited_membership_penalties_enabled'), int('unlimited_max_no_shows_for_penalty'), int('unlimited_penalty_days')],
      },
      {
        title: 'Funciones',
        fields: [
          sw('single_class_enabled'),
          sw('videos_enabled'),
          sw('subscriptions_enabled'),
          sw('allow_restricted_class_types'),
          sw('allow_restricted_times'),
          sw('qrcode_enabled'),
          sw('reservation_rating_enabled'),
        ],
      },
    ],
  },
  {
    key: 'pagos',
    label: 'Pagos',
    groups: [
      {
        title: 'Compras',
        fields: [
          sw('checkout_disabled', 'Encendido, nadie puede comprar en el portal.'),
          sw('cash_checkout_enabled'),
          sw('discounts_enabled'),
          sw('payment_sources_enabled'),
          int('cash_hold_hours'),
          int('card_hold_minutes'),
          { key: 'signup_fee', kind: 'package', help: 'Se cobra con la primera compra de cada cliente. Vacío: sin inscripción.' },
          text('checkout_redirect_url'),
        ],
      },
      {
        title: 'Tarjeta y PayPal',
        intro: 'Aquí solo van las llaves públicas. Las llaves secretas se configuran en el servidor (STRIPE_SECRET_KEY, PAYPAL_SECRET) y nunca se muestran en la consola.',
        fields: [
          text('stripe_public', 'Llave pública de Stripe', 'Empieza con pk_live_ o pk_test_. Vacía: pagos de prueba.'),
          {
            key: 'stripe_checkout_mode',
            kind: 'choice',
            options: [
              { value: 'elements', label: 'Formulario en el portal (Elements)' },
              { value: 'checkout', label: 'Página de pago de Stripe (Checkout)' },
            ],
          },
          sw('paypal_enabled'),
          text('paypal_client_id', 'Client ID de PayPal (público)'),
        ],
      },
      {
        title: 'OXXO, transferencia SPEI y meses sin intereses',
        intro: 'Con Stripe configurado en el servidor: fichas OXXO y una CLABE para cada cliente; los pagos se confirman solos. Meses sin intereses con tarjetas de crédito participantes.',
        fields: [
          sw('oxxo_enabled'),
          sw('spei_enabled'),
          int('oxxo_expires_days', 'De 1 a 7 días; la ficha vence a las 23:59 (hora de la Ciudad de México). El lugar queda apartado hasta entonces.'),
          int('installments_min_amount', 'Stripe pide al menos $300 para 3 meses, $600 para 6, $900 para 9 y $1,200 para 12.'),
          int('renewal_notice_days', 'Las suscripciones pagadas con OXXO o SPEI reciben su nueva ficha o sus datos de transferencia estos días antes de cada cargo.'),
          int('renewal_grace_days', 'Pasados estos días sin pago, la suscripción se cancela y se avisa al cliente.'),
        ],
      },
      {
        title: 'Permisos de Recepción',
        intro: 'Los administradores pueden regalar cualquier paquete y hacer reembolsos. Recepción solo regala paquetes de hasta este precio y siempre con un motivo, que queda en Actividad.',
        fields: [int('reception_gift_max_price')],
      },
    ],
  },
  {
    key: 'facturacion',
    label: mxTexts.fiscalSettings.tab,
    groups: [
      {
        title: mxTexts.fiscalSettings.studioGroup,
        intro: mxTexts.fiscalSettings.studioIntro,
        fields: [
          sw('cfdi_enabled'),
          text('fiscal_rfc'),
          { key: 'fiscal_legal_name', kind: 'text', help: 'Sin el régimen societario (sin «S.A. de C.V.»), como en la Constancia de Situación Fiscal.' },
          { key: 'fiscal_regime', kind: 'choice', options: taxRegimes.map((r) => ({ value: r.code, label: `${r.code} · ${r.label}` })) },
          text('fiscal_postcode'),
          text('cfdi_series'),
          text('cfdi_global_series'),
          text('cfdi_credit_note_series'),
        ],
      },
      {
        title: mxTexts.fiscalSettings.productsGroup,
        intro: mxTexts.fiscalSettings.productsIntro,
        fields: [
          text('sat_product_key_classes', undefined, 'Pregunta a tu contador la clave del catálogo de productos y servicios del SAT. 01010101: «No existe en el catálogo».'),
          text('sat_product_key_memberships'),
          text('sat_unit_key', undefined, 'E48: unidad de servicio.'),
          {
            key: 'cfdi_iva_rate',
            kind: 'choice',
            options: [
              { value: '16', label: '16 %' },
              { value: '8', label: '8 % (región fronteriza)' },
              { value: '0', label: '0 %' },
            ],
          },
        ],
      },
      {
        title: mxTexts.fiscalSettings.customersGroup,
        intro: mxTexts.fiscalSettings.customersIntro,
        fields: [
          int('cfdi_request_days', '0: hasta el último día del mes de la compra. El SAT pide la factura global a más tardar 72 horas después de su periodo.'),
          { key: 'cfdi_global_periodicity', kind: 'choice', options: Object.entries(globalPeriodicities).map(([value, label]) => ({ value, label })) },
        ],
      },
    ],
  },
  {
    key: 'sitio',
    label: 'Sitio',
    groups: [
      {
        title: 'Secciones de la portada',
        intro: 'Qué secciones se muestran y en qué orden (1 va primero). La vista previa las acomoda mientras escribes.',
        fields: sectionFields,
      },
      {
        title: 'Textos de la portada',
        fields: [
          text('hero_title', 'Título de la portada'),
          { key: 'hero_text', kind: 'textarea', label: 'Texto de la portada' },
          image('hero_image', 'Imagen de la portada'),
          text('about_title', 'Título de Nosotros'),
          { key: 'about_text', kind: 'textarea', label: 'Texto de Nosotros' },
          image('about_image', 'Imagen de Nosotros'),
          text('mission_title', 'Título de Misión'),
          { key: 'mission_text', kind: 'textarea', label: 'Texto de Misión' },
          image('mission_image', 'Imagen de Misión'),
          { key: 'home_reserve_class_package_id', kind: 'package' },
          text('class_packages_name', 'Nombre del menú de paquetes'),
          text('class_packages_path', 'Dirección del menú de paquetes'),
        ],
      },
      {
        title: 'Banner y aviso emergente',
        fields: [
          sw('banner_enabled'),
          text('banner_text', 'Texto del banner'),
          text('banner_link', 'Enlace del banner'),
          sw('popup_presencial_enabled', 'Se muestra una vez al día en el calendario de clases presenciales.'),
          image('popup_presencial_src', 'Imagen del aviso emergente'),
          text('popup_presencial_link', 'Enlace del aviso emergente'),
        ],
      },
      {
        title: 'Cuentas y contraseñas',
        fields: [
          int('password_min_length'),
          { key: 'password_max_length', kind: 'integer', help: 'Vacío: sin máximo.' },
          sw('password_require_lowercase'),
          sw('password_require_uppercase'),
          sw('password_require_numeric'),
          sw('password_require_non_alphanumeric'),
        ],
      },
      {
        title: 'Archivos',
        fields: [
          {
            key: 'files_location',
            kind: 'choice',
            options: [
              { value: 'server', label: 'En el servidor' },
              { value: 's3', label: 'En S3' },
            ],
          },
          text('S3_ENDPOINT'),
          text('bucket', 'Bucket de S3'),
          text('region', 'Región de S3'),
        ],
      },
      {
        title: 'Avanzado',
        intro: 'Código que se agrega a cada página del portal. Pégalo como te lo dé la herramienta (Google Analytics, Meta Pixel).',
        fields: [
          text('domain', 'Dominio'),
          { key: 'app_css', kind: 'code', label: 'CSS propio' },
          { key: 'head_tracking_code', kind: 'code', label: 'Código en <head>' },
          { key: 'body_tracking_code', kind: 'code', label: 'Código en <body>' },
        ],
      },
    ],
  },
  // Notificaciones: the Mensajes screen's own panels (sending settings, automatic notices), shown here too.
  { key: 'notificaciones', label: 'Notificaciones', groups: [] },
];

/**
 * The settings this screen does not edit in its own form: the bank transfer
 * (BankTransferSettings, in Pagos) and the automatic notices
 * (AutomaticNotices, in Notificaciones) have their panels, reused as they
 * are; `firebaseConfig` follows the server's configuration and is never stored.
 */
export const settingsEditedElsewhere: readonly AppConfigKey[] = [...bankTransferKeys, ...noticeKeys, 'firebaseConfig'];

/** Every key the form edits. */
export const settingsFormKeys: AppConfigKey[] = settingsTabs.flatMap((tab) => tab.groups.flatMap((g) => g.fields.map((f) => f.key)));

/** The tab a setting is in (to show a refusal where its field is). */
export function tabOf(key: string): SettingsTabKey | null {
  return settingsTabs.find((tab) => tab.groups.some((g) => g.fields.some((f) => f.key === key)))?.key ?? null;
}
