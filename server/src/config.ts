import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from '@estudio/core';

const here = path.dirname(fileURLToPath(import.meta.url));

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Public origin used in mailed links; defaults to http://HOST:PORT. */
  PUBLIC_URL: optionalText,
  /** postgres://... for PostgreSQL; absent means embedded PGlite in DATA_DIR. */
  DATABASE_URL: optionalText,
  // Folders are made absolute once here: @fastify/static and PGlite must not depend on the working directory later.
  DATA_DIR: z.string().min(1).default('data').transform((p) => path.resolve(p)),
  AUTH_PROVIDER: z.enum(['local', 'firebase']).default('local'),
  AUTH_SECRET: optionalText.pipe(z.string().min(32, { error: 'AUTH_SECRET debe tener al menos 32 caracteres.' }).optional()),
  FIREBASE_PROJECT_ID: optionalText,
  FIREBASE_AUTH_EMULATOR_HOST: optionalText,
  FIREBASE_WEB_API_KEY: optionalText,
  FIREBASE_AUTH_DOMAIN: optionalText,
  FIREBASE_APP_ID: optionalText,
  PORTAL_DIST: z.string().min(1).default(path.resolve(here, '../../portal/dist')).transform((p) => path.resolve(p)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ID_TOKEN_TTL_SECONDS: positiveInt(3600),
  REFRESH_TOKEN_TTL_DAYS: positiveInt(30),
  PASSWORD_RESET_TTL_MINUTES: positiveInt(60),
  /** Lifetime of the link that confirms a new sign-in e-mail. */
  EMAIL_CHANGE_TTL_MINUTES: positiveInt(24 * 60),
  /** Calls per client address and window of sign-in, sign-up, recovery and the e-mail change (refresh: four times as many), counted inside batches too (decision 012). */
  AUTH_RATE_LIMIT_MAX: positiveInt(30),
  AUTH_RATE_LIMIT_WINDOW_MS: positiveInt(60_000),
  /** Discount codes tried per customer and window (validation, and checkouts that carry a code). */
  DISCOUNT_RATE_LIMIT_MAX: positiveInt(20),
  DISCOUNT_RATE_LIMIT_WINDOW_MS: positiveInt(15 * 60_000),
  /** Where the limits are counted: redis://... shares them through Redis; absent, through the app's database. */
  REDIS_URL: optionalText,
  /** Password hashes run at once per process (default: the CPUs), and how many more may wait before 'busy' (503). */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().positive().optional(),
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).default(16),
  /** Failed sign-ins per account and window before 'auth/too-many-requests'. */
  LOGIN_FAILURE_MAX: positiveInt(10),
  LOGIN_FAILURE_WINDOW_MS: positiveInt(15 * 60_000),
  /** Payments (issue 4): without STRIPE_SECRET_KEY cards go to the embedded sandbox provider. */
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** Where stripe-node sends its requests (tests point it at a loopback fake). */
  STRIPE_API_HOST: optionalText,
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_SECRET: optionalText,
  PAYPAL_API_BASE: z.string().trim().url().default('https://api-m.sandbox.paypal.com'),
  /** Largest upload accepted by POST /api/files (bytes). */
  FILES_MAX_BYTES: positiveInt(5 * 1024 * 1024),
  /** Bytes a customer may keep in uploaded files, all together (staff and admins: no quota). */
  FILES_CUSTOMER_QUOTA_BYTES: positiveInt(20 * 1024 * 1024),
  /** Local file storage; defaults to DATA_DIR/files. Served at /files/*. */
  FILES_DIR: optionalText.transform((p) => (p ? path.resolve(p) : undefined)),
  /** The desk's releases (electron-builder's output: latest.yml and installers), served at /desk/updates; defaults to DATA_DIR/desk-releases. */
  DESK_RELEASES_DIR: optionalText.transform((p) => (p ? path.resolve(p) : undefined)),
  /** S3 credentials for files_location 's3' (else the AWS SDK's default chain). Endpoint, bucket and region are app config keys. */
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /**
   * Messages (issue 17, decision 021). SMTP and the WhatsApp Cloud API; the
   * studio's messaging settings (admin console) win over these. With neither,
   * messages wait in the outbox (readable at the desk).
   */
  SMTP_HOST: optionalText,
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SMTP_SECURE: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  /** "Estudio <hola@estudio.mx>"; defaults to the studio's name and contact e-mail. */
  SMTP_FROM: optionalText,
  WHATSAPP_PHONE_NUMBER_ID: optionalText,
  WHATSAPP_ACCESS_TOKEN: optionalText,
  WHATSAPP_API_BASE: z.string().trim().url().default('https://graph.facebook.com/v21.0'),
  WHATSAPP_TEMPLATE_LANGUAGE: z.string().trim().min(2).default('es_MX'),
  /** The delivery worker and the studio's clock run in every server process unless turned off ('off'). */
  MESSAGES_WORKER: z.enum(['on', 'off']).default('on'),
  CLOCK: z.enum(['on', 'off']).default('on'),
  /** How long a sender's claim on a message lasts before another process may take it (a crashed sender). */
  MESSAGE_CLAIM_LEASE_MS: positiveInt(60_000),
  /** How often the worker looks for due messages, and the clock for due jobs. */
  MESSAGE_POLL_MS: positiveInt(1_000),
  CLOCK_TICK_MS: positiveInt(5_000),
  /** Set when behind a load balancer so request.ip is the client's address. */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'AUTH_SECRET'> {
  AUTH_SECRET: string;
  PUBLIC_URL: string;
  /** True when AUTH_SECRET was generated for this process (tokens die with it). */
  authSecretGenerated: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the environment once. Everything else receives the
 * returned object instead of reading process.env.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Configuración inválida:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET && e.AUTH_PROVIDER === 'local') {
    throw new ConfigError('Configuración inválida:\n  AUTH_SECRET: es obligatorio en producción con AUTH_PROVIDER=local.');
  }
  if (e.AUTH_PROVIDER === 'firebase' && !e.FIREBASE_PROJECT_ID) {
    throw new ConfigError('Configuración inválida:\n  FIREBASE_PROJECT_ID: es obligatorio con AUTH_PROVIDER=firebase.');
  }
  const authSecretGenerated = !e.AUTH_SECRET;
  return {
    ...e,
    AUTH_SECRET: e.AUTH_SECRET ?? randomBytes(32).toString('base64url'),
    PUBLIC_URL: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, ''),
    authSecretGenerated,
  };
}
