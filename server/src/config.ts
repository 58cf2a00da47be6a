import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { videoFileMaxBytes, z } from '@estudio/core';

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
  /**
   * Origins whose pages may call /api and /trpc from the browser (CORS), comma-separated
   * (`https://admin.estudio.mx,https://estudio.mx`). Default: PUBLIC_URL's origin and its
   * `admin.` host, where the previous admin panel lives (decision 032).
   */
  CORS_ORIGINS: optionalText,
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
  /** The migrations applied at start: the repository's (server/src and the built server/dist both sit two levels below it). */
  MIGRATIONS_DIR: z.string().min(1).default(path.resolve(here, '../../db/migrations')).transform((p) => path.resolve(p)),
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
  /** Payments: without STRIPE_SECRET_KEY cards go to the embedded sandbox provider. */
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** Where stripe-node sends its requests (tests point it at a loopback fake). */
  STRIPE_API_HOST: optionalText,
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  PAYPAL_CLIENT_ID: optionalText,
  PAYPAL_SECRET: optionalText,
  PAYPAL_API_BASE: z.string().trim().url().default('https://api-m.sandbox.paypal.com'),
  /**
   * CFDI 4.0 invoices through facturapi (decision 084): the key lives in the owner's settings (written, never read back);
   * FACTURAPI_API_BASE points the SDK elsewhere (the tests' loopback fake).
   */
  FACTURAPI_API_BASE: z.string().trim().url().default('https://www.facturapi.io/v2'),
  /** Largest upload accepted by POST /api/files (bytes). */
  FILES_MAX_BYTES: positiveInt(5 * 1024 * 1024),
  /**
   * Largest video file accepted by POST /api/files/video (bytes; streamed, never held in memory, decision 046).
   * 2 GB by default; at most what file.size (a PostgreSQL integer) can record.
   */
  FILES_VIDEO_MAX_BYTES: z.coerce.number().int().positive().max(2_147_483_647).default(videoFileMaxBytes),
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
   * Messages (decision 021). SMTP and the WhatsApp Cloud API; the
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
  /** Connections of the PostgreSQL pool of each process. */
  DATABASE_POOL_MAX: positiveInt(10),
  /**
   * GET /metrics (Prometheus) answers only with `Authorization: Bearer <METRICS_TOKEN>`;
   * unset, the route does not exist (decision 075).
   */
  METRICS_TOKEN: optionalText.pipe(z.string().min(24, { error: 'METRICS_TOKEN debe tener al menos 24 caracteres.' }).optional()),
  /** Open connections one address may hold (0: no cap). Off with TRUST_PROXY: behind a proxy, the proxy caps (decision 076). */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  /** How long a SIGTERM waits for the requests in flight before closing their connections (decision 076). */
  SHUTDOWN_GRACE_MS: positiveInt(10_000),
  /**
   * Backups (decision 077): the folder `cli.mjs backup` writes to, and where an embedded studio's
   * server (PGlite) writes its own every day at BACKUP_AT (studio time); the newest BACKUP_KEEP stay.
   */
  BACKUP_DIR: optionalText.transform((p) => (p ? path.resolve(p) : undefined)),
  BACKUP_KEEP: positiveInt(14),
  BACKUP_AT: z
    .string()
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'BACKUP_AT es una hora HH:MM (03:30).' })
    .default('03:30'),
  /** Set when behind a load balancer so request.ip is the client's address. */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'AUTH_SECRET' | 'CORS_ORIGINS'> {
  AUTH_SECRET: string;
  PUBLIC_URL: string;
  /** The browser origins allowed to call the API (exact `scheme://host[:port]`). */
  CORS_ORIGINS: string[];
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
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/$/, '');
  return {
    ...e,
    AUTH_SECRET: e.AUTH_SECRET ?? randomBytes(32).toString('base64url'),
    PUBLIC_URL: publicUrl,
    CORS_ORIGINS: e.CORS_ORIGINS ? corsOrigins(e.CORS_ORIGINS) : defaultCorsOrigins(publicUrl),
    authSecretGenerated,
  };
}

/** `https://host[:port]` exactly as a browser sends it in `Origin`, or null. */
function originOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return null;
  return value.replace(/\/$/, '') === url.origin ? url.origin : null;
}

function corsOrigins(list: string): string[] {
  const values = list.split(',').map((v) => v.trim()).filter(Boolean);
  const wrong = values.filter((v) => originOf(v) === null);
  if (wrong.length) {
    throw new ConfigError(`Configuración inválida:\n  CORS_ORIGINS: ${wrong.map((v) => `"${v}"`).join(', ')} no es un origen; escribe cada uno como https://dominio[:puerto], sin ruta y sin *.`);
  }
  return [...new Set(values.map((v) => originOf(v) as string))];
}

/** The studio's own origin and its `admin.` host (www.estudio.mx → admin.estudio.mx); an IP address or localhost has no admin host. */
function defaultCorsOrigins(publicUrl: string): string[] {
  const own = new URL(publicUrl);
  const host = own.hostname;
  if (host === 'localhost' || /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[')) return [own.origin];
  const admin = new URL(own.origin);
  admin.hostname = host.startsWith('admin.') ? host : `admin.${host.replace(/^www\./, '')}`;
  return [...new Set([own.origin, admin.origin])];
}
